import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { StrictMode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Ack, SeatLinkResponse } from '../../shared/protocol';
import { started, step } from '../test/rooms';
import { seatRow, showTable } from '../test/table';
import { SeatLinkModal } from './SeatLinkModal';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

/** Ana (host), Ben and Cal at the table; Dee asked to join during the game and waits for approval. */
const table = () =>
  step(started(['Ana', 'Ben', 'Cal']), 'dee', { type: 'join', name: 'Dee', startingChips: 5_000 });

const SEAT = 'ABCDE.ben.bGlua2lkMDAx.1790000000.c2lnbmF0dXJl';
const made: Ack<SeatLinkResponse> = { ok: true, data: { seat: SEAT, expiresInMs: 15 * 60_000 } };

/** A request whose answers the test gives, one by one (`answer`), and that counts what was asked. */
function deferredLink() {
  const waiting: ((res: Ack<SeatLinkResponse>) => void)[] = [];
  const seatLink = vi.fn(
    (_playerId: string) => new Promise<Ack<SeatLinkResponse>>((resolve) => waiting.push(resolve)),
  );
  const answer = async (res: Ack<SeatLinkResponse>) => {
    await act(async () => waiting.shift()?.(res));
  };
  return { seatLink, answer };
}

/**
 * The host's dialog for Ben (his phone away), its link L1 made and held by his seat, which the room then
 * shows (Ben still away): the dialog, the table's update, and that room.
 */
async function openWithLink() {
  const { seatLink, answer } = deferredLink();
  const room = table();
  const { update } = showTable(room, 'ana', ['ben'], undefined, seatLink);
  fireEvent.click(screen.getByRole('button', { name: 'Move Ben to a New Phone' }));
  const dialog = screen.getByRole('dialog', { name: 'Move Ben to a New Phone' });
  await answer({ ok: true, data: { seat: 'ABCDE.ben.L1.1790000000.c2ln', expiresInMs: 15 * 60_000 } });
  const linked = step(room, 'ana', { type: 'seatLink', playerId: 'ben', linkId: 'L1' });
  update(linked, ['ben']);
  return { dialog, update, linked };
}

const moveButtons = () => screen.queryAllByRole('button', { name: /^Move .* to a New Phone$/ });

describe('Table: the host moves a seat to a new phone', () => {
  it('offers "Move Ben to a New Phone" on the seat of a player at the table whose phone is away, to the host only', () => {
    // Ben and Dee (waiting for approval) away, Cal connected; the host's own seat is never offered.
    showTable(table(), 'ana', ['ben', 'dee', 'ana']);
    expect(moveButtons().map((b) => b.getAttribute('aria-label'))).toEqual(['Move Ben to a New Phone']);
    const button = within(seatRow('Ben')).getByRole('button', { name: 'Move Ben to a New Phone' });
    expect(button.getAttribute('aria-haspopup')).toBe('dialog');
    expect(seatRow('Ben').classList.contains('can-move')).toBe(true);
    expect(seatRow('Cal').classList.contains('can-move')).toBe(false);
    cleanup();
    // Not for a player: Cal sees Ben's phone away and nothing to tap.
    showTable(table(), 'cal', ['ben', 'dee']);
    expect(moveButtons()).toEqual([]);
  });

  it("says the seat's earlier link, still held, no longer works once the new one is made", async () => {
    const { seatLink, answer } = deferredLink();
    const earlier = step(table(), 'ana', { type: 'seatLink', playerId: 'ben', linkId: 'OLD' });
    showTable(earlier, 'ana', ['ben'], undefined, seatLink);
    fireEvent.click(screen.getByRole('button', { name: 'Move Ben to a New Phone' }));
    const dialog = screen.getByRole('dialog', { name: 'Move Ben to a New Phone' });
    await answer(made);
    expect(within(dialog).getByRole('status').textContent).toBe(
      "Open this link on Ben's new phone, or scan the code. Ben's seat and chips move to it. The link works once, for 15 minutes. The earlier link for this seat no longer works.",
    );
  });

  it('goes when the phone comes back', () => {
    const room = table();
    const { update } = showTable(room, 'ana', ['ben']);
    expect(moveButtons()).toHaveLength(1);
    update(room, []);
    expect(moveButtons()).toEqual([]);
  });

  it('asks for the link on open, waits with a status, then shows the line, the QR code, the link and its buttons', async () => {
    const { seatLink, answer } = deferredLink();
    showTable(table(), 'ana', ['ben'], undefined, seatLink);
    fireEvent.click(screen.getByRole('button', { name: 'Move Ben to a New Phone' }));
    const dialog = screen.getByRole('dialog', { name: 'Move Ben to a New Phone' });
    expect(seatLink).toHaveBeenCalledTimes(1);
    expect(seatLink).toHaveBeenCalledWith('ben');
    expect(within(dialog).getByRole('status').textContent).toBe('Making the link...');
    expect(within(dialog).queryByRole('button', { name: 'Copy Link' })).toBeNull();
    await answer(made);
    expect(within(dialog).getByRole('status').textContent).toBe(
      "Open this link on Ben's new phone, or scan the code. Ben's seat and chips move to it. The link works once, for 15 minutes.",
    );
    const link = dialog.querySelector('.join-link')!.textContent!;
    expect(link).toContain(`/?seat=${SEAT}`);
    expect(
      await within(dialog).findByRole('img', { name: 'QR code to move Ben to a new phone' }),
    ).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'Copy Link' })).toBeTruthy();
    expect(within(dialog).queryByRole('alert')).toBeNull();
    // Asked once, whatever re-renders meanwhile.
    expect(seatLink).toHaveBeenCalledTimes(1);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Done' }));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it("shows the server's refusal with Try Again, which asks again", async () => {
    const { seatLink, answer } = deferredLink();
    showTable(table(), 'ana', ['ben'], undefined, seatLink);
    fireEvent.click(screen.getByRole('button', { name: 'Move Ben to a New Phone' }));
    const dialog = screen.getByRole('dialog', { name: 'Move Ben to a New Phone' });
    await answer({ ok: false, error: "Ben's phone is still connected. Nothing was done." });
    expect(within(dialog).getByRole('alert').textContent).toBe(
      "Ben's phone is still connected. Nothing was done.",
    );
    expect(dialog.querySelector('.join-link')).toBeNull();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Try Again' }));
    expect(seatLink).toHaveBeenCalledTimes(2);
    expect(within(dialog).queryByRole('alert')).toBeNull();
    expect(within(dialog).getByRole('status').textContent).toBe('Making the link...');
    await answer({ ok: false, error: 'No connection right now. Please try again in a moment.' });
    expect(within(dialog).getByRole('alert').textContent).toBe(
      'No connection right now. Please try again in a moment.',
    );
    fireEvent.click(within(dialog).getByRole('button', { name: 'Try Again' }));
    await answer(made);
    expect(dialog.querySelector('.join-link')!.textContent).toContain('/?seat=');
    expect(within(dialog).queryByRole('button', { name: 'Try Again' })).toBeNull();
  });

  it('says so once Ben is connected again (the link then goes), and closes when Ben is removed', async () => {
    const { dialog, update, linked } = await openWithLink();
    // Dee's phone takes the seat with it.
    const moved = step(linked, 'dee-phone', { type: 'claimSeat', playerId: 'ben', linkId: 'L1' });
    update(moved, []);
    expect(within(dialog).getByRole('status').textContent).toBe(
      "Ben's seat is connected again. Nothing more to do.",
    );
    expect(dialog.querySelector('.join-link')).toBeNull();
    // Away again a moment later (a new phone that sleeps): the used link does not come back.
    update(moved, ['ben']);
    expect(dialog.querySelector('.join-link')).toBeNull();
    const removed = step(moved, 'ana', { type: 'remove', playerId: 'ben' });
    update(removed, []);
    expect(screen.queryByRole('dialog')).toBeNull();
    // Closed for good: Ben asking to join again and approved, his phone away, opens nothing by itself.
    const back = step(step(removed, 'ben', { type: 'join', name: 'Ben', startingChips: 5_000 }), 'ana', {
      type: 'approve',
      playerId: 'ben',
    });
    update(back, ['ben']);
    expect(moveButtons()).toHaveLength(1);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it("says so when a newer link replaces the dialog's (the host's other tab), rather than the seat connected", async () => {
    const { dialog, update, linked } = await openWithLink();
    update(step(linked, 'ana', { type: 'seatLink', playerId: 'ben', linkId: 'L2' }), ['ben']);
    expect(dialog.querySelector('.join-link')).toBeNull();
    expect(within(dialog).getByRole('status').textContent).toBe(
      "A newer link was made for Ben's seat. This one no longer works.",
    );
  });

  it("shows the link again when Ben's own phone was back only a moment: unused, it still works", async () => {
    // Ben's flat phone comes on at 1% and dies again before Dee's phone has scanned the code: "Nothing
    // more to do" over a link that still moves the seat left the host a dead end, Ben's seat offline.
    const { dialog, update, linked } = await openWithLink();
    expect(dialog.querySelector('.join-link')).not.toBeNull();
    update(linked, []);
    expect(within(dialog).getByRole('status').textContent).toBe(
      "Ben's seat is connected again. Nothing more to do.",
    );
    update(linked, ['ben']);
    expect(dialog.querySelector('.join-link')!.textContent).toContain('/?seat=ABCDE.ben.L1.');
    // Used by Dee's phone, which then sleeps: the spent link does not come back.
    const moved = step(linked, 'dee-phone', { type: 'claimSeat', playerId: 'ben', linkId: 'L1' });
    update(moved, []);
    update(moved, ['ben']);
    expect(dialog.querySelector('.join-link')).toBeNull();
    expect(within(dialog).getByRole('status').textContent).toBe(
      "Ben's seat is connected again. Nothing more to do.",
    );
  });

  it('closes when the host role moves: to Cal (Ana no longer hands links out), or to Ben (his seat never goes by link)', async () => {
    for (const to of ['cal', 'ben']) {
      const { seatLink, answer } = deferredLink();
      const room = table();
      const { update } = showTable(room, 'ana', ['ben'], undefined, seatLink);
      fireEvent.click(screen.getByRole('button', { name: 'Move Ben to a New Phone' }));
      await answer(made);
      expect(
        screen.getByRole('dialog', { name: 'Move Ben to a New Phone' }).querySelector('.join-link'),
      ).not.toBeNull();
      update(step(room, 'ana', { type: 'makeHost', playerId: to }), ['ben']);
      expect(screen.queryByRole('dialog'), to).toBeNull();
      cleanup();
    }
  });

  it('says when the link has expired, and makes a new one', async () => {
    vi.useFakeTimers();
    const { seatLink, answer } = deferredLink();
    showTable(table(), 'ana', ['ben'], undefined, seatLink);
    fireEvent.click(screen.getByRole('button', { name: 'Move Ben to a New Phone' }));
    const dialog = screen.getByRole('dialog', { name: 'Move Ben to a New Phone' });
    await answer({ ok: true, data: { seat: SEAT, expiresInMs: 60_000 } });
    expect(within(dialog).getByRole('status').textContent).toContain('The link works once, for 1 minute.');
    act(() => vi.advanceTimersByTime(59_000));
    expect(dialog.querySelector('.join-link')).not.toBeNull();
    act(() => vi.advanceTimersByTime(1_000));
    expect(within(dialog).getByRole('status').textContent).toBe('This link has expired.');
    expect(dialog.querySelector('.join-link')).toBeNull();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Make a New Link' }));
    expect(seatLink).toHaveBeenCalledTimes(2);
  });
});

describe('SeatLinkModal under StrictMode (the app runs in it)', () => {
  it('asks for one link, not one for each run of its effects', async () => {
    const { seatLink, answer } = deferredLink();
    const ben = started(['Ana', 'Ben']).players.ben!;
    render(
      <StrictMode>
        <SeatLinkModal player={ben} online={false} seatLink={seatLink} onClose={() => {}} />
      </StrictMode>,
    );
    expect(seatLink).toHaveBeenCalledTimes(1);
    await answer(made);
    expect(screen.getByRole('dialog').querySelector('.join-link')!.textContent).toContain('/?seat=');
  });
});
