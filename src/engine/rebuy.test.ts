import { describe, expect, it } from 'vitest';
import { lobby, play, player, refuse, run, runWithEvents, started } from './test-helpers';
import type { Room } from './types';

describe('rebuy', () => {
  it('adds to the stack and the investment, in the lobby too', () => {
    const { room, events } = runWithEvents(
      lobby([10_000, 5_000]),
      'p0',
      {
        type: 'rebuy',
        playerId: 'p1',
        amount: 2_550,
      },
      4_000,
    );
    expect(player(room!, 'p1')).toMatchObject({
      stack: 7_550,
      totalInvestment: 7_550,
      lastChipUpdate: 4_000,
    });
    expect(events).toEqual([{ type: 'rebuy', playerId: 'p1', name: 'P1', amount: 2_550 }]);
  });

  it('brings a chipless player back into the next hand', () => {
    let room = play(started([10_000, 1_000, 10_000]), ['p0', 'FOLD'], ['p1', 'ALL_IN'], ['p2', 'CALL']);
    room = run(room, 'p0', { type: 'declareWinners', winnerIds: ['p2'] });
    expect(player(room, 'p1').stack).toBe(0);
    room = run(room, 'p0', { type: 'rebuy', playerId: 'p1', amount: 5_000 });
    room = run(room, 'p0', { type: 'newHand' });
    expect(player(room, 'p1')).toMatchObject({ isActive: true, stack: 5_000, totalInvestment: 6_000 });
  });

  it('is allowed mid-hand for folded or sitting-out players', () => {
    let room = play(started([10_000, 10_000, 10_000]), ['p0', 'FOLD']);
    room = run(room, 'p0', { type: 'rebuy', playerId: 'p0', amount: 100 });
    expect(player(room, 'p0').stack).toBe(10_100);
    room = run(room, 'x', { type: 'join', name: 'X', startingChips: 1_000 });
    room = run(room, 'p0', { type: 'approve', playerId: 'x' });
    room = run(room, 'p0', { type: 'rebuy', playerId: 'x', amount: 100 });
    expect(player(room, 'x').stack).toBe(1_100);
  });

  it('table stakes: a player still betting in the hand waits for the showdown', () => {
    const room = started([10_000, 10_000]);
    expect(refuse(room, 'p0', { type: 'rebuy', playerId: 'p1', amount: 100 })).toBe(
      'P1 is still in this hand. Add chips after the showdown or once they fold.',
    );
    const showdown = play(started([1_000, 10_000]), ['p0', 'ALL_IN'], ['p1', 'CALL']);
    expect(player(run(showdown, 'p0', { type: 'rebuy', playerId: 'p0', amount: 500 }), 'p0').stack).toBe(500);
  });

  it.each([0, -100, 1.5, Number.NaN])('refuses the amount %d', (amount) => {
    expect(refuse(lobby([10_000, 5_000]), 'p0', { type: 'rebuy', playerId: 'p1', amount })).toBe(
      'Please enter a valid positive amount',
    );
  });

  it('refuses unknown or pending players, non-hosts, ended games and disabled rebuys', () => {
    const room = lobby([10_000, 5_000]);
    expect(refuse(room, 'p0', { type: 'rebuy', playerId: 'zz', amount: 100 })).toBe(
      'Selected player not found',
    );
    const pending = run(room, 'x', { type: 'join', name: 'X', startingChips: 1_000 });
    expect(refuse(pending, 'p0', { type: 'rebuy', playerId: 'x', amount: 100 })).toBe(
      'Selected player not found',
    );
    expect(refuse(room, 'p1', { type: 'rebuy', playerId: 'p1', amount: 100 })).toBe(
      'Only the host can update game state',
    );
    const ended = run(started([10_000, 10_000]), 'p0', { type: 'endGame' });
    expect(refuse(ended, 'p0', { type: 'rebuy', playerId: 'p1', amount: 100 })).toBe(
      'This game has already ended.',
    );
    const disabled: Room = { ...room, settings: { ...room.settings, enableRebuys: false } };
    expect(refuse(disabled, 'p0', { type: 'rebuy', playerId: 'p1', amount: 100 })).toBe(
      'Rebuys are disabled in this game',
    );
  });
});

describe('rebuy: exact integer cents (SPEC §1 integer cents, §5 Rebuy)', () => {
  it('a rebuy that would take the room’s chips past exact integer cents is refused', () => {
    const room = lobby([10_000, 5_000]);
    expect(refuse(room, 'p0', { type: 'rebuy', playerId: 'p1', amount: Number.MAX_SAFE_INTEGER })).toBe(
      'Please enter a valid positive amount',
    );
    // The largest rebuy that keeps every sum of the room's chips exact is accepted.
    const most = Number.MAX_SAFE_INTEGER - 15_000;
    const { room: after } = runWithEvents(room, 'p0', { type: 'rebuy', playerId: 'p1', amount: most });
    expect(player(after!, 'p1')).toMatchObject({ stack: most + 5_000, totalInvestment: most + 5_000 });
    expect(refuse(after!, 'p0', { type: 'rebuy', playerId: 'p0', amount: 1 })).toBe(
      'Please enter a valid positive amount',
    );
  });

  it('chips carried away by players who left count too', () => {
    let room = started([10_000, 10_000, 10_000]);
    room = run(room, 'p2', { type: 'leave' });
    // In the room: 10,000 + 10,000 seated, 10,000 in the ledger (9,800 behind + 200 dead in the pot).
    const most = Number.MAX_SAFE_INTEGER - 30_000;
    room = play(room, ['p0', 'FOLD']);
    expect(refuse(room, 'p0', { type: 'rebuy', playerId: 'p0', amount: most + 1 })).toBe(
      'Please enter a valid positive amount',
    );
    const after = run(room, 'p0', { type: 'rebuy', playerId: 'p0', amount: most });
    expect(player(after, 'p0').stack).toBe(most + 10_000);
  });
});

describe('join after a rebuy to the limit: exact integer cents (SPEC §1 integer cents)', () => {
  it('a buy-in that would take the room’s chips past exact integer cents is refused', () => {
    // Regression: join did not count the room's chips, so after the largest rebuy a $10 buy-in took
    // the total past Number.MAX_SAFE_INTEGER, and the rebought player winning it held an inexact stack.
    let room = lobby([1_000, 1_000]);
    room = run(room, 'p0', { type: 'rebuy', playerId: 'p1', amount: Number.MAX_SAFE_INTEGER - 2_000 });
    expect(refuse(room, 'p2', { type: 'join', name: 'P2', startingChips: 1_000 })).toBe('Room is full.');
    // A buy-in that exactly fills the room is accepted; then not even the minimum buy-in fits.
    const roomy = run(lobby([1_000, 1_000]), 'p0', {
      type: 'rebuy',
      playerId: 'p1',
      amount: Number.MAX_SAFE_INTEGER - 3_000,
    });
    const after = run(roomy, 'p2', { type: 'join', name: 'P2', startingChips: 1_000 });
    expect(player(after, 'p2')).toMatchObject({ stack: 1_000, totalInvestment: 1_000 });
    expect(refuse(after, 'p3', { type: 'join', name: 'P3', startingChips: 100 })).toBe('Room is full.');
  });
});
