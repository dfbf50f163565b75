import { describe, expect, it } from 'vitest';
import { applyCommand } from './commands';
import { leftDuringGame, stakeOnLeaving } from './index';
import { settle } from './settlement';
import {
  deepFreeze,
  lobby,
  play,
  player,
  potsOf,
  refuse,
  run,
  runWithEvents,
  stacks,
  started,
} from './test-helpers';
import type { Room } from './types';

const even3 = () => started([10_000, 10_000, 10_000]); // p0 D, p1 SB, p2 BB; p0 to act

describe('leaving or being removed mid-hand', () => {
  it('a removed player is folded out; their chips stay in the pot; a ledger entry keeps their books', () => {
    const { room, events } = runWithEvents(even3(), 'p0', { type: 'remove', playerId: 'p1' }, 5_000);
    expect(events).toEqual([{ type: 'playerRemoved', playerId: 'p1', name: 'P1', wasApproved: true }]);
    expect(Object.keys(room!.players)).toEqual(['p0', 'p2']);
    expect(room!.ledger).toEqual([
      {
        id: 'p1',
        name: 'P1',
        finalChips: 9_900,
        totalInvestment: 10_000,
        netResult: -100,
        leftAt: 5_000,
        removed: true,
      },
    ]);
    expect(room!.gameState.departedContributions).toEqual({ p1: 100 });
    expect(room!.gameState.currentTurnPlayerId).toBe('p0');
    expect(potsOf(room!)).toEqual([['main', 300, ['p0', 'p2']]]);
  });

  it('when the player to act leaves, the turn passes on', () => {
    const { room, events } = runWithEvents(even3(), 'p0', { type: 'leave' });
    // p0 is the host: the game ends instead. Use a non-host turn holder.
    expect(events.map((e) => e.type)).toContain('gameEnded');
    expect(room!.status).toBe('ENDED');
    const p1Turn = play(even3(), ['p0', 'CALL']);
    const after = run(p1Turn, 'p1', { type: 'leave' });
    expect(after.gameState.currentTurnPlayerId).toBe('p2');
    expect(after.ledger[0]).toMatchObject({ id: 'p1', finalChips: 9_900, netResult: -100 });
  });

  it('the last player left in the hand wins it; with one active player the game ends automatically', () => {
    const { room, events } = runWithEvents(started([10_000, 10_000]), 'p1', { type: 'leave' }, 7_000);
    // p1's big blind: the $1.00 p0's small blind matched stays for p0, the $1.00 nobody matched goes back.
    expect(events.map((e) => e.type)).toEqual([
      'playerLeft',
      'betReturned',
      'potAwarded',
      'stageChanged',
      'handCompleted',
      'gameEnded',
    ]);
    expect(events[1]).toEqual({ type: 'betReturned', playerId: 'p1', name: 'P1', amount: 100 });
    expect(events[2]).toMatchObject({
      amount: 200,
      reason: 'FOLD',
      message: 'P0 wins! All other players folded.',
    });
    expect(events[5]).toEqual({ type: 'gameEnded', endedBy: 'auto' });
    expect(room!.status).toBe('ENDED');
    expect(room!.gameState).toMatchObject({ status: 'ENDED', endedBy: 'auto', endedAt: 7_000 });
    expect(player(room!, 'p0')).toMatchObject({ finalChips: 10_100, netResult: 100, isWinner: true });
    expect(room!.ledger).toEqual([
      { id: 'p1', name: 'P1', finalChips: 9_900, totalInvestment: 10_000, netResult: -100, leftAt: 7_000 },
    ]);
  });

  it('a raise nobody called goes back to a departing player; what was matched is dead money in the pot', () => {
    let room = play(started([10_000, 10_000, 10_000, 10_000]), ['p3', 'RAISE', 1_000]);
    room = run(room, 'p0', { type: 'remove', playerId: 'p3' });
    // The big blind's $2.00 matched $2.00 of p3's $10.00: that stays, the $8.00 goes with p3.
    expect(room.ledger[0]).toMatchObject({ id: 'p3', finalChips: 9_800, netResult: -200 });
    expect(room.gameState.departedContributions).toEqual({ p3: 200 });
    expect(room.gameState.currentTurnPlayerId).toBe('p0');
    room = play(room, ['p0', 'CALL'], ['p1', 'CALL'], ['p2', 'CALL']);
    expect(room.gameState.canAdvanceStage).toBe(true);
    expect(potsOf(room)).toEqual([['main', 800, ['p0', 'p1', 'p2']]]);
  });

  it('both blinds removed before anyone acted: what the blinds matched is a pot the others play for', () => {
    let room = started([10_000, 10_000, 10_000, 10_000]); // p3 to act
    // The big blind goes first: the $1.00 above the small blind nobody matched goes back with them.
    room = run(run(room, 'p0', { type: 'remove', playerId: 'p2' }), 'p0', { type: 'remove', playerId: 'p1' });
    expect(room.ledger.map((e) => [e.id, e.finalChips])).toEqual([
      ['p2', 9_900],
      ['p1', 9_900],
    ]);
    expect(potsOf(room)).toEqual([['main', 200, ['p0', 'p3']]]);
    room = play(room, ['p3', 'CALL'], ['p0', 'CALL']);
    for (let i = 0; i < 3; i++) room = play(room, 'advance', ['p3', 'CALL'], ['p0', 'CALL']);
    expect(room.gameState.stage).toBe('SHOWDOWN');
    room = run(room, 'p0', { type: 'declareWinners', winnerIds: ['p0', 'p3'] });
    expect(stacks(room)).toEqual({ p0: 10_100, p3: 10_100 });
  });

  it('the button moves on from the seat of a dealer who left', () => {
    const foldOut = (r: ReturnType<typeof started>) => {
      let out = r;
      while (out.gameState.stage !== 'SHOWDOWN')
        out = play(out, [out.gameState.currentTurnPlayerId as string, 'FOLD']);
      return out;
    };
    let room = run(foldOut(started([10_000, 10_000, 10_000, 10_000])), 'p0', { type: 'newHand' });
    expect(room.gameState.dealerId).toBe('p1');
    room = run(room, 'p0', { type: 'remove', playerId: 'p1' });
    room = run(foldOut(room), 'p0', { type: 'newHand' });
    expect(room.gameState.dealerId).toBe('p2');
    expect(room.gameState.currentTurnPlayerId).toBe('p2');
  });

  it('a pending player removed mid-game just disappears', () => {
    let room = run(even3(), 'x', { type: 'join', name: 'Xena', startingChips: 1_000 });
    room = run(room, 'p0', { type: 'remove', playerId: 'x' });
    expect(room.players.x).toBeUndefined();
    expect(room.ledger).toEqual([]);
  });

  it('leaving at showdown before the award forfeits the share', () => {
    const showdown = play(started([10_000, 10_000, 10_000]), ['p0', 'CALL'], ['p1', 'CALL'], ['p2', 'CALL']);
    let room = showdown;
    for (let i = 0; i < 3; i++) room = play(room, 'advance', ['p1', 'CALL'], ['p2', 'CALL'], ['p0', 'CALL']);
    expect(room.gameState.stage).toBe('SHOWDOWN');
    room = run(room, 'p1', { type: 'leave' });
    expect(potsOf(room)).toEqual([['main', 600, ['p0', 'p2']]]);
    room = run(room, 'p0', { type: 'declareWinners', winnerIds: ['p2'] });
    expect(stacks(room)).toEqual({ p0: 9_800, p2: 10_400 });
  });

  it('a player who left can come back as a new player; their ledger entry stays', () => {
    let room = run(even3(), 'p1', { type: 'leave' });
    room = run(room, 'p1', { type: 'join', name: 'P1', startingChips: 500 });
    expect(player(room, 'p1')).toMatchObject({ isApproved: false, stack: 500 });
    room = run(room, 'p0', { type: 'approve', playerId: 'p1' });
    room = run(room, 'p1', { type: 'leave' });
    expect(room.ledger).toEqual([
      {
        id: 'p1',
        name: 'P1',
        finalChips: 10_400,
        totalInvestment: 10_500,
        netResult: -100,
        leftAt: 1_000,
      },
    ]);
  });

  it('ending the game in the hand a player left and came back during: their pot chips go back to the earlier stint, then into final chips', () => {
    // Pre-flop, everyone in for 2; p1 leaves (2 stay in the pot) and comes back with 5, not in this hand.
    let room = play(even3(), ['p0', 'CALL'], ['p1', 'CALL'], ['p2', 'CALL']);
    room = run(room, 'p1', { type: 'leave' });
    expect(room.gameState.departedContributions).toEqual({ p1: 200 });
    room = run(room, 'p1', { type: 'join', name: 'P1', startingChips: 500 });
    room = run(room, 'p0', { type: 'approve', playerId: 'p1' });
    const { room: ended, events } = runWithEvents(room, 'p0', { type: 'endGame' });
    // The seat's stack stays 5: the 2 returned belong to the stint that left (the property tests'
    // model read them as the seat's, session 22).
    expect(events).toEqual([
      { type: 'betReturned', playerId: 'p0', name: 'P0', amount: 200 },
      { type: 'betReturned', playerId: 'p2', name: 'P2', amount: 200 },
      { type: 'betReturned', playerId: 'p1', name: 'P1', amount: 200 },
      { type: 'gameEnded', endedBy: 'p0' },
    ]);
    expect(stacks(ended!)).toEqual({ p0: 10_000, p1: 500, p2: 10_000 });
    expect(ended!.ledger).toEqual([]);
    expect(player(ended!, 'p1')).toMatchObject({ finalChips: 10_500, totalInvestment: 10_500, netResult: 0 });
    expect(player(ended!, 'p0')).toMatchObject({ finalChips: 10_000, netResult: 0 });
  });

  it('a player who left and came back is one person at the end: ranked and settled once (regression)', () => {
    // Hand 1: p0 raises to 10, p1 folds, p2 calls; on the flop p0 bets 5 and p2 folds. p2 leaves down 10.
    let room = play(even3(), ['p0', 'RAISE', 1_000], ['p1', 'FOLD'], ['p2', 'CALL'], 'advance');
    room = play(room, ['p2', 'CALL'], ['p0', 'RAISE', 500], ['p2', 'FOLD']);
    room = run(room, 'p2', { type: 'leave' });
    expect(room.ledger).toMatchObject([
      { id: 'p2', finalChips: 9_000, totalInvestment: 10_000, netResult: -1_000 },
    ]);
    // p2 comes back with $50, is seated, and takes hand 2's blinds and p0's call: up $2 on the new stack.
    room = run(room, 'p2', { type: 'join', name: 'P2', startingChips: 5_000 });
    room = run(room, 'p0', { type: 'approve', playerId: 'p2' });
    room = run(room, 'p0', { type: 'newHand' });
    while (room.gameState.stage !== 'SHOWDOWN') {
      const turn = room.gameState.currentTurnPlayerId as string;
      room = turn === 'p2' ? play(room, ['p2', 'RAISE', 3_000]) : play(room, [turn, 'FOLD']);
    }
    expect(stacks(room)).toEqual({ p0: 10_900, p1: 9_900, p2: 5_200 });
    room = run(room, 'p0', { type: 'endGame' });

    // Before: p2 was a seat (+2) and a ledger entry (-10), and the settlement had "P2 owes P2".
    expect(room.ledger).toEqual([]);
    expect(player(room, 'p2')).toMatchObject({
      finalChips: 14_200,
      totalInvestment: 15_000,
      netResult: -800,
    });
    const rows = Object.values(room.players).map((p) => ({
      id: p.id,
      name: p.name,
      netResult: p.netResult ?? 0,
    }));
    expect(rows.map((r) => r.netResult)).toEqual([900, -100, -800]);
    expect(settle(rows)).toEqual([
      { from: 'P2', to: 'P0', amount: 800, fromPlayerId: 'p2', toPlayerId: 'p0' },
      { from: 'P1', to: 'P0', amount: 100, fromPlayerId: 'p1', toPlayerId: 'p0' },
    ]);
    expect(player(room, 'p0').isWinner).toBe(true);
  });

  it('a player who left and is waiting for approval again at the end keeps their ledger entry', () => {
    // p1 leaves with the small blind in the pot, asks to come back, and the host ends the hand: the
    // blind returns to the entry; the pending seat (never played) is not merged into it.
    let room = run(even3(), 'p1', { type: 'leave' });
    room = run(room, 'p1', { type: 'join', name: 'P1', startingChips: 500 });
    room = run(room, 'p0', { type: 'endGame' });
    expect(room.ledger).toMatchObject([
      { id: 'p1', finalChips: 10_000, totalInvestment: 10_000, netResult: 0 },
    ]);
    expect(player(room, 'p1')).toMatchObject({ isApproved: false, finalChips: 500, netResult: 0 });
  });
});

describe('host leaving', () => {
  it('while playing ends the game (results stay for the others)', () => {
    const { room, events } = runWithEvents(
      play(even3(), ['p0', 'RAISE', 600]),
      'p0',
      { type: 'leave' },
      9_000,
    );
    expect(events.map((e) => e.type)).toEqual([
      'playerLeft',
      'betReturned',
      'betReturned',
      'betReturned',
      'gameEnded',
    ]);
    expect(room!.gameState).toMatchObject({ status: 'ENDED', endedBy: 'p0', endedAt: 9_000 });
    expect(stacks(room!)).toEqual({ p0: 10_000, p1: 10_000, p2: 10_000 });
  });

  it('after the end, leaving changes nothing and removing is refused', () => {
    const ended = run(even3(), 'p0', { type: 'endGame' });
    for (const actor of ['p0', 'p1']) {
      const res = applyCommand(deepFreeze(ended), actor, { type: 'leave' }, 10_000);
      expect(res.ok && res.room).toBe(ended);
    }
    expect(refuse(ended, 'p0', { type: 'remove', playerId: 'p1' })).toBe('This game has already ended.');
  });
});

/** Three players check every street down to SHOWDOWN: 600 in the main pot, 9,800 behind each. */
function threeAtShowdown(): Room {
  let room = play(started([10_000, 10_000, 10_000]), ['p0', 'CALL'], ['p1', 'CALL'], ['p2', 'CALL']);
  for (let i = 0; i < 3; i++) room = play(room, 'advance', ['p1', 'CALL'], ['p2', 'CALL'], ['p0', 'CALL']);
  return room;
}

describe('a departure at showdown before the award (SPEC §4 Declare winner)', () => {
  it('a player leaving at showdown before the award: the message counts the players who remain', () => {
    const room = threeAtShowdown();
    expect(room.gameState.message).toBe('Showdown! 3 players remain. Host must declare winner.');
    const after = run(room, 'p1', { type: 'leave' });
    expect(after.status).toBe('PLAYING');
    expect(after.gameState).toMatchObject({
      stage: 'SHOWDOWN',
      message: 'Showdown! 2 players remain. Host must declare winner.',
    });
    expect(potsOf(after)).toEqual([['main', 600, ['p0', 'p2']]]);
  });

  it('a player removed at showdown: the same', () => {
    const after = run(threeAtShowdown(), 'p0', { type: 'remove', playerId: 'p2' });
    expect(after.gameState.message).toBe('Showdown! 2 players remain. Host must declare winner.');
    const paid = run(after, 'p0', { type: 'declareWinners', winnerIds: ['p1'] });
    expect(stacks(paid)).toEqual({ p0: 9_800, p1: 10_400 });
  });
});

describe('a side pot only the leaver can win (regression, session 26 audit)', () => {
  /** p0 D folds; p3 all-in for $10.00; p1 and p2 put in $30.00 each, p2 folds on the flop. */
  const sidePotForP1 = () => {
    let r = started([10_000, 10_000, 10_000, 1_000]);
    r = play(r, ['p3', 'ALL_IN'], ['p0', 'FOLD'], ['p1', 'RAISE', 3_000], ['p2', 'CALL']);
    r = play(r, 'advance', ['p1', 'RAISE', 2_000], ['p2', 'FOLD']);
    return r;
  };

  it('is paid to them as they leave the unpaid showdown: the short all-in wins only what they covered', () => {
    const r = sidePotForP1();
    expect(r.gameState.stage).toBe('SHOWDOWN');
    expect(stacks(r)).toEqual({ p0: 10_000, p1: 7_000, p2: 7_000, p3: 0 });
    expect(potsOf(r)).toEqual([
      ['main', 3_000, ['p1', 'p3']],
      ['side-1', 4_000, ['p1']],
    ]);
    // p3 shows the better hand; p1 leaves before the host taps the award.
    const { room, events } = runWithEvents(r, 'p1', { type: 'leave' }, 9_000);
    expect(events.slice(0, 2)).toEqual([
      { type: 'playerLeft', playerId: 'p1', name: 'P1' },
      {
        type: 'potAwarded',
        potId: 'side-1',
        amount: 4_000,
        winners: [{ playerId: 'p1', name: 'P1', amount: 4_000 }],
        reason: 'SHOWDOWN',
        message: null,
      },
    ]);
    // p3 covered $10.00 from each of three players; the side pot (p2's $20.00 folded to p1, and
    // p1's own $20.00) leaves with p1. It went to p3 (70.00) before.
    expect(player(room!, 'p3').stack).toBe(3_000);
    expect(room!.ledger).toEqual([
      { id: 'p1', name: 'P1', finalChips: 11_000, totalInvestment: 10_000, netResult: 1_000, leftAt: 9_000 },
    ]);
    expect(room!.status).toBe('PLAYING');
  });

  it('the same when the host removes them', () => {
    const room = run(sidePotForP1(), 'p0', { type: 'remove', playerId: 'p1' });
    expect(player(room, 'p3').stack).toBe(3_000);
    expect(room.ledger[0]).toMatchObject({ id: 'p1', finalChips: 11_000 });
  });

  it('a side pot two contenders share is forfeited by the first to leave; the second takes it as they leave', () => {
    // p3 all-in for $10.00; p1 and p2 call and bet $20.00 more each on the flop, and check it down.
    let r = started([10_000, 10_000, 10_000, 1_000]);
    r = play(r, ['p3', 'ALL_IN'], ['p0', 'FOLD'], ['p1', 'CALL'], ['p2', 'CALL']);
    r = play(r, 'advance', ['p1', 'RAISE', 2_000], ['p2', 'CALL']);
    r = play(r, 'advance', ['p1', 'CALL'], ['p2', 'CALL'], 'advance', ['p1', 'CALL'], ['p2', 'CALL']);
    expect(potsOf(r)).toEqual([
      ['main', 3_000, ['p1', 'p2', 'p3']],
      ['side-1', 4_000, ['p1', 'p2']],
    ]);
    // p2 mucks and goes home: their share is forfeited, and side-1 is p1's alone.
    r = run(r, 'p2', { type: 'leave' });
    expect(r.ledger[0]).toMatchObject({ id: 'p2', finalChips: 7_000 });
    expect(potsOf(r)).toEqual([
      ['main', 3_000, ['p1', 'p3']],
      ['side-1', 4_000, ['p1']],
    ]);
    // p1 leaves too before the award: side-1 goes with them, p3 wins the main pot.
    r = run(r, 'p1', { type: 'leave' });
    expect(r.ledger.find((e) => e.id === 'p1')).toMatchObject({ finalChips: 11_000 });
    expect(player(r, 'p3').stack).toBe(3_000);
    expect(stacks(r)).toEqual({ p0: 10_000, p3: 3_000 });
  });

  it('a contender who put in no more than another leaves nothing behind but their forfeited share', () => {
    // Both p1 and p2 in for the same $30.00 over p3's $10.00: nothing is p1's alone.
    let r = started([10_000, 10_000, 10_000, 1_000]);
    r = play(r, ['p3', 'ALL_IN'], ['p0', 'FOLD'], ['p1', 'RAISE', 3_000], ['p2', 'CALL']);
    r = play(r, 'advance', ['p1', 'CALL'], ['p2', 'CALL'], 'advance', ['p1', 'CALL'], ['p2', 'CALL']);
    r = play(r, 'advance', ['p1', 'CALL'], ['p2', 'CALL']);
    expect(potsOf(r)).toEqual([
      ['main', 3_000, ['p1', 'p2', 'p3']],
      ['side-1', 4_000, ['p1', 'p2']],
    ]);
    const { room, events } = runWithEvents(r, 'p1', { type: 'leave' });
    expect(events).toEqual([{ type: 'playerLeft', playerId: 'p1', name: 'P1' }]);
    expect(room!.ledger[0]).toMatchObject({ id: 'p1', finalChips: 7_000 });
    expect(potsOf(room!)).toEqual([
      ['main', 3_000, ['p2', 'p3']],
      ['side-1', 4_000, ['p2']],
    ]);
  });
});

describe('a bet nobody left in the hand can ever call (regression, session 33 audit)', () => {
  /**
   * Blinds $1/$2. p0 D $100, p1 SB $50, p2 BB $10, p3 $100. p3 all-in for $100, p0 folds, p1 all-in
   * for $50; p2 (BB, $8 behind: $10 at most) is still to act. Nobody left can put in more than $50,
   * so p3's top $50 is a bet nobody can call.
   */
  const uncallable = () =>
    play(started([10_000, 5_000, 1_000, 10_000]), ['p3', 'ALL_IN'], ['p0', 'FOLD'], ['p1', 'ALL_IN']);

  it('goes back to its owner as they leave mid-round, as it would one action later at the showdown', () => {
    const r = uncallable();
    expect(r.gameState.currentTurnPlayerId).toBe('p2');
    const { room, events } = runWithEvents(r, 'p3', { type: 'leave' }, 9_000);
    expect(events.slice(0, 2)).toEqual([
      { type: 'playerLeft', playerId: 'p3', name: 'P3' },
      { type: 'betReturned', playerId: 'p3', name: 'P3', amount: 5_000 },
    ]);
    // p3 leaves with the $50.00 nobody could call; the $50.00 p1 covered stays in as dead money.
    expect(room!.ledger).toEqual([
      { id: 'p3', name: 'P3', finalChips: 5_000, totalInvestment: 10_000, netResult: -5_000, leftAt: 9_000 },
    ]);
    expect(room!.gameState.departedContributions).toEqual({ p3: 5_000 });
    expect(room!.gameState.currentTurnPlayerId).toBe('p2');
    // p2 calls all-in: main $30.00 (p1, p2), side $80.00 (p1). Before, side-1 was $130.00: p1 won
    // $50.00 of p3's that p1 never covered.
    const end = play(room!, ['p2', 'CALL']);
    expect(end.gameState.stage).toBe('SHOWDOWN');
    expect(potsOf(end)).toEqual([
      ['main', 3_000, ['p1', 'p2']],
      ['side-1', 8_000, ['p1']],
    ]);
    // The same night with p3 leaving one action later, at the showdown: the same books.
    const later = run(play(r, ['p2', 'CALL']), 'p3', { type: 'leave' }, 9_000);
    expect(later.ledger).toEqual(room!.ledger);
    expect(potsOf(later)).toEqual(potsOf(end));
    expect(stacks(later)).toEqual(stacks(end));
  });

  it('the leave and remove questions are told what stays in the pot: $50.00 of the $100.00', () => {
    const r = uncallable();
    expect(stakeOnLeaving(r, 'p3')).toEqual({ bet: 10_000, stays: 5_000 });
    expect(stakeOnLeaving(r, 'p1')).toEqual({ bet: 5_000, stays: 5_000 });
    expect(stakeOnLeaving(r, 'p2')).toEqual({ bet: 200, stays: 200 });
    // Folded, or not in the room: leaving changes nothing in the pots.
    expect(stakeOnLeaving(r, 'p0')).toBeNull();
    expect(stakeOnLeaving(r, 'nobody')).toBeNull();
    // Once the pots are paid there is nothing left to forfeit.
    const paid = run(play(r, ['p2', 'CALL']), 'p0', { type: 'declareWinners', winnerIds: ['p1'] });
    expect(stakeOnLeaving(paid, 'p1')).toBeNull();
  });

  it("a folded player's chips taken above the cap come off this round's bet first (the review)", () => {
    // Pre-flop everyone but p0 in for $2; on the flop p1 bets $5, p2 raises to $10, p3 and p4 are
    // all-in for $3 (total $5), p1 folds ($7 in: $2 + $5). p2's uncalled $3 goes back; at the showdown
    // p2 leaves: above the all-ins' $5, p2's $2 and p1's $2 are theirs. p1 keeps $5 in: $2 pre-flop,
    // $3 this round.
    let r = started([10_000, 10_000, 10_000, 500, 500]);
    r = play(r, ['p3', 'CALL'], ['p4', 'CALL'], ['p0', 'FOLD'], ['p1', 'CALL'], ['p2', 'CALL'], 'advance');
    r = play(
      r,
      ['p1', 'RAISE', 500],
      ['p2', 'RAISE', 1_000],
      ['p3', 'ALL_IN'],
      ['p4', 'ALL_IN'],
      ['p1', 'FOLD'],
    );
    expect(r.gameState.stage).toBe('SHOWDOWN');
    expect(player(r, 'p1')).toMatchObject({ totalPotContribution: 700, currentRoundBet: 500 });
    const room = run(r, 'p2', { type: 'leave' });
    expect(room.gameState.stage).toBe('SHOWDOWN');
    expect(player(room, 'p1')).toMatchObject({ totalPotContribution: 500, currentRoundBet: 300 });
  });

  it('the same when the host removes them', () => {
    const room = run(uncallable(), 'p0', { type: 'remove', playerId: 'p3' });
    expect(room.ledger[0]).toMatchObject({ id: 'p3', finalChips: 5_000, netResult: -5_000, removed: true });
  });

  it('a bet nobody has matched yet comes back too, though someone still to act could call it', () => {
    // p2 (BB) has $98 behind and could call p3's $100; p1 matched $50 of it. Leaving folds p3's hand:
    // the $50.00 p1 matched stays in the pot, the $50.00 nobody matched goes back.
    let r = started([10_000, 5_000, 10_000, 10_000]);
    r = play(r, ['p3', 'ALL_IN'], ['p0', 'FOLD'], ['p1', 'ALL_IN']);
    expect(stakeOnLeaving(r, 'p3')).toEqual({ bet: 10_000, stays: 5_000 });
    const { room, events } = runWithEvents(r, 'p3', { type: 'leave' });
    expect(events).toEqual([
      { type: 'playerLeft', playerId: 'p3', name: 'P3' },
      { type: 'betReturned', playerId: 'p3', name: 'P3', amount: 5_000 },
    ]);
    expect(room!.ledger[0]).toMatchObject({ id: 'p3', finalChips: 5_000, netResult: -5_000 });
    expect(room!.gameState.departedContributions).toEqual({ p3: 5_000 });
    // Whatever p2 does next, or did before p3 left, the books are the same (the session-33 review:
    // p3 leaving just before p2's fold gave p1 all $100.00 of p3's, just after it $50.00).
    const thenFold = play(room!, ['p2', 'FOLD']);
    const foldFirst = run(play(r, ['p2', 'FOLD']), 'p3', { type: 'leave' });
    expect(thenFold.ledger).toEqual(foldFirst.ledger);
    expect(stacks(thenFold)).toEqual(stacks(foldFirst));
    expect(player(thenFold, 'p1').stack).toBe(10_200);
  });

  it('a bet the others matched stays in the pot: leaving folds it', () => {
    // p2 calls p3's $100 all-in before p3 leaves: all of it was matched and stays.
    let r = started([10_000, 5_000, 10_000, 10_000]);
    r = play(r, ['p3', 'ALL_IN'], ['p0', 'FOLD'], ['p1', 'ALL_IN'], ['p2', 'CALL']);
    expect(stakeOnLeaving(r, 'p3')).toEqual({ bet: 10_000, stays: 10_000 });
    const { room, events } = runWithEvents(r, 'p3', { type: 'leave' });
    expect(events).toEqual([{ type: 'playerLeft', playerId: 'p3', name: 'P3' }]);
    expect(room!.ledger[0]).toMatchObject({ id: 'p3', finalChips: 0, netResult: -10_000 });
    expect(potsOf(room!)).toEqual([
      ['main', 15_000, ['p1', 'p2']],
      ['side-1', 10_000, ['p2']],
    ]);
  });

  it('heads-up: the big blind shoves and leaves before the small blind acts: the shove nobody called comes back', () => {
    // p0 D/SB limps to $2, p1 BB all-in for $100 and leaves: p1 forfeits the $2 p0 matched.
    let r = started([10_000, 10_000]);
    r = play(r, ['p0', 'CALL'], ['p1', 'ALL_IN']);
    const room = run(r, 'p1', { type: 'leave' });
    expect(room.ledger[0]).toMatchObject({ id: 'p1', finalChips: 9_800, netResult: -200 });
    expect(player(room, 'p0').stack).toBe(10_200);
    expect(room.status).toBe('ENDED');
  });
});

describe('auto end counts seated players (regression, session 26 audit)', () => {
  it('heads-up with a newcomer approved mid-hand: one of the two leaves, the other wins, the game goes on', () => {
    let r = started([10_000, 10_000]);
    r = run(r, 'p2', { type: 'join', name: 'P2', startingChips: 10_000 }, 3_000);
    r = run(r, 'p0', { type: 'approve', playerId: 'p2' }, 3_001);
    expect(player(r, 'p2').isActive).toBe(false);
    r = run(r, 'p1', { type: 'leave' }, 4_000);
    expect(r.status).toBe('PLAYING');
    expect(r.gameState.stage).toBe('SHOWDOWN');
    // p1's big blind: the $1.00 p0 matched is p0's, the $1.00 nobody matched went back with p1.
    expect(stacks(r)).toEqual({ p0: 10_100, p2: 10_000 });
    r = run(r, 'p0', { type: 'newHand' }, 5_000);
    expect(r.gameState).toMatchObject({ handNumber: 2, stage: 'PRE_FLOP' });
    expect(player(r, 'p2')).toMatchObject({ isActive: true });
  });

  it('still ends when one seated player is left', () => {
    let r = started([10_000, 10_000]);
    r = run(r, 'p2', { type: 'join', name: 'P2', startingChips: 10_000 }, 3_000);
    r = run(r, 'p1', { type: 'leave' }, 4_000);
    // p2 never approved: one seated player.
    expect(r.status).toBe('ENDED');
    expect(r.gameState.endedBy).toBe('auto');
  });
});

describe("leftDuringGame: who may see the results without a seat (the server's resume)", () => {
  it('a player who left or was removed during the game, not one who left the lobby, was denied, or is seated', () => {
    let room = run(lobby([10_000, 10_000, 10_000, 10_000]), 'p3', { type: 'leave' });
    expect(leftDuringGame(room, 'p3')).toBe(false);
    room = run(room, 'p0', { type: 'startGame' });
    room = run(room, 'p4', { type: 'join', name: 'P4', startingChips: 10_000 });
    room = run(room, 'p0', { type: 'remove', playerId: 'p4' });
    room = run(room, 'p1', { type: 'leave' });
    room = run(room, 'p0', { type: 'remove', playerId: 'p2' });
    expect(['p0', 'p1', 'p2', 'p3', 'p4', 'constructor'].map((id) => leftDuringGame(room, id))).toEqual([
      false,
      true,
      true,
      false,
      false,
      false,
    ]);
    // How each went, for the results' "(left)" or "(removed)".
    expect(room.ledger.map((e) => [e.id, e.removed])).toEqual([
      ['p1', undefined],
      ['p2', true],
    ]);
  });
});

describe('departure rules a mutant survived (mutation testing)', () => {
  it('a folded player has no stake to be told about when leaving', () => {
    const room = play(started([10_000, 10_000, 10_000]), ['p0', 'CALL'], ['p1', 'FOLD']);
    expect(player(room, 'p1').totalPotContribution).toBe(100);
    expect(stakeOnLeaving(room, 'p1')).toBeNull();
  });

  it('a one-cent small blind is a stake: it stays in the pot', () => {
    expect(stakeOnLeaving(started([10_000, 10_000, 10_000], [1, 2]), 'p1')).toEqual({ bet: 1, stays: 1 });
  });

  it('the big blind leaving before anyone acted takes back the one cent nobody matched (blinds $0.01/$0.02)', () => {
    const room = started([10_000, 10_000, 10_000], [1, 2]);
    const { room: out, events } = runWithEvents(room, 'p2', { type: 'leave' });
    expect(events.filter((e) => e.type === 'betReturned')).toEqual([
      { type: 'betReturned', playerId: 'p2', name: 'P2', amount: 1 },
    ]);
    expect(out!.ledger.map((e) => [e.id, e.finalChips])).toEqual([['p2', 9_999]]);
    expect(out!.gameState.departedContributions).toEqual({ p2: 1 });
    expect(potsOf(out!)).toEqual([['main', 2, ['p0', 'p1']]]);
  });
});
