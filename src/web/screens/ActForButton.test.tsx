import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ACT_FOR_AFTER_MS } from '../../engine';
import type { Room } from '../../engine/types';
import type { Ack } from '../../shared/protocol';
import { actNow, started, step } from '../test/rooms';
import { showTable } from '../test/table';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const _ok: Ack<null> = { ok: true, data: null };

/** Three players, $50.00 each: Ana (host) deals, Ben small blind, Cal big blind. Ana has called. */
const bensTurn = () => actNow(started(['Ana', 'Ben', 'Cal']), 'CALL');

/** The table on `me`'s phone; `idle`: as loaded (an acknowledgement's RoomSnapshot.idle). */
function show(room: Room, me: string, offline: string[] = [], idle?: number) {
  const { send, update } = showTable(room, me, offline, idle);
  return { send, rerender: update };
}

const offered = (name: RegExp = /^(Check|Fold) for /) => screen.queryByRole('button', { name });
const later = (ms: number) => act(() => vi.advanceTimersByTime(ms));

describe('Table: the host checks or folds for a player who is away', () => {
  it("offers 'Fold for Ben' to the host at once when Ben's phone is not connected; asks first, then sends it", async () => {
    const room = bensTurn();
    const { send } = show(room, 'ana', ['ben']);
    const controls = screen.getByRole('region', { name: 'Host controls' });
    const button = within(controls).getByRole('button', { name: 'Fold for Ben' });
    expect(button.getAttribute('aria-haspopup')).toBe('dialog');
    fireEvent.click(button);
    const ask = screen.getByRole('dialog', { name: "Fold Ben's hand?" });
    expect(
      within(ask).getByText(
        'For a player away from the table. Ben has $1.00 to call, and only they can put chips in. You can undo it.',
      ),
    ).toBeTruthy();
    expect(send).not.toHaveBeenCalled();
    await act(async () => fireEvent.click(within(ask).getByRole('button', { name: 'Fold for Ben' })));
    expect(send.mock.calls).toEqual([[{ type: 'actFor', playerId: 'ben', action: 'FOLD' }]]);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it("offers 'Check for Cal' when the check is free (the big blind's option), and sends a check", async () => {
    const room = actNow(bensTurn(), 'CALL');
    expect(room.gameState.currentTurnPlayerId).toBe('cal');
    const { send } = show(room, 'ana', ['cal']);
    fireEvent.click(offered(/^Check for Cal$/)!);
    const ask = screen.getByRole('dialog', { name: 'Check for Cal?' });
    expect(
      within(ask).getByText(
        'For a player away from the table. Nothing is owed, so Cal stays in the hand. You can undo it.',
      ),
    ).toBeTruthy();
    await act(async () => fireEvent.click(within(ask).getByRole('button', { name: 'Check for Cal' })));
    expect(send.mock.calls).toEqual([[{ type: 'actFor', playerId: 'cal', action: 'CHECK' }]]);
  });

  it("a connected player's turn offers it only after it has waited 30 s, and a new turn starts the wait again", () => {
    vi.useFakeTimers();
    const room = bensTurn();
    const { rerender } = show(room, 'ana');
    expect(offered()).toBeNull();
    later(ACT_FOR_AFTER_MS - 1);
    expect(offered()).toBeNull();
    later(1);
    expect(offered(/^Fold for Ben$/)).not.toBeNull();
    // Ben comes back and calls: Cal's turn waits from the start.
    rerender(actNow(room, 'CALL'));
    expect(offered()).toBeNull();
    later(ACT_FOR_AFTER_MS - 1);
    expect(offered()).toBeNull();
    later(1);
    expect(offered(/^Check for Cal$/)).not.toBeNull();
  });

  it("the host's phone reloading counts the server's wait so far: a turn that has waited 25 s offers it 5 s later", () => {
    vi.useFakeTimers();
    const room = bensTurn();
    const { rerender } = show(room, 'ana', [], ACT_FOR_AFTER_MS - 5_000);
    later(4_999);
    expect(offered()).toBeNull();
    rerender(room);
    later(1);
    expect(offered(/^Fold for Ben$/)).not.toBeNull();
    // The next turn waits from the start: the load's count was the turn before's.
    rerender(actNow(room, 'CALL'));
    later(ACT_FOR_AFTER_MS - 1);
    expect(offered()).toBeNull();
    later(1);
    expect(offered(/^Check for Cal$/)).not.toBeNull();
  });

  it('a stranger asking to join meanwhile does not start the 30 s again, as the server has it (session 35)', () => {
    vi.useFakeTimers();
    const room = bensTurn();
    const { rerender } = show(room, 'ana');
    later(ACT_FOR_AFTER_MS - 1_000);
    rerender(step(room, 'zed', { type: 'join', name: 'Zed', startingChips: 5_000 }));
    expect(offered()).toBeNull();
    later(1_000);
    expect(offered(/^Fold for Ben$/)).not.toBeNull();
  });

  it('a connected player sitting out waits the 30 s too, as the server has it (the session-33 review)', () => {
    vi.useFakeTimers();
    show(step(bensTurn(), 'ana', { type: 'sitOut', away: true, playerId: 'ben' }), 'ana');
    expect(offered()).toBeNull();
    later(ACT_FOR_AFTER_MS);
    expect(offered(/^Fold for Ben$/)).not.toBeNull();
  });

  it('players never see it, nor does the host on their own turn', () => {
    vi.useFakeTimers();
    const room = bensTurn();
    for (const me of ['ben', 'cal']) {
      show(room, me, ['ben', 'cal']);
      later(ACT_FOR_AFTER_MS);
      expect(offered()).toBeNull();
      cleanup();
    }
    // Ana's own turn (the first to act pre-flop), with her phone reported away: nothing for herself.
    show(started(['Ana', 'Ben', 'Cal']), 'ana', ['ana']);
    later(ACT_FOR_AFTER_MS);
    expect(offered()).toBeNull();
  });

  it('not when nobody is to act: the round waits for the deal, or the showdown', () => {
    const complete = actNow(actNow(bensTurn(), 'CALL'), 'CALL');
    expect(complete.gameState.canAdvanceStage).toBe(true);
    show(complete, 'ana', ['ben', 'cal']);
    expect(offered()).toBeNull();
  });

  it('the question closes, sending nothing, when Ben comes back and acts before the host answers', () => {
    const room = bensTurn();
    const { send, rerender } = show(room, 'ana', ['ben']);
    fireEvent.click(offered(/^Fold for Ben$/)!);
    expect(screen.getByRole('dialog', { name: "Fold Ben's hand?" })).toBeTruthy();
    rerender(actNow(room, 'CALL'), []);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(send).not.toHaveBeenCalled();
  });

  it('a refusal stays on screen to be read once sent', async () => {
    const room = bensTurn();
    const { send, rerender } = show(room, 'ana', ['ben']);
    send.mockResolvedValueOnce({ ok: false, error: 'The table has moved on since. Nothing was done.' });
    fireEvent.click(offered(/^Fold for Ben$/)!);
    const ask = screen.getByRole('dialog', { name: "Fold Ben's hand?" });
    await act(async () => fireEvent.click(within(ask).getByRole('button', { name: 'Fold for Ben' })));
    // Ben's own call had crossed it.
    rerender(actNow(room, 'CALL'), []);
    expect(
      within(screen.getByRole('dialog')).getByText('The table has moved on since. Nothing was done.'),
    ).toBeTruthy();
  });

  it("the hand log says the host made the move: 'Ben folds (by the host)'", () => {
    const folded = step(bensTurn(), 'ana', { type: 'actFor', playerId: 'ben', action: 'FOLD' });
    show(folded, 'cal');
    const log = within(screen.getByText('Hand log').closest('details')!).getAllByRole('listitem');
    expect(log[0]!.textContent).toBe('Ben folds (by the host)');
  });
});
