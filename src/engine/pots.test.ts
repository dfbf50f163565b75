import { describe, expect, it } from 'vitest';
import { buildPots, type Contribution, potTotal, splitPot, uncalledBet } from './pots';

/** A contribution at the end of betting (reach = amount). */
const c = (id: string, amount: number, live = true): Contribution => ({ id, amount, live, reach: amount });

describe('buildPots', () => {
  it('nothing in: one empty main pot with every live player eligible', () => {
    expect(buildPots([c('a', 0), c('b', 0), c('x', 0, false)])).toEqual([
      { id: 'main', amount: 0, eligiblePlayers: ['a', 'b'], isMainPot: true },
    ]);
  });

  it('equal contributions make a single main pot', () => {
    expect(buildPots([c('a', 600), c('b', 600), c('c', 600)])).toEqual([
      { id: 'main', amount: 1_800, eligiblePlayers: ['a', 'b', 'c'], isMainPot: true },
    ]);
  });

  it('layers by contribution level, folded chips counted but not eligible', () => {
    // a folded after 100; d all-in 1000; b and e all-in 3000; c covered 3000.
    const pots = buildPots([c('a', 100, false), c('b', 3_000), c('c', 3_000), c('d', 1_000)]);
    expect(pots).toEqual([
      { id: 'main', amount: 3_100, eligiblePlayers: ['b', 'c', 'd'], isMainPot: true },
      { id: 'side-1', amount: 4_000, eligiblePlayers: ['b', 'c'], isMainPot: false },
    ]);
    expect(potTotal(pots)).toBe(7_100);
  });

  it('three all-ins of different sizes make main, side-1 and side-2', () => {
    const pots = buildPots([c('a', 500), c('b', 1_500), c('c', 4_000), c('d', 4_000)]);
    expect(pots.map((p) => [p.id, p.amount, p.eligiblePlayers])).toEqual([
      ['main', 2_000, ['a', 'b', 'c', 'd']],
      ['side-1', 3_000, ['b', 'c', 'd']],
      ['side-2', 5_000, ['c', 'd']],
    ]);
  });

  it('a folded player above the live ones: that dead money joins the pot below', () => {
    // x raised to 1000 then left; a and b only put in 200.
    expect(buildPots([c('a', 200), c('b', 200), c('x', 1_000, false)])).toEqual([
      { id: 'main', amount: 1_400, eligiblePlayers: ['a', 'b'], isMainPot: true },
    ]);
  });

  it('dead money below every live contribution goes into the first live pot', () => {
    expect(buildPots([c('x', 100, false), c('a', 300), c('y', 200, false), c('b', 300)])).toEqual([
      { id: 'main', amount: 900, eligiblePlayers: ['a', 'b'], isMainPot: true },
    ]);
  });

  it('only folded or departed chips in: one main pot every live player contests', () => {
    expect(buildPots([c('x', 100, false), c('y', 200, false), c('a', 0), c('b', 0)])).toEqual([
      { id: 'main', amount: 300, eligiblePlayers: ['a', 'b'], isMainPot: true },
    ]);
  });

  it('dead money in a layer one live player reached goes to a pot only they can win', () => {
    const pots = buildPots([c('a', 1_000), c('x', 600, false), c('b', 200)]);
    expect(pots.map((p) => [p.id, p.amount, p.eligiblePlayers])).toEqual([
      ['main', 600, ['a', 'b']],
      ['side-1', 1_200, ['a']],
    ]);
  });

  it('during a round a player who can still call is eligible up to their reach (stack + bet)', () => {
    // Right after the blinds: the big blind layer is not a side pot while others can still call.
    const pots = buildPots([
      { id: 'sb', amount: 100, live: true, reach: 10_000 },
      { id: 'bb', amount: 200, live: true, reach: 10_000 },
      { id: 'utg', amount: 0, live: true, reach: 150 },
    ]);
    expect(pots).toEqual([
      { id: 'main', amount: 250, eligiblePlayers: ['sb', 'bb', 'utg'], isMainPot: true },
      { id: 'side-1', amount: 50, eligiblePlayers: ['sb', 'bb'], isMainPot: false },
    ]);
  });
});

describe('uncalledBet', () => {
  it('returns the part of the top bet nobody matched', () => {
    expect(uncalledBet([c('a', 5_000), c('b', 2_000), c('x', 300, false)])).toEqual({
      id: 'a',
      amount: 3_000,
    });
  });

  it('none when the top is matched', () => {
    expect(uncalledBet([c('a', 2_000), c('b', 2_000)])).toBeNull();
  });

  it('none when the top contributor folded (it is dead money)', () => {
    expect(uncalledBet([c('a', 200), c('x', 1_000, false)])).toBeNull();
  });

  it('the whole bet when nobody else put anything in', () => {
    expect(uncalledBet([c('a', 700), c('b', 0)])).toEqual({ id: 'a', amount: 700 });
  });
});

describe('splitPot', () => {
  it('splits evenly when it can', () => {
    expect(splitPot(900, ['a', 'b', 'c'])).toEqual([300, 300, 300]);
  });

  it('odd cents go one each to the first winners in order', () => {
    expect(splitPot(10, ['a', 'b', 'c'])).toEqual([4, 3, 3]);
    expect(splitPot(11, ['a', 'b', 'c'])).toEqual([4, 4, 3]);
    expect(splitPot(1, ['a', 'b'])).toEqual([1, 0]);
  });

  it('one winner takes it all; no winners, no shares', () => {
    expect(splitPot(12_345, ['a'])).toEqual([12_345]);
    expect(splitPot(100, [])).toEqual([]);
  });
});

describe('buildPots: a boundary a mutant survived (mutation testing)', () => {
  it('one cent of dead money and no live chips: a main pot of one cent every live player contests', () => {
    expect(buildPots([c('x', 1, false), c('a', 0), c('b', 0)])).toEqual([
      { id: 'main', amount: 1, eligiblePlayers: ['a', 'b'], isMainPot: true },
    ]);
  });
});
