import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Command } from '../../engine/types';
import type { Ack } from '../../shared/protocol';
import { lobby, snapshot, step } from '../test/rooms';
import { Lobby } from './Lobby';

afterEach(cleanup);

const ok: Ack<null> = { ok: true, data: null };

function show(me: string, names = ['Ana', 'Ben', 'Dee', 'Cal'], pending = ['Cal']) {
  const room = lobby(names, { pending, chips: { Cal: 2_550 } });
  const send = vi.fn(async (_c: Command) => ok);
  const onLeave = vi.fn(async () => ok);
  render(
    <Lobby
      snapshot={snapshot(room, { dee: false })}
      me={me}
      send={send}
      onLeave={onLeave}
      origin="https://chipless.test"
    />,
  );
  return { room, send, onLeave };
}

const playerRows = () => {
  const section = screen.getByRole('heading', { name: /^Players/ }).closest('section')!;
  return within(section)
    .getAllByRole('listitem')
    .map((li) => li.textContent);
};

describe('Lobby', () => {
  it('shows the code, the join link and QR code, the blinds and the players in join order', async () => {
    show('ben');
    expect(screen.getByText('ABCDE')).toBeTruthy();
    expect(screen.getByText('Share this code with friends')).toBeTruthy();
    const link = screen.getByRole('link', { name: 'chipless.test/?join=ABCDE' });
    expect(link.getAttribute('href')).toBe('https://chipless.test/?join=ABCDE');
    expect(await screen.findByRole('img', { name: 'QR code to join room ABCDE' })).toBeTruthy();
    const blinds = screen.getByRole('region', { name: 'Blinds' });
    expect(blinds.textContent).toBe('Small Blind$1.00Big Blind$2.00');
    expect(screen.getByRole('heading', { name: 'Players (3/10)' })).toBeTruthy();
    expect(playerRows()).toEqual(['onlineAnaHost$50.00', 'onlineBen(You)$50.00', 'offlineDee$50.00']);
    expect(screen.getByText('1 waiting for approval')).toBeTruthy();
  });

  it('says when players waiting for approval fill the room, which turns the next phone away', () => {
    const names = ['Ana', 'Ben', 'Cal', 'Dee', 'Eve', 'Fay', 'Gus', 'Hal', 'Ivy', 'Jon'];
    show(
      'ben',
      names,
      names.slice(1).filter((n) => n !== 'Ben'),
    );
    expect(screen.getByRole('heading', { name: 'Players (2/10)' })).toBeTruthy();
    expect(screen.getByText('8 waiting for approval: all 10 places taken')).toBeTruthy();
  });

  it('host: settings, approve/deny pending players, remove seated ones, start', async () => {
    const { send } = show('ana');
    expect(screen.getByRole('button', { name: 'Settings' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Waiting for Approval' })).toBeTruthy();
    expect(screen.getByText('Wants to join with $25.50 chips')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Remove Ana' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Remove Ben' })).toBeTruthy();

    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Approve Cal' })));
    expect(send).toHaveBeenLastCalledWith({ type: 'approve', playerId: 'cal' });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Deny Cal' })));
    expect(send).toHaveBeenLastCalledWith({ type: 'remove', playerId: 'cal' });

    fireEvent.click(screen.getByRole('button', { name: 'Remove Ben' }));
    const dialog = screen.getByRole('dialog', { name: 'Remove this player from the game?' });
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Remove' })));
    expect(send).toHaveBeenLastCalledWith({ type: 'remove', playerId: 'ben' });
    expect(screen.queryByRole('dialog')).toBeNull();

    const start = screen.getByRole('button', { name: 'Start Game' });
    expect(start).toHaveProperty('disabled', false);
    await act(async () => fireEvent.click(start));
    expect(send).toHaveBeenLastCalledWith({ type: 'startGame' });
    expect(screen.queryByText('Waiting for host to start the game')).toBeNull();
  });

  it('host: players waiting for approval come first, above the room code (visible on a phone)', () => {
    show('ana');
    const sections = [...document.querySelectorAll('main section')];
    const pending = sections.findIndex((el) => el.textContent?.includes('Waiting for Approval'));
    const code = sections.findIndex((el) => el.textContent?.includes('Share this code with friends'));
    expect(pending).toBe(0);
    expect(code).toBe(1);
  });

  it("host: a start the server could not carry out says 'Failed to start game. Please try again.'", async () => {
    const { send } = show('ana', ['Ana', 'Ben'], []);
    send.mockResolvedValueOnce({ ok: false, error: 'Something went wrong' });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Start Game' })));
    expect(screen.getByRole('alert').textContent).toBe('Failed to start game. Please try again.');
    // A refusal that names its reason is shown as it is.
    send.mockResolvedValueOnce({ ok: false, error: 'Need at least 2 players to start the game' });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Start Game' })));
    expect(screen.getByRole('alert').textContent).toBe('Need at least 2 players to start the game');
  });

  it('host: players waiting for approval are listed in the order they asked (joinedAt, as the spec sorts)', () => {
    show('ana', ['Ana', 'Eve', 'Ben', 'Cal'], ['Eve', 'Cal']);
    const card = screen.getByRole('region', { name: 'Waiting for Approval' });
    expect(
      within(card)
        .getAllByRole('button', { name: /^Approve / })
        .map((b) => b.getAttribute('aria-label') ?? b.textContent),
    ).toEqual(['Approve Eve', 'Approve Cal']);
  });

  it('host alone: the start button is disabled and says why', () => {
    show('ana', ['Ana', 'Cal'], ['Cal']);
    const start = screen.getByRole('button', { name: 'Need at least 2 players to start' });
    expect(start).toHaveProperty('disabled', true);
  });

  it('host: closing asks to end the session for everyone', async () => {
    const { onLeave } = show('ana');
    fireEvent.click(screen.getByRole('button', { name: 'End game session' }));
    const dialog = screen.getByRole('dialog', { name: 'End Game Session?' });
    expect(dialog.textContent).toContain(
      'This will end the game for all players and return everyone to the home screen.',
    );
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'End Game Session' })));
    expect(onLeave).toHaveBeenCalled();
  });

  it('host: edits the blinds in the settings dialog', async () => {
    const { send } = show('ana');
    fireEvent.click(screen.getByRole('button', { name: 'Settings' }));
    const dialog = screen.getByRole('dialog', { name: 'Game Settings' });
    const small = within(dialog).getByLabelText('Small Blind') as HTMLInputElement;
    const big = within(dialog).getByLabelText('Big Blind') as HTMLInputElement;
    expect([small.value, big.value]).toEqual(['1.00', '2.00']);
    fireEvent.change(big, { target: { value: '' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save Settings' }));
    expect(within(dialog).getByRole('alert').textContent).toBe(
      'Please enter both small and big blind amounts',
    );
    fireEvent.change(small, { target: { value: '0.25' } });
    fireEvent.change(big, { target: { value: '0.5' } });
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Save Settings' })));
    expect(send).toHaveBeenLastCalledWith({ type: 'updateSettings', smallBlind: 25, bigBlind: 50 });
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it("host: 'Saving...' while the new blinds are on their way, and the server's refusal shown as is", async () => {
    const room = lobby(['Ana', 'Ben']);
    let answer!: (res: Ack<unknown>) => void;
    const send = vi.fn(() => new Promise<Ack<unknown>>((r) => (answer = r)));
    render(
      <Lobby
        snapshot={snapshot(room)}
        me="ana"
        send={send}
        onLeave={async () => ok}
        origin="https://chipless.test"
      />,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Settings' }));
    const dialog = screen.getByRole('dialog', { name: 'Game Settings' });
    fireEvent.change(within(dialog).getByLabelText('Big Blind'), { target: { value: '3' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save Settings' }));
    expect(within(dialog).getByRole('button', { name: 'Saving...' })).toHaveProperty('disabled', true);
    expect(send).toHaveBeenCalledWith({ type: 'updateSettings', smallBlind: 100, bigBlind: 300 });
    await act(async () => answer({ ok: false, error: 'Only the host can change settings' }));
    expect(within(dialog).getByRole('alert').textContent).toBe('Only the host can change settings');
    expect(within(dialog).getByRole('button', { name: 'Save Settings' })).toHaveProperty('disabled', false);
  });

  it("host: a blind above what the server takes ($100,000,000) is refused in the dialog, not sent ('Invalid request')", async () => {
    const { send } = show('ana');
    fireEvent.click(screen.getByRole('button', { name: 'Settings' }));
    const dialog = screen.getByRole('dialog', { name: 'Game Settings' });
    fireEvent.change(within(dialog).getByLabelText('Big Blind'), { target: { value: '100000000.01' } });
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Save Settings' })));
    expect(within(dialog).getByRole('alert').textContent).toBe('Invalid dollar amount: 100000000.01');
    expect(send).not.toHaveBeenCalled();
  });

  it("host: a blind of 0, or under a cent, is refused in the dialog with the $0.01 minimum, not 'Please enter both…'", async () => {
    const { send } = show('ana');
    fireEvent.click(screen.getByRole('button', { name: 'Settings' }));
    const dialog = screen.getByRole('dialog', { name: 'Game Settings' });
    const save = () =>
      act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Save Settings' })));
    fireEvent.change(within(dialog).getByLabelText('Small Blind'), { target: { value: '0' } });
    await save();
    expect(within(dialog).getByRole('alert').textContent).toBe('Each blind must be at least $0.01');
    fireEvent.change(within(dialog).getByLabelText('Small Blind'), { target: { value: '0.001' } });
    fireEvent.change(within(dialog).getByLabelText('Big Blind'), { target: { value: '0.002' } });
    await save();
    expect(within(dialog).getByRole('alert').textContent).toBe('Each blind must be at least $0.01');
    expect(send).not.toHaveBeenCalled();
    fireEvent.change(within(dialog).getByLabelText('Small Blind'), { target: { value: '0.01' } });
    fireEvent.change(within(dialog).getByLabelText('Big Blind'), { target: { value: '0.02' } });
    await save();
    expect(send).toHaveBeenLastCalledWith({ type: 'updateSettings', smallBlind: 1, bigBlind: 2 });
  });

  it("host: a blind typed with a decimal comma ('0,5', a phone whose decimal key is one) is $0.50, not $5.00; any other comma is refused as typed", async () => {
    const { send } = show('ana');
    fireEvent.click(screen.getByRole('button', { name: 'Settings' }));
    const dialog = screen.getByRole('dialog', { name: 'Game Settings' });
    const small = within(dialog).getByLabelText('Small Blind') as HTMLInputElement;
    const big = within(dialog).getByLabelText('Big Blind') as HTMLInputElement;
    // A number field would have dropped the comma ("05"): this one keeps what is typed.
    expect(small.type).toBe('text');
    expect(small.inputMode).toBe('decimal');
    const save = () => fireEvent.click(within(dialog).getByRole('button', { name: 'Save Settings' }));
    fireEvent.change(small, { target: { value: '0,5' } });
    fireEvent.change(big, { target: { value: '1,250' } });
    await act(async () => save());
    expect(within(dialog).getByRole('alert').textContent).toBe('Invalid dollar amount: 1,250');
    // A comma alone is refused, named as typed (not as the point it was read as).
    fireEvent.change(big, { target: { value: ',' } });
    await act(async () => save());
    expect(within(dialog).getByRole('alert').textContent).toBe('Invalid dollar amount: ,');
    expect(send).not.toHaveBeenCalled();
    // Typing again takes the refusal away.
    fireEvent.change(big, { target: { value: '1,25' } });
    expect(within(dialog).queryByRole('alert')).toBeNull();
    await act(async () => save());
    expect(send).toHaveBeenCalledWith({ type: 'updateSettings', smallBlind: 50, bigBlind: 125 });
  });

  it('non-host: no host controls, waits for the host, and can leave', async () => {
    const { onLeave } = show('ben');
    expect(screen.getByText('Waiting for host to start the game')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Settings' })).toBeNull();
    expect(screen.queryByRole('button', { name: /^Remove / })).toBeNull();
    expect(screen.queryByRole('button', { name: /^Approve / })).toBeNull();
    expect(screen.queryByText('Waiting for Approval')).toBeNull();
    expect(screen.queryByRole('button', { name: /Start Game|Need at least/ })).toBeNull();
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Leave room' })));
    expect(onLeave).toHaveBeenCalled();
  });

  it('a pending player is told they wait for approval', () => {
    show('cal');
    expect(screen.getByText('Waiting for the host to approve you')).toBeTruthy();
  });
});

describe('Lobby: decisions on pending players', () => {
  it('host: a double tap on Deny sends one removal, not a second one the server refuses', async () => {
    const room = lobby(['Ana', 'Ben', 'Cal', 'Dee', 'Eve'], { pending: ['Cal', 'Dee', 'Eve'] });
    let answer!: (a: Ack<null>) => void;
    const send = vi.fn(
      (_c: Command) =>
        new Promise<Ack<null>>((resolve) => {
          answer = resolve;
        }),
    );
    render(<Lobby snapshot={snapshot(room)} me="ana" send={send} onLeave={async () => ok} />);
    const deny = screen.getByRole('button', { name: 'Deny Cal' });
    fireEvent.click(deny);
    fireEvent.click(deny);
    expect(send).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('button', { name: 'Approve Dee' })).toHaveProperty('disabled', true);
    await act(async () => answer(ok));
    expect(screen.getByRole('button', { name: 'Approve Dee' })).toHaveProperty('disabled', false);
  });
});

describe('Lobby: focus when a control goes away', () => {
  it('host: approving a player (the button goes with the request) leaves focus on the heading, not the page', async () => {
    const room = lobby(['Ana', 'Ben', 'Cal'], { pending: ['Cal'] });
    const send = vi.fn(async (_c: Command) => ok);
    const view = (r: typeof room, version: number) => (
      <Lobby snapshot={{ ...snapshot(r), version }} me="ana" send={send} onLeave={async () => ok} />
    );
    const { rerender } = render(view(room, 1));
    const approve = screen.getByRole('button', { name: 'Approve Cal' });
    approve.focus();
    await act(async () => fireEvent.click(approve));
    rerender(view(step(room, 'ana', { type: 'approve', playerId: 'cal' }), 2));
    expect(screen.queryByRole('button', { name: 'Approve Cal' })).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('heading', { level: 1, name: 'Game Lobby' }));
  });

  it('after a tap the heading takes focus where it is; after a key it is scrolled to, so the ring is seen (session 36 accessibility audit)', async () => {
    const room = lobby(['Ana', 'Ben', 'Cal', 'Dee', 'Eve'], { pending: ['Cal', 'Dee', 'Eve'] });
    const send = vi.fn(async (_c: Command) => ok);
    const view = (r: typeof room, version: number) => (
      <Lobby snapshot={{ ...snapshot(r), version }} me="ana" send={send} onLeave={async () => ok} />
    );
    const focus = vi.spyOn(HTMLElement.prototype, 'focus');
    try {
      const { rerender } = render(view(room, 1));
      const heading = screen.getByRole('heading', { level: 1, name: 'Game Lobby' });
      const headingFocus = () =>
        focus.mock.contexts.flatMap((el, i) => (el === heading ? [focus.mock.calls[i]] : []));
      focus.mockClear(); // the screen's arrival focus
      // A tap on Approve Cal.
      const cal = screen.getByRole('button', { name: 'Approve Cal' });
      cal.focus();
      fireEvent.pointerDown(cal);
      await act(async () => fireEvent.click(cal));
      const once = step(room, 'ana', { type: 'approve', playerId: 'cal' });
      rerender(view(once, 2));
      expect(document.activeElement).toBe(heading);
      expect(headingFocus()).toEqual([[{ preventScroll: true }]]);
      // Enter on Approve Dee.
      const dee = screen.getByRole('button', { name: 'Approve Dee' });
      dee.focus();
      fireEvent.keyDown(dee, { key: 'Enter' });
      await act(async () => fireEvent.click(dee));
      const twice = step(once, 'ana', { type: 'approve', playerId: 'dee' });
      rerender(view(twice, 3));
      expect(document.activeElement).toBe(heading);
      expect(headingFocus()).toEqual([[{ preventScroll: true }], [{ preventScroll: false }]]);
      // A tap, then a phone's on-screen keyboard typing in a field ("Go" is a key too): still a tap's
      // user, no jump (review of session 37).
      const eve = screen.getByRole('button', { name: 'Approve Eve' });
      const field = document.body.appendChild(document.createElement('input'));
      fireEvent.pointerDown(field);
      fireEvent.keyDown(field, { key: 'Enter' });
      fireEvent.keyDown(field, { key: 'Unidentified', keyCode: 229 });
      field.remove();
      eve.focus();
      await act(async () => fireEvent.click(eve));
      rerender(view(step(twice, 'ana', { type: 'approve', playerId: 'eve' }), 4));
      expect(document.activeElement).toBe(heading);
      expect(headingFocus()).toEqual([
        [{ preventScroll: true }],
        [{ preventScroll: false }],
        [{ preventScroll: true }],
      ]);
    } finally {
      focus.mockRestore();
    }
  });

  it('host: removing a player from the confirmation leaves focus on the heading once the row is gone', async () => {
    const room = lobby(['Ana', 'Ben', 'Cal']);
    const send = vi.fn(async (_c: Command) => ok);
    const view = (r: typeof room, version: number) => (
      <Lobby snapshot={{ ...snapshot(r), version }} me="ana" send={send} onLeave={async () => ok} />
    );
    const { rerender } = render(view(room, 1));
    const remove = screen.getByRole('button', { name: 'Remove Ben' });
    remove.focus();
    fireEvent.click(remove);
    const dialog = screen.getByRole('dialog', { name: 'Remove this player from the game?' });
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Remove' })));
    // Focus went back to the opener; then the room without Ben arrives.
    expect(document.activeElement).toBe(remove);
    rerender(view(step(room, 'ana', { type: 'remove', playerId: 'ben' }), 2));
    expect(document.activeElement).toBe(screen.getByRole('heading', { level: 1, name: 'Game Lobby' }));
  });
});

describe('Lobby: copying the join link on plain http (no Clipboard API, no Web Share)', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    Reflect.deleteProperty(document, 'execCommand');
  });

  const showInsecure = (execCommand: (command: string) => boolean) => {
    vi.stubGlobal('navigator', { ...navigator, clipboard: undefined, share: undefined });
    Object.defineProperty(document, 'execCommand', { configurable: true, value: vi.fn(execCommand) });
    render(
      <Lobby
        snapshot={snapshot(lobby(['Ana', 'Ben']))}
        me="ana"
        send={vi.fn(async () => ok)}
        onLeave={vi.fn(async () => ok)}
        origin="http://192.168.1.20:3000"
      />,
    );
    return screen.getByRole('button', { name: 'Copy Link' });
  };

  it('offers Copy Link, which copies the link and says "Copied!"; no Share Link', async () => {
    const copied: string[] = [];
    const button = showInsecure(() => {
      const field = document.activeElement as HTMLTextAreaElement;
      copied.push(field.value.slice(field.selectionStart, field.selectionEnd));
      return true;
    });
    expect(screen.queryByRole('button', { name: 'Share Link' })).toBeNull();
    await act(async () => fireEvent.click(button));
    expect(copied).toEqual(['http://192.168.1.20:3000/?join=ABCDE']);
    expect(button.textContent).toBe('Copied!');
    expect(screen.queryByText('Press and hold the link to copy it')).toBeNull();
  });

  it('when the browser refuses the copy too, says how to copy by hand', async () => {
    const button = showInsecure(() => false);
    await act(async () => fireEvent.click(button));
    expect(button.textContent).toBe('Copy Link');
    expect(screen.getByRole('status').textContent).toBe('Press and hold the link to copy it');
  });
});
