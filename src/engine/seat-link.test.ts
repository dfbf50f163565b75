import { describe, expect, it } from 'vitest';
import { MSG, seatLinkSameTable, seatLinkStillHere } from './messages';
import { checkedDownThreeWay, lobby, play, refuse, run, runWithEvents, started } from './test-helpers';
import type { Command } from './types';
import { takenBack } from './undo';

const seatLink = (playerId: string, online?: string[], linkId = 'L1'): Command =>
  online === undefined
    ? { type: 'seatLink', playerId, linkId }
    : { type: 'seatLink', playerId, linkId, online };
const claim = (playerId: string, linkId = 'L1', online: string[] = []): Command => ({
  type: 'claimSeat',
  playerId,
  linkId,
  online,
});

describe('seatLink: the host makes a link moving a seat to a new phone', () => {
  it('mid-hand: logged for the table, with nothing at the table changed', () => {
    const room = play(started([10_000, 10_000, 10_000]), ['p0', 'CALL']);
    const { room: out, events } = runWithEvents(room, 'p0', seatLink('p1', ['p0', 'p2']), 5_000);
    expect(events).toEqual([{ type: 'seatLinkMade', playerId: 'p1', name: 'P1' }]);
    expect(out!.log.at(-1)).toMatchObject({ type: 'seatLinkMade', playerId: 'p1', name: 'P1', at: 5_000 });
    expect(out!.log.length).toBe(room.log.length + 1);
    // Only the link's id, kept on the seat.
    expect(out!.players).toEqual({ ...room.players, p1: { ...room.players.p1, seatLink: 'L1' } });
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
    // The link is not taken back: it still works.
    expect(back.players).toEqual({ ...showdown.players, p2: { ...showdown.players.p2, seatLink: 'L1' } });
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

describe('claimSeat: a new phone takes the seat with the link', () => {
  const linked = () =>
    run(play(started([10_000, 10_000, 10_000]), ['p0', 'CALL']), 'p0', seatLink('p1', ['p0']));

  it('moves nothing at the table but the link, logs it for everyone, and keeps the undo point', () => {
    const room = linked();
    const { room: out, events } = runWithEvents(room, 'phone', claim('p1', 'L1', ['p0', 'p2']), 7_000);
    expect(events).toEqual([{ type: 'seatMoved', playerId: 'p1', name: 'P1' }]);
    expect(out!.log.at(-1)).toMatchObject({ type: 'seatMoved', playerId: 'p1', name: 'P1', at: 7_000 });
    const { seatLink: _used, ...p1 } = room.players.p1!;
    // The link gone; the claim kept on the seat until the new phone is in (its answer may be lost).
    expect(out!.players).toEqual({
      ...room.players,
      p1: { ...p1, seatClaim: { linkId: 'L1', by: 'phone' }, heldByLink: 'L1' },
    });
    expect('seatLink' in out!.players.p1!).toBe(false);
    expect(out!.gameState).toEqual(room.gameState);
    expect(out!.ledger).toEqual(room.ledger);
    expect(out!.undo).toEqual(room.undo);
    expect(out!.hostId).toBe('p0');
  });

  it('works once: a second phone with the same link is refused, even with the seat away again', () => {
    const moved = run(linked(), 'phone', claim('p1'));
    expect(moved.players.p1!.seatClaim).toEqual({ linkId: 'L1', by: 'phone' });
    expect(refuse(moved, 'other-phone', claim('p1'))).toBe(MSG.seatLinkUsed);
    expect(MSG.seatLinkUsed).toBe(
      'This link no longer works: the seat has a phone again. Ask the host for a new one if the seat is yours.',
    );
  });

  it('the phone that used it asking again (its answer lost) is answered as its claim, until it is in', () => {
    const moved = run(linked(), 'phone', claim('p1'));
    // The same phone, the same link: the claim it made, with nothing changed and nothing logged.
    const again = runWithEvents(moved, 'phone', claim('p1', 'L1', ['p0', 'p2']));
    expect(again.events).toEqual([]);
    expect(again.room).toBe(moved);
    // Under a first claim's rules but the link's use: not while the seat is connected, not as the
    // host, not once gone or over, not for another link of the seat's.
    expect(refuse(moved, 'phone', claim('p1', 'L1', ['p1']))).toBe(MSG.seatLinkInUse);
    expect(refuse(moved, 'phone', claim('p1', 'L0'))).toBe(MSG.seatLinkUsed);
    expect(refuse(run(moved, 'p0', { type: 'makeHost', playerId: 'p1' }), 'phone', claim('p1'))).toBe(
      MSG.seatLinkHost,
    );
    expect(refuse(run(moved, 'p0', { type: 'remove', playerId: 'p1' }), 'phone', claim('p1'))).toBe(
      MSG.seatLinkGone,
    );
    expect(refuse(run(moved, 'p0', { type: 'endGame' }), 'phone', claim('p1'))).toBe(MSG.seatLinkEnded);
    // A newer link made since: that one is the seat's, and the old claim goes with its making.
    const newer = run(moved, 'p0', seatLink('p1', ['p0'], 'L2'));
    expect('seatClaim' in newer.players.p1!).toBe(false);
    expect(refuse(newer, 'phone', claim('p1'))).toBe(MSG.seatLinkReplaced);
    // The new phone resumed the room as P1 (seatBack): the claim is done, and the link used for good.
    const inside = run(moved, 'p1', { type: 'seatBack' });
    expect(refuse(inside, 'phone', claim('p1'))).toBe(MSG.seatLinkUsed);
  });

  it("the claim's link holds the seat: a phone holding it by an earlier link's credentials is refused every command", () => {
    // A photo of the QR code opened first: that phone held P1's seat by the credentials of L1. The host
    // makes L2 once it is away, and P1's own new phone claims it: the L1 phone is P1 no more (the server
    // puts the link of a phone's room-scoped credentials in its commands as `via`).
    const moved = run(linked(), 'photo', claim('p1'));
    expect(moved.players.p1!.heldByLink).toBe('L1');
    const asL1 = run(moved, 'p1', { type: 'act', action: 'CALL', via: 'L1' });
    expect(asL1.log.at(-1)).toMatchObject({ type: 'playerActed', playerId: 'p1' });
    const newer = run(run(moved, 'p0', seatLink('p1', ['p0'], 'L2')), 'phone', claim('p1', 'L2'));
    expect(newer.players.p1!.heldByLink).toBe('L2');
    for (const command of [
      { type: 'act', action: 'ALL_IN' },
      { type: 'leave' },
      { type: 'sitOut', away: true },
      { type: 'seatBack' },
    ] as const)
      expect(refuse(newer, 'p1', { ...command, via: 'L1' }), command.type).toBe(MSG.seatHeldElsewhere);
    // Credentials made before links were named (`via: ''`) hold a seat only until it is claimed again.
    expect(refuse(newer, 'p1', { type: 'act', action: 'CALL', via: '' })).toBe(MSG.seatHeldElsewhere);
    expect(run(linked(), 'p1', { type: 'act', action: 'CALL', via: '' }).log.at(-1)).toMatchObject({
      type: 'playerActed',
    });
    // The newest claim's phone, and the player's own credentials (no `via`), are P1.
    expect(run(newer, 'p1', { type: 'act', action: 'CALL', via: 'L2' }).log.at(-1)).toMatchObject({
      type: 'playerActed',
      playerId: 'p1',
    });
    expect(run(newer, 'p1', { type: 'act', action: 'CALL' }).log.at(-1)).toMatchObject({
      type: 'playerActed',
    });
    // It is kept for good: the new phone in (seatBack), an undo, a newer link not yet used.
    const inside = run(newer, 'p1', { type: 'seatBack' });
    expect(inside.players.p1!.heldByLink).toBe('L2');
    expect(run(inside, 'p0', seatLink('p1', ['p0'], 'L3')).players.p1!.heldByLink).toBe('L2');
  });

  it("a newer link replaces the host's earlier one", () => {
    const twice = run(linked(), 'p0', seatLink('p1', ['p0'], 'L2'));
    expect(twice.players.p1!.seatLink).toBe('L2');
    expect(refuse(twice, 'phone', claim('p1', 'L1'))).toBe(MSG.seatLinkReplaced);
    expect(MSG.seatLinkReplaced).toBe('The host has made a newer link for this seat. Ask the host for it.');
    expect(runWithEvents(twice, 'phone', claim('p1', 'L2')).events).toEqual([
      { type: 'seatMoved', playerId: 'p1', name: 'P1' },
    ]);
  });

  it("refuses while the seat's phone is connected: its old phone came back", () => {
    expect(refuse(linked(), 'phone', claim('p1', 'L1', ['p0', 'p1']))).toBe(MSG.seatLinkInUse);
    expect(MSG.seatLinkInUse).toBe(
      'This seat is connected on another phone. Ask the host for a new link if it is yours.',
    );
  });

  it('refuses a seat never linked, a seat gone, an unknown one, the host, and a game over', () => {
    const room = linked();
    expect(refuse(room, 'phone', claim('p2'))).toBe(MSG.seatLinkUsed);
    expect(refuse(run(room, 'p1', { type: 'leave' }), 'phone', claim('p1'))).toBe(MSG.seatLinkGone);
    expect(refuse(run(room, 'p0', { type: 'remove', playerId: 'p1' }), 'phone', claim('p1'))).toBe(
      MSG.seatLinkGone,
    );
    expect(refuse(room, 'phone', claim('constructor'))).toBe(MSG.seatLinkGone);
    expect(refuse(room, 'phone', claim('p0'))).toBe(MSG.seatLinkHost);
    // Linked, then made the host: a copy of the link is never the host.
    const host = run(room, 'p0', { type: 'makeHost', playerId: 'p1' });
    expect(refuse(host, 'phone', claim('p1'))).toBe(MSG.seatLinkHost);
    expect(refuse(run(room, 'p0', { type: 'endGame' }), 'phone', claim('p1'))).toBe(MSG.seatLinkEnded);
    expect([MSG.seatLinkGone, MSG.seatLinkHost, MSG.seatLinkEnded]).toEqual([
      'This seat is no longer at the table.',
      "This link no longer works: that seat is the host's now.",
      'This game is over: there is no seat to move. Ask the host for the results.',
    ]);
  });

  it('refuses a phone seated at the table: it would hold two seats. One only asking to join may', () => {
    const room = linked();
    expect(refuse(room, 'p2', claim('p1'))).toBe(seatLinkSameTable('P1'));
    expect(refuse(room, 'p0', claim('p1'))).toBe(seatLinkSameTable('P1'));
    // Its request is no seat (the web app gives it up first; a leave still owed must not block it).
    const waiting = run(room, 'zed', { type: 'join', name: 'Zed', startingChips: 5_000 });
    expect(runWithEvents(waiting, 'zed', claim('p1')).events).toHaveLength(1);
    expect(seatLinkSameTable('P1')).toBe('This phone already plays in this game: give the link to P1.');
    // The seat's own player id (a phone holding P1's seat in another game by link) is the seat itself.
    expect(runWithEvents(room, 'p1', claim('p1')).events).toHaveLength(1);
  });

  it('in the lobby too', () => {
    const room = run(lobby([10_000, 10_000]), 'p0', seatLink('p1', ['p0']));
    expect(runWithEvents(room, 'phone', claim('p1')).events).toEqual([
      { type: 'seatMoved', playerId: 'p1', name: 'P1' },
    ]);
  });

  it('an undo after the seat moved takes back the award, not the move or the link', () => {
    const showdown = checkedDownThreeWay(started([10_000, 10_000, 10_000]));
    const wrong = run(showdown, 'p0', { type: 'declareWinners', winnerIds: ['p1'] });
    const moved = run(run(wrong, 'p0', seatLink('p2', ['p0', 'p1'])), 'phone', claim('p2'));
    expect(moved.undo).toEqual(wrong.undo);
    const back = run(moved, 'p0', { type: 'undo', seq: wrong.undo!.seq });
    const { seatClaim, heldByLink, ...p2 } = back.players.p2!;
    expect(seatClaim).toEqual({ linkId: 'L1', by: 'phone' });
    expect(heldByLink).toBe('L1');
    expect({ ...back.players, p2 }).toEqual(showdown.players);
    expect(refuse(back, 'other-phone', claim('p2'))).toBe(MSG.seatLinkUsed);
    const undone = takenBack(back.log);
    expect(back.log.filter((e) => e.seq >= wrong.undo!.seq).map((e) => [e.type, undone(e)])).toEqual([
      ['potAwarded', true],
      ['handCompleted', true],
      ['seatLinkMade', false],
      ['seatMoved', false],
      ['undone', false],
    ]);
  });
});

describe("seatBack: a phone of the player's is back, so their unused link goes", () => {
  const linked = () =>
    run(play(started([10_000, 10_000, 10_000]), ['p0', 'CALL']), 'p0', seatLink('p1', ['p0']));

  it('voids the link, logs it, and moves nothing at the table, not even its last move', () => {
    const room = linked();
    const { room: out, events } = runWithEvents(room, 'p1', { type: 'seatBack' }, 9_000);
    expect(events).toEqual([{ type: 'seatLinkVoid', playerId: 'p1', name: 'P1' }]);
    const { seatLink: _void, ...p1 } = room.players.p1!;
    expect(out!.players).toEqual({ ...room.players, p1 });
    expect(out!.gameState).toEqual(room.gameState);
    expect(out!.undo).toEqual(room.undo);
    expect(out!.tableActivity).toBe(room.tableActivity);
    expect(out!.lastActivity).toBe(9_000);
    expect(refuse(out!, 'phone', claim('p1'))).toBe(MSG.seatLinkUsed);
    expect(MSG.seatLinkUsed).toBe(
      'This link no longer works: the seat has a phone again. Ask the host for a new one if the seat is yours.',
    );
  });

  it("ends a kept claim, unlogged, moving nothing else, when the seat's phone (new or old) is back", () => {
    const moved = run(linked(), 'phone', claim('p1'));
    const { room: out, events } = runWithEvents(moved, 'p1', { type: 'seatBack' }, 9_000);
    expect(events).toEqual([]);
    const { seatClaim: _done, ...p1 } = moved.players.p1!;
    expect(out!.players).toEqual({ ...moved.players, p1 });
    expect(out!.log).toEqual(moved.log);
    expect(out!.gameState).toEqual(moved.gameState);
    expect(out!.undo).toEqual(moved.undo);
    expect(out!.tableActivity).toBe(moved.tableActivity);
    // Once gone, a phone coming back changes nothing.
    expect(runWithEvents(out!, 'p1', { type: 'seatBack' }).room).toBe(out);
  });

  it('changes nothing for a seat without a link, a stranger, or a game over', () => {
    const room = linked();
    for (const actor of ['p2', 'p0', 'nobody', 'constructor']) {
      const { room: out, events } = runWithEvents(room, actor, { type: 'seatBack' });
      expect(events).toEqual([]);
      expect(out).toBe(room);
    }
    const ended = run(room, 'p0', { type: 'endGame' });
    expect(runWithEvents(ended, 'p1', { type: 'seatBack' }).room).toBe(ended);
  });
});
