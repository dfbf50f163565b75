import { describe, expect, it } from 'vitest';
import { MSG, seatLinkStillHere } from './messages';
import { checkedDownThreeWay, lobby, play, refuse, run, runWithEvents, started } from './test-helpers';
import type { Command } from './types';
import { takenBack } from './undo';

const seatLink = (playerId: string, online?: string[]): Command =>
  online === undefined ? { type: 'seatLink', playerId } : { type: 'seatLink', playerId, online };

describe('seatLink: the host makes a link moving a seat to a new phone', () => {
  it('mid-hand: logged for the table, with nothing at the table changed', () => {
    const room = play(started([10_000, 10_000, 10_000]), ['p0', 'CALL']);
    const { room: out, events } = runWithEvents(room, 'p0', seatLink('p1', ['p0', 'p2']), 5_000);
    expect(events).toEqual([{ type: 'seatLinkMade', playerId: 'p1', name: 'P1' }]);
    expect(out!.log.at(-1)).toMatchObject({ type: 'seatLinkMade', playerId: 'p1', name: 'P1', at: 5_000 });
    expect(out!.log.length).toBe(room.log.length + 1);
    expect(out!.players).toEqual(room.players);
    expect(out!.gameState).toEqual(room.gameState);
    expect(out!.ledger).toEqual(room.ledger);
    expect(out!.hostId).toBe('p0');
    expect(out!.status).toBe('PLAYING');
  });

  it('in the lobby too, for an approved player', () => {
    const room = lobby([10_000, 10_000]);
    expect(runWithEvents(room, 'p0', seatLink('p1', ['p0'])).events).toEqual([
      { type: 'seatLinkMade', playerId: 'p1', name: 'P1' },
    ]);
  });

  it("refuses anyone but the host, the host's own seat, a stranger waiting, an unknown player and an ended game", () => {
    const room = started([10_000, 10_000, 10_000]);
    expect(refuse(room, 'p1', seatLink('p2', []))).toBe(MSG.onlyHostSeatLink);
    expect(refuse(room, 'p1', seatLink('p1', []))).toBe(MSG.onlyHostSeatLink);
    expect(refuse(room, 'nobody', seatLink('p1', []))).toBe(MSG.onlyHostSeatLink);
    expect(refuse(room, 'p0', seatLink('p0', []))).toBe(MSG.seatLinkOwnSeat);
    expect(refuse(room, 'p0', seatLink('p9', []))).toBe(MSG.playerNotFound);
    expect(refuse(room, 'p0', seatLink('constructor', []))).toBe(MSG.playerNotFound);
    const waiting = run(room, 'zed', { type: 'join', name: 'Zed', startingChips: 5_000 });
    expect(refuse(waiting, 'p0', seatLink('zed', []))).toBe(MSG.seatLinkNotSeated);
    const left = run(room, 'p2', { type: 'leave' });
    expect(refuse(left, 'p0', seatLink('p2', []))).toBe(MSG.playerNotFound);
    const ended = run(room, 'p0', { type: 'endGame' });
    expect(refuse(ended, 'p0', seatLink('p1', []))).toBe(MSG.gameEnded);
  });

  it("refuses while the player's phone is connected (the server's presence): a present player's seat is theirs", () => {
    const room = started([10_000, 10_000, 10_000]);
    expect(refuse(room, 'p0', seatLink('p1', ['p0', 'p1']))).toBe(seatLinkStillHere('P1'));
    expect(seatLinkStillHere('P1')).toBe("P1's phone is still connected. Nothing was done.");
    // Presence not known (the engine's own callers): the host's word.
    expect(runWithEvents(room, 'p0', seatLink('p1')).events).toHaveLength(1);
  });

  it('keeps the undo point: a wrong award is still taken back after a link was made', () => {
    const showdown = checkedDownThreeWay(started([10_000, 10_000, 10_000]));
    const wrong = run(showdown, 'p0', { type: 'declareWinners', winnerIds: ['p1'] });
    const linked = run(wrong, 'p0', seatLink('p2', ['p0', 'p1']));
    expect(linked.undo).toEqual(wrong.undo);
    const back = run(linked, 'p0', { type: 'undo', seq: wrong.undo!.seq });
    expect(back.players).toEqual(showdown.players);
    expect(back.gameState).toEqual(showdown.gameState);
    const undone = takenBack(back.log);
    expect(back.log.filter((e) => e.seq >= wrong.undo!.seq).map((e) => [e.type, undone(e)])).toEqual([
      ['potAwarded', true],
      ['handCompleted', true],
      ['seatLinkMade', false],
      ['undone', false],
    ]);
  });
});
