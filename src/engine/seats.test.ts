import { describe, expect, it } from 'vitest';
import { openDraft } from './draft';
import { newPlayer } from './room';
import { canAct, clockwiseFromDealer, needsToAct, nextSeat, positions } from './seats';
import { started } from './test-helpers';
import type { Player } from './types';

const seat = (id: string, joinedAt: number): Player => ({
  ...newPlayer({ id, name: id, isHost: false, startingChips: 1_000, joinedAt }),
  isApproved: true,
  isActive: true,
});

describe('positions', () => {
  const funded = [seat('a', 1), seat('b', 2), seat('c', 3), seat('d', 4)];
  const ids = (p: ReturnType<typeof positions>) => [p.dealer.id, p.smallBlind.id, p.bigBlind.id, p.headsUp];

  it('first hand: the first funded player deals, then small and big blind clockwise', () => {
    expect(ids(positions(funded, null))).toEqual(['a', 'b', 'c', false]);
  });

  it('the button moves to the next funded seat after the previous dealer’s seat, wrapping', () => {
    expect(ids(positions(funded, 1))).toEqual(['b', 'c', 'd', false]);
    expect(ids(positions(funded, 3))).toEqual(['d', 'a', 'b', false]);
    expect(ids(positions(funded, 4))).toEqual(['a', 'b', 'c', false]);
    // The previous dealer's seat (2.5) is gone or chipless: the next funded seat takes it.
    expect(ids(positions(funded, 2.5))).toEqual(['c', 'd', 'a', false]);
  });

  it('heads-up: the dealer is also the small blind', () => {
    expect(ids(positions([seat('a', 1), seat('c', 3)], 1))).toEqual(['c', 'c', 'a', true]);
  });
});

describe('who can act', () => {
  it('excludes folded, all-in, chipless and sitting-out players', () => {
    const p = seat('a', 1);
    expect(canAct(p)).toBe(true);
    expect(canAct({ ...p, hasFolded: true })).toBe(false);
    expect(canAct({ ...p, isAllIn: true })).toBe(false);
    expect(canAct({ ...p, stack: 0 })).toBe(false);
    expect(canAct({ ...p, isActive: false })).toBe(false);
  });

  it('needs to act until they acted and matched the highest bet', () => {
    const p = seat('a', 1);
    expect(needsToAct(p, 0)).toBe(true);
    expect(needsToAct({ ...p, hasActedThisRound: true }, 0)).toBe(false);
    expect(needsToAct({ ...p, hasActedThisRound: true, currentRoundBet: 100 }, 200)).toBe(true);
  });
});

describe('nextSeat and clockwiseFromDealer', () => {
  const room = started([1_000, 1_000, 1_000, 1_000]); // seats 1000..1003, dealer p0

  it('searches clockwise after a seat, wrapping, optionally including it', () => {
    const d = openDraft(room, 0);
    expect(nextSeat(d, 1_001, () => true)?.id).toBe('p2');
    expect(nextSeat(d, 1_003, () => true)?.id).toBe('p0');
    expect(nextSeat(d, 1_001, () => true, true)?.id).toBe('p1');
    expect(nextSeat(d, 1_001, (p) => p.id === 'p1')?.id).toBe('p1');
    expect(nextSeat(d, 1_001, () => false)).toBeNull();
  });

  it('orders winners from the dealer’s left, the dealer last', () => {
    const d = openDraft(room, 0);
    expect(clockwiseFromDealer(d, ['p0', 'p3', 'p1'])).toEqual(['p1', 'p3', 'p0']);
  });
});
