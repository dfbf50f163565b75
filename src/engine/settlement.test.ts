import { describe, expect, it } from 'vitest';
import { settle } from './settlement';

const row = (id: string, netResult: number) => ({ id, name: id.toUpperCase(), netResult });

describe('settle', () => {
  it('the biggest loser pays the biggest winner first', () => {
    expect(settle([row('a', -500), row('b', 300), row('c', 200)])).toEqual([
      { from: 'A', to: 'B', amount: 300, fromPlayerId: 'a', toPlayerId: 'b' },
      { from: 'A', to: 'C', amount: 200, fromPlayerId: 'a', toPlayerId: 'c' },
    ]);
  });

  it('settles several losers and winners in at most n-1 transfers', () => {
    const players = [row('a', -1_000), row('b', -250), row('c', 700), row('d', 550), row('e', 0)];
    expect(settle(players)).toEqual([
      { from: 'A', to: 'C', amount: 700, fromPlayerId: 'a', toPlayerId: 'c' },
      { from: 'A', to: 'D', amount: 300, fromPlayerId: 'a', toPlayerId: 'd' },
      { from: 'B', to: 'D', amount: 250, fromPlayerId: 'b', toPlayerId: 'd' },
    ]);
  });

  it('breaks ties by input order', () => {
    expect(settle([row('a', -100), row('b', -100), row('c', 100), row('d', 100)])).toEqual([
      { from: 'A', to: 'C', amount: 100, fromPlayerId: 'a', toPlayerId: 'c' },
      { from: 'B', to: 'D', amount: 100, fromPlayerId: 'b', toPlayerId: 'd' },
    ]);
  });

  it('needs no transfers when everyone is even', () => {
    expect(settle([row('a', 0), row('b', 0)])).toEqual([]);
    expect(settle([])).toEqual([]);
  });
});

describe('settle: boundaries a mutant survived (mutation testing)', () => {
  it('a one-cent result is settled', () => {
    expect(settle([row('a', 1), row('b', -1)])).toEqual([
      { from: 'B', to: 'A', amount: 1, fromPlayerId: 'b', toPlayerId: 'a' },
    ]);
  });

  it('results that do not sum to 0 leave the remainder unsettled rather than invent it', () => {
    expect(settle([row('a', 300), row('b', -100)])).toEqual([
      { from: 'B', to: 'A', amount: 100, fromPlayerId: 'b', toPlayerId: 'a' },
    ]);
    expect(settle([row('a', 100), row('b', -300)])).toEqual([
      { from: 'B', to: 'A', amount: 100, fromPlayerId: 'b', toPlayerId: 'a' },
    ]);
  });
});
