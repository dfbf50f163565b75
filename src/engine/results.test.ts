import { describe, expect, it } from 'vitest';
import { settle } from './settlement';
import { lobby, play, player, refuse, run, runWithEvents, started } from './test-helpers';
import type { Room } from './types';

const results = (room: Room) =>
  Object.fromEntries(
    Object.values(room.players).map((p) => [p.id, [p.finalChips, p.netResult, p.isWinner, p.isLoser]]),
  );

describe('endGame', () => {
  it('mid-hand: every committed chip goes back first, then the results', () => {
    const room = play(started([10_000, 10_000, 10_000]), ['p0', 'RAISE', 600], ['p1', 'CALL']);
    const { room: ended, events } = runWithEvents(room, 'p0', { type: 'endGame' }, 8_000);
    expect(events).toEqual([
      { type: 'betReturned', playerId: 'p0', name: 'P0', amount: 600 },
      { type: 'betReturned', playerId: 'p1', name: 'P1', amount: 600 },
      { type: 'betReturned', playerId: 'p2', name: 'P2', amount: 200 },
      { type: 'gameEnded', endedBy: 'p0' },
    ]);
    expect(ended!.status).toBe('ENDED');
    expect(ended!.gameState).toMatchObject({
      status: 'ENDED',
      endedAt: 8_000,
      endedBy: 'p0',
      currentTurnPlayerId: null,
      pots: [],
    });
    // Everyone broke even: no winner, no loser.
    expect(results(ended!)).toEqual({
      p0: [10_000, 0, false, false],
      p1: [10_000, 0, false, false],
      p2: [10_000, 0, false, false],
    });
  });

  it('after some hands: net results, the best positive net wins (not the biggest stack), negative nets lose', () => {
    let room = play(started([10_000, 10_000, 5_000]), ['p0', 'RAISE', 1_000], ['p1', 'CALL'], ['p2', 'CALL']);
    room = play(room, 'advance', ['p1', 'CALL'], ['p2', 'ALL_IN'], ['p0', 'CALL'], ['p1', 'FOLD']);
    room = run(room, 'p0', { type: 'declareWinners', winnerIds: ['p2'] });
    // p2 won 5000 + 5000 + 1000 (p1's) = 11000.
    room = run(room, 'p0', { type: 'rebuy', playerId: 'p1', amount: 2_000 });
    room = run(room, 'p0', { type: 'endGame' });
    expect(results(room)).toEqual({
      p0: [5_000, -5_000, false, true],
      p1: [11_000, -1_000, false, true],
      p2: [11_000, 6_000, true, false],
    });
    expect(player(room, 'p1').isWinner).toBe(false);
    const rows = Object.values(room.players).map((p) => ({
      id: p.id,
      name: p.name,
      netResult: p.netResult ?? 0,
    }));
    expect(settle(rows)).toEqual([
      { from: 'P0', to: 'P2', amount: 5_000, fromPlayerId: 'p0', toPlayerId: 'p2' },
      { from: 'P1', to: 'P2', amount: 1_000, fromPlayerId: 'p1', toPlayerId: 'p2' },
    ]);
  });

  it('a player who left mid-hand gets their dead money back in their ledger entry', () => {
    let room = play(started([10_000, 10_000, 10_000]), ['p0', 'RAISE', 600]);
    room = run(room, 'p1', { type: 'leave' });
    expect(room.ledger[0]).toMatchObject({ finalChips: 9_900, netResult: -100 });
    room = run(room, 'p0', { type: 'endGame' });
    expect(room.ledger).toEqual([
      { id: 'p1', name: 'P1', finalChips: 10_000, totalInvestment: 10_000, netResult: 0, leftAt: 1_000 },
    ]);
    expect(results(room)).toEqual({ p0: [10_000, 0, false, false], p2: [10_000, 0, false, false] });
  });

  it('nets over players and ledger sum to zero', () => {
    let room = play(started([10_000, 10_000, 10_000]), ['p0', 'FOLD'], ['p1', 'FOLD']);
    room = run(room, 'p0', { type: 'remove', playerId: 'p1' });
    room = run(room, 'p0', { type: 'endGame' });
    const nets = [
      ...Object.values(room.players).map((p) => p.netResult ?? Number.NaN),
      ...room.ledger.map((e) => e.netResult),
    ];
    expect(nets).toEqual([0, 100, -100]);
  });

  it('a player who left with the best result is the winner, also when nobody seated is up', () => {
    // p2 wins p1's small blind (everyone folds to the big blind) and leaves $1.00 up.
    let room = play(started([10_000, 10_000, 10_000]), ['p0', 'FOLD'], ['p1', 'FOLD']);
    room = run(room, 'p2', { type: 'leave' });
    room = run(room, 'p0', { type: 'endGame' });
    expect(results(room)).toEqual({ p0: [10_000, 0, false, false], p1: [9_900, -100, false, true] });
    expect(room.ledger).toEqual([
      {
        id: 'p2',
        name: 'P2',
        finalChips: 10_100,
        totalInvestment: 10_000,
        netResult: 100,
        leftAt: 1_000,
        isWinner: true,
      },
    ]);
  });

  it('nobody is a winner when everyone is chipless (not reachable by play, but defined)', () => {
    const room = started([10_000, 10_000]);
    const broke: Room = {
      ...room,
      players: Object.fromEntries(
        Object.entries(room.players).map(([id, p]) => [id, { ...p, stack: 0, totalPotContribution: 0 }]),
      ),
      gameState: { ...room.gameState, pots: [] },
    };
    const ended = run(broke, 'p0', { type: 'endGame' });
    expect(results(ended)).toEqual({ p0: [0, -10_000, false, true], p1: [0, -10_000, false, true] });
  });

  it('is host-only and only while playing', () => {
    expect(refuse(started([10_000, 10_000]), 'p1', { type: 'endGame' })).toBe(
      'Only the host can update game state',
    );
    expect(refuse(lobby([10_000, 10_000]), 'p0', { type: 'endGame' })).toBe('The game has not started yet');
    const ended = run(started([10_000, 10_000]), 'p0', { type: 'endGame' });
    expect(refuse(ended, 'p0', { type: 'endGame' })).toBe('This game has already ended.');
    expect(refuse(ended, 'p0', { type: 'startGame' })).toBe('This game has already ended.');
    expect(refuse(ended, 'p0', { type: 'updateSettings', smallBlind: 1, bigBlind: 2 })).toBe(
      'This game has already ended.',
    );
  });
});

describe('end of game rules a mutant survived (mutation testing)', () => {
  it('a one-cent small blind goes back when the game ends mid-hand; no bet or contribution is left', () => {
    const ended = run(started([10_000, 10_000, 10_000], [1, 2]), 'p0', { type: 'endGame' });
    expect(results(ended)).toEqual({
      p0: [10_000, 0, false, false],
      p1: [10_000, 0, false, false],
      p2: [10_000, 0, false, false],
    });
    for (const p of Object.values(ended.players)) {
      expect([p.currentRoundBet, p.totalPotContribution]).toEqual([0, 0]);
    }
  });

  it('ended while the host was to deal the next stage: nothing is left to advance, no departed chips', () => {
    const room = play(
      started([10_000, 10_000, 10_000, 10_000]),
      ['p3', 'CALL'],
      ['p0', 'CALL'],
      ['p1', 'CALL'],
    );
    const left = run(room, 'p3', { type: 'leave' }); // $2.00 in: dead money
    expect(left.gameState.departedContributions).toEqual({ p3: 200 });
    const waiting = play(left, ['p2', 'CALL']);
    expect(waiting.gameState.canAdvanceStage).toBe(true);
    const ended = run(waiting, 'p0', { type: 'endGame' });
    expect(ended.gameState).toMatchObject({
      canAdvanceStage: false,
      nextStage: null,
      nextStageName: null,
      pots: [],
    });
    expect(ended.gameState.departedContributions).toEqual({});
  });

  it('players who left up and down: only the best net result is a winner, in the ledger as at the table', () => {
    // p3 takes the blinds ($3.00) and leaves up $3.00; p1 leaves down its small blind.
    const won = play(
      started([10_000, 10_000, 10_000, 10_000]),
      ['p3', 'RAISE', 1_000],
      ['p0', 'FOLD'],
      ['p1', 'FOLD'],
      ['p2', 'FOLD'],
    );
    const left = run(run(won, 'p3', { type: 'leave' }), 'p1', { type: 'leave' });
    const ended = run(left, 'p0', { type: 'endGame' });
    expect(ended.ledger.map((e) => [e.id, e.netResult, e.isWinner])).toEqual([
      ['p3', 300, true],
      ['p1', -100, false],
    ]);
  });

  it('a player who left and came back is merged; one who left for good keeps their ledger entry', () => {
    const won = play(
      started([10_000, 10_000, 10_000, 10_000]),
      ['p3', 'FOLD'],
      ['p0', 'FOLD'],
      ['p1', 'FOLD'],
    );
    let room = run(run(won, 'p1', { type: 'leave' }), 'p3', { type: 'leave' });
    room = run(room, 'p1', { type: 'join', name: 'P1', startingChips: 5_000 });
    room = run(room, 'p0', { type: 'approve', playerId: 'p1' });
    const ended = run(room, 'p0', { type: 'endGame' });
    expect(ended.ledger.map((e) => [e.id, e.finalChips, e.netResult])).toEqual([['p3', 10_000, 0]]);
    expect(results(ended).p1).toEqual([14_900, -100, false, true]);
  });

  it('chips of a player who left in this hand go back to their entry; nothing is said of earlier leavers', () => {
    const won = play(
      started([10_000, 10_000, 10_000, 10_000]),
      ['p3', 'FOLD'],
      ['p0', 'FOLD'],
      ['p1', 'FOLD'],
    );
    const earlier = run(won, 'p3', { type: 'leave' }); // between hands: nothing in the pot
    const hand2 = run(earlier, 'p0', { type: 'newHand' }); // p1 dealer, p2 small blind, p0 big blind
    const left = run(hand2, 'p2', { type: 'leave' }); // $1.00 in: dead money
    const { room, events } = runWithEvents(left, 'p0', { type: 'endGame' });
    expect(events.filter((e) => e.type === 'betReturned')).toEqual([
      { type: 'betReturned', playerId: 'p0', name: 'P0', amount: 200 },
      { type: 'betReturned', playerId: 'p2', name: 'P2', amount: 100 },
    ]);
    expect(room!.ledger.map((e) => [e.id, e.finalChips])).toEqual([
      ['p3', 10_000],
      ['p2', 10_100],
    ]);
  });
});
