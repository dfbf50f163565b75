import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { HOST_AWAY_MS } from '../../engine';
import type { Room } from '../../engine/types';
import type { Ack } from '../../shared/protocol';
import { describeEvent } from '../game/log-lines';
import { actNow, started, step } from '../test/rooms';
import { showTable } from '../test/table';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const _ok: Ack<null> = { ok: true, data: null };

/** Three players: Ana (host) deals; everyone has called or checked, so the host must deal the flop. */
const waitingOnHost = () => actNow(actNow(actNow(started(['Ana', 'Ben', 'Cal']), 'CALL'), 'CALL'), 'CALL');

/** The table on `me`'s phone; `idle`: as loaded (an acknowledgement's RoomSnapshot.idle). */
function show(room: Room, me: string, offline: string[], idle?: number) {
  vi.useFakeTimers();
  const { send, update } = showTable(room, me, offline, idle);
  return { send, rerender: update };
}

const offered = () => screen.queryByRole('button', { name: 'Take Over as Host' });
const later = (ms: number) => act(() => vi.advanceTimersByTime(ms));

describe("Table: a player takes over as host when the host's phone is away", () => {
  it('offers it after the table has waited 3 minutes with the host away; asks first, then sends claimHost', async () => {
    const room = waitingOnHost();
    expect(room.gameState.canAdvanceStage).toBe(true);
    const { send } = show(room, 'ben', ['ana']);
    later(HOST_AWAY_MS - 1);
    expect(offered()).toBeNull();
    later(1);
    fireEvent.click(offered()!);
    const ask = screen.getByRole('dialog', { name: 'Take over as host?' });
    expect(ask.textContent).toContain(
      "Ana's phone has been away while the table waited 3 minutes. You will deal, award the pots and run the table from your phone; Ana plays on as a player.",
    );
    expect(send).not.toHaveBeenCalled();
    await act(async () => fireEvent.click(within(ask).getByRole('button', { name: 'Take Over' })));
    expect(send.mock.calls).toEqual([[{ type: 'claimHost' }]]);
  });

  it('not while the host is connected (a pause at the table), and not on the host’s own phone', () => {
    show(waitingOnHost(), 'ben', []);
    later(HOST_AWAY_MS * 2);
    expect(offered()).toBeNull();
    cleanup();
    show(waitingOnHost(), 'ana', ['ana']);
    later(HOST_AWAY_MS * 2);
    expect(offered()).toBeNull();
  });

  it('anything happening at the table, or the host coming back, starts the wait again; a stranger asking to join does not', () => {
    const room = waitingOnHost();
    const { rerender } = show(room, 'ben', ['ana']);
    later(HOST_AWAY_MS - 1_000);
    // A stranger asks to join: nothing happened at the table (the engine's tableActivity, which
    // claimHost counts from), so the wait goes on (session 35; it started again before).
    const joined = step(room, 'zed', { type: 'join', name: 'Zed', startingChips: 5_000 });
    rerender(joined);
    later(1_000);
    expect(offered()).not.toBeNull();
    // Cal sits out from the next hand: the table is not idle, the wait starts again.
    const satOut = step(joined, 'cal', { type: 'sitOut', away: true });
    rerender(satOut);
    expect(offered()).toBeNull();
    later(HOST_AWAY_MS - 1_000);
    expect(offered()).toBeNull();
    later(1_000);
    expect(offered()).not.toBeNull();
    // The host's phone is back: gone at once, and it waits again from the next time it goes.
    rerender(satOut, []);
    expect(offered()).toBeNull();
    rerender(satOut, ['ana']);
    later(HOST_AWAY_MS - 1);
    expect(offered()).toBeNull();
  });

  it("a phone that loads the room (a reload) counts the server's wait so far: only the rest is waited", () => {
    // The table had waited 2 min 50 s when Ben's phone reloaded: 10 s more, not 3 minutes again.
    const room = waitingOnHost();
    const { rerender } = show(room, 'ben', ['ana'], HOST_AWAY_MS - 10_000);
    later(9_999);
    expect(offered()).toBeNull();
    // A broadcast since (another phone's presence: no idle on it) does not start the wait again.
    rerender(room);
    later(1);
    expect(offered()).not.toBeNull();
    // A table that has waited longer than that (a clock gone back says 0, never less) offers at once.
    cleanup();
    show(room, 'ben', ['ana'], HOST_AWAY_MS * 4);
    later(0);
    expect(offered()).not.toBeNull();
  });

  it("a host's phone that goes only after the room loaded waits the whole time: the load's count is not the host's absence", () => {
    const room = waitingOnHost();
    const { rerender } = show(room, 'ben', [], HOST_AWAY_MS - 10_000);
    later(10_000);
    expect(offered()).toBeNull();
    rerender(room, ['ana']);
    later(HOST_AWAY_MS - 1);
    expect(offered()).toBeNull();
    later(1);
    expect(offered()).not.toBeNull();
  });

  it('the question closes when the table moves on before it is answered (the host is back and deals)', () => {
    const room = waitingOnHost();
    const { send, rerender } = show(room, 'ben', ['ana']);
    later(HOST_AWAY_MS);
    fireEvent.click(offered()!);
    expect(screen.getByRole('dialog', { name: 'Take over as host?' })).toBeTruthy();
    rerender(step(room, 'ana', { type: 'advanceStage' }), []);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(send).not.toHaveBeenCalled();
  });

  it('the hand log says who took over from whom', () => {
    expect(
      describeEvent({
        type: 'hostChanged',
        playerId: 'ben',
        name: 'Ben',
        fromId: 'ana',
        fromName: 'Ana',
        claimed: true,
      }),
    ).toBe('Ben took over as host (Ana was away)');
    expect(
      describeEvent({ type: 'hostChanged', playerId: 'ben', name: 'Ben', fromId: 'ana', fromName: 'Ana' }),
    ).toBe('Ana made Ben the host');
  });
});
