import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { Suspense, use } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConfirmModal } from './ConfirmModal';
import { dialogOpen, Modal } from './Modal';

afterEach(cleanup);

/** A screen whose code never comes (a lazy screen still loading). */
const never = new Promise<never>(() => {});
function Loading(): never {
  return use(never);
}

function Harness({ open }: { open: boolean }) {
  return (
    <>
      <button type="button">Opener</button>
      {open ? (
        <Modal title="Menu" onClose={() => {}}>
          <p>Hi</p>
        </Modal>
      ) : null}
    </>
  );
}

describe('Modal', () => {
  it('is a modal dialog named by its title, focuses inside and keeps Tab inside', () => {
    render(
      <>
        <button type="button">Outside</button>
        <Modal title="Player Rebuy" onClose={() => {}}>
          <input aria-label="First" />
          <button type="button">Last</button>
        </Modal>
      </>,
    );
    const dialog = screen.getByRole('dialog', { name: 'Player Rebuy' });
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    // The close button comes first in the dialog.
    const close = screen.getByRole('button', { name: 'Close' });
    expect(document.activeElement).toBe(close);
    screen.getByRole('button', { name: 'Last' }).focus();
    fireEvent.keyDown(document, { key: 'Tab' });
    expect(document.activeElement).toBe(close);
    fireEvent.keyDown(document, { key: 'Tab', shiftKey: true });
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Last' }));
  });

  it('focuses the element marked data-autofocus and closes on Escape', () => {
    const onClose = vi.fn();
    render(
      <Modal title="Join a Game" onClose={onClose}>
        <input aria-label="Code" />
        <input aria-label="Name" data-autofocus />
      </Modal>,
    );
    expect(document.activeElement).toBe(screen.getByLabelText('Name'));
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('returns focus to the opener when it closes', () => {
    const { rerender } = render(<Harness open={false} />);
    screen.getByRole('button', { name: 'Opener' }).focus();
    rerender(<Harness open />);
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Close' }));
    rerender(<Harness open={false} />);
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Opener' }));
  });

  it("a question's text is its description, read with its title; dialogOpen says one is open", () => {
    expect(dialogOpen()).toBe(false);
    render(
      <ConfirmModal
        title="Remove this player from the game?"
        text="Bob leaves the table. His $12.00 goes in the results."
        confirmLabel="Remove"
        onConfirm={async () => ({ ok: true, data: null })}
        onClose={() => {}}
      />,
    );
    const dialog = screen.getByRole('dialog', { name: 'Remove this player from the game?' });
    const described = document.getElementById(dialog.getAttribute('aria-describedby') ?? '');
    expect(described?.textContent).toBe('Bob leaves the table. His $12.00 goes in the results.');
    expect(dialogOpen()).toBe(true);
    cleanup();
    expect(dialogOpen()).toBe(false);
  });

  it('a dialog on a screen Suspense hides (the landing, while the lobby loads) no longer counts, nor keeps #root inert', async () => {
    // The create form was still "open" under "Opening the game…": #root inert, dialogOpen true, so the
    // reload for a new build waited for ever (session 36, e2e/restart.test.ts).
    const root = document.body.appendChild(document.createElement('div'));
    root.id = 'root';
    const screenOf = (loading: boolean) => (
      <Suspense fallback={<p>Opening the game…</p>}>
        {loading ? (
          <Loading />
        ) : (
          <Modal title="Start a Game" onClose={() => {}}>
            <input aria-label="Your Name" />
          </Modal>
        )}
      </Suspense>
    );
    const { rerender } = render(screenOf(false), { container: root });
    expect(dialogOpen()).toBe(true);
    expect(root.hasAttribute('inert')).toBe(true);
    await act(async () => rerender(screenOf(true)));
    expect(screen.getByText('Opening the game…')).toBeTruthy();
    expect(dialogOpen()).toBe(false);
    expect(root.hasAttribute('inert')).toBe(false);
    cleanup();
    root.remove();
  });
});
