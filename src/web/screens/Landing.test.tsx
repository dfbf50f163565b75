import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Ack } from '../../shared/protocol';
import { MemoryRouter } from '../router';
import { Landing } from './Landing';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const ok: Ack<null> = { ok: true, data: null };

function stubApi(stats: unknown, config: unknown) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      const body = url === '/api/stats' ? stats : url === '/api/config' ? config : null;
      if (body === null) return new Response('nope', { status: 500 });
      return new Response(JSON.stringify(body), { status: 200 });
    }),
  );
}

function show(props: Partial<Parameters<typeof Landing>[0]> = {}) {
  return render(
    <MemoryRouter>
      <Landing onCreate={async () => ok} onJoin={async () => ok} {...props} />
    </MemoryRouter>,
  );
}

describe('Landing', () => {
  it('shows the title, the tagline, the two actions and 127843 hands while the count fails to load', async () => {
    stubApi(null, null);
    await act(async () => show());
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Chipless');
    expect(screen.getByText('Play poker without chips')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Start a Game' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Join with Code' })).toBeTruthy();
    expect(screen.getByText('127843 hands dealt')).toBeTruthy();
  });

  it("always has the support link: the About page's support section while the config is not loaded", async () => {
    stubApi(null, null);
    await act(async () => show());
    expect(screen.getByRole('link', { name: 'Support Chipless' }).getAttribute('href')).toBe(
      '/about#support',
    );
  });

  it('one hand dealt is "1 hand dealt" (a new server\'s first hand)', async () => {
    stubApi({ totalHandsDealt: 1 }, null);
    await act(async () => show());
    expect(screen.getByText('1 hand dealt')).toBeTruthy();
  });

  it('shows the real count, the support link and the contact e-mail once loaded', async () => {
    stubApi(
      { totalHandsDealt: 1234567 },
      { contactEmail: 'hi@chipless.test', supportUrl: 'https://x.test/s' },
    );
    await act(async () => show());
    expect(screen.getByText('1234567 hands dealt')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Support Chipless' }).getAttribute('href')).toBe(
      'https://x.test/s',
    );

    fireEvent.click(screen.getByRole('button', { name: 'How to play, FAQ and contact' }));
    const menu = screen.getByRole('dialog', { name: 'Menu' });
    expect(within(menu).getByRole('heading', { name: 'How to Play' })).toBeTruthy();
    expect(within(menu).getAllByRole('listitem')).toHaveLength(5);
    expect(within(menu).getByRole('link', { name: 'FAQ' }).getAttribute('href')).toBe('/faq');
    expect(within(menu).getByRole('link', { name: 'hi@chipless.test' }).getAttribute('href')).toBe(
      'mailto:hi@chipless.test',
    );
    expect(within(menu).getByRole('heading', { name: 'Contact' })).toBeTruthy();
    expect(menu.textContent).toContain('Questions or ideas? Write to us:hi@chipless.test');
  });

  it('shows no support link or e-mail that is not an http(s) URL, a same-site path or a plain address', async () => {
    stubApi(null, {
      contactEmail: 'a@x.test?bcc=b@evil.test',
      supportUrl: 'data:text/html,<script>1</script>',
    });
    await act(async () => show());
    expect(screen.queryByRole('link', { name: 'Support Chipless' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'How to play, FAQ and contact' }));
    const menu = screen.getByRole('dialog', { name: 'Menu' });
    expect(within(menu).queryByRole('link', { name: /@/ })).toBeNull();
    // No address to show: no Contact section either, not "Write to us:" followed by nothing.
    expect(within(menu).queryByRole('heading', { name: 'Contact' })).toBeNull();
    expect(menu.textContent).not.toContain('Write to us');
  });

  it('a protocol-relative support URL (//host) is another site: a new tab without opener or referrer', async () => {
    stubApi(null, { contactEmail: '', supportUrl: '//support.example/x' });
    await act(async () => show());
    const link = screen.getByRole('link', { name: 'Support Chipless' });
    expect(link.getAttribute('target')).toBe('_blank');
    expect(link.getAttribute('rel')).toBe('noopener noreferrer');
  });

  it('opens the join form with the code of a join link', async () => {
    stubApi(null, null);
    await act(async () => show({ joinCode: 'QWE12' }));
    const dialog = screen.getByRole('dialog', { name: 'Join a Game' });
    expect((within(dialog).getByLabelText('Room Code') as HTMLInputElement).value).toBe('QWE12');
  });

  it('shows a notice (e.g. the room is gone) that can be dismissed', async () => {
    stubApi(null, null);
    const onDismissNotice = vi.fn();
    await act(async () => show({ notice: 'The host ended the game session.', onDismissNotice }));
    expect(screen.getByText('The host ended the game session.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(onDismissNotice).toHaveBeenCalled();
  });

  it("starts loading the room's screens when a form opens, so Create Room does not wait on them", async () => {
    stubApi(null, null);
    const onFormOpen = vi.fn();
    await act(async () => show({ onFormOpen }));
    expect(onFormOpen).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: 'Start a Game' }));
    expect(onFormOpen).toHaveBeenCalledTimes(1);
    cleanup();
    await act(async () => show({ onFormOpen, joinCode: 'QWE12' }));
    expect(onFormOpen).toHaveBeenCalledTimes(2);
  });

  it("offers the last game's results when a finished game was left with Back to Home, and only then", async () => {
    stubApi(null, null);
    const onOpenLastResults = vi.fn();
    await act(async () => show({ lastResults: 'ABCDE', onOpenLastResults }));
    fireEvent.click(screen.getByRole('button', { name: "Last Game's Results" }));
    expect(onOpenLastResults).toHaveBeenCalledTimes(1);
    cleanup();
    await act(async () => show({ lastResults: null, onOpenLastResults }));
    expect(screen.queryByRole('button', { name: "Last Game's Results" })).toBeNull();
  });
});
