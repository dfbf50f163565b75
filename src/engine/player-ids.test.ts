/**
 * Ids that name members of Object.prototype ('constructor', 'toString', '__proto__'…) are nobody's:
 * a players map is a plain object, and an engine that asked `players[id] !== undefined` once let a
 * host approve a 'constructor' (a player with no name or stack, saved and broadcast) that then broke
 * startGame and every action of the hand. Each command naming one is refused and changes nothing.
 */
import { describe, expect, it } from 'vitest';
import { applyCommand } from './commands';
import { callAmount, isInRoom, raiseLimits } from './index';
import { createRoom } from './room';
import {
  checkedDownThreeWay,
  deepFreeze,
  lobby,
  play,
  player,
  potsOf,
  refuse,
  run,
  started,
} from './test-helpers';
import type { Command } from './types';

const INHERITED = ['constructor', 'toString', 'hasOwnProperty', 'valueOf', '__proto__', 'isPrototypeOf'];

describe('player ids that name Object.prototype members', () => {
  it.each(INHERITED)('host commands naming %s in the lobby are refused', (id) => {
    const room = lobby([5_000, 5_000]);
    expect(isInRoom(room, id)).toBe(false);
    expect(isInRoom(room, 'p1')).toBe(true);
    expect(refuse(room, 'p0', { type: 'approve', playerId: id })).toBe('Selected player not found');
    expect(refuse(room, 'p0', { type: 'remove', playerId: id })).toBe('Selected player not found');
    expect(refuse(room, 'p0', { type: 'rebuy', playerId: id, amount: 1_000 })).toBe(
      'Selected player not found',
    );
  });

  it.each(INHERITED)(
    'during a hand: %s cannot act, be approved, removed, rebought or named a winner',
    (id) => {
      const room = started([5_000, 5_000, 5_000]);
      expect(refuse(room, id, { type: 'act', action: 'CALL' })).toBe(
        refuse(room, 'nobody', { type: 'act', action: 'CALL' }),
      );
      expect(refuse(room, 'p0', { type: 'approve', playerId: id })).toBe('Selected player not found');
      expect(refuse(room, 'p0', { type: 'remove', playerId: id })).toBe('Selected player not found');
      expect(refuse(room, 'p0', { type: 'rebuy', playerId: id, amount: 1_000 })).toBe(
        'Selected player not found',
      );
      expect(raiseLimits(room, id)).toBeNull();
      expect(callAmount(room, id)).toBe(0);

      // At showdown, as a winner for every pot or for one pot.
      const showdown = checkedDownThreeWay(room);
      expect(showdown.gameState.stage).toBe('SHOWDOWN');
      const declare: Command = { type: 'declareWinners', winnerIds: [id] };
      expect(refuse(showdown, 'p0', declare)).toBe(`Player ${id} is not in this hand`);
      const byPot: Command = { type: 'declareWinners', winnerIds: [], byPot: { main: [id] } };
      expect(refuse(showdown, 'p0', byPot)).toBe(`Player ${id} is not in this hand`);
    },
  );

  it('leaving as one of them changes nothing', () => {
    const room = started([5_000, 5_000]);
    const res = applyCommand(room, 'constructor', { type: 'leave' }, 2_000);
    expect(res).toEqual({ ok: true, room, events: [] });
  });

  it("a player seated as 'constructor' leaves with chips in the pot: they stay in it (regression)", () => {
    let room = run(seated(['a', 'constructor']), 'h', { type: 'startGame' }); // h deals, a $1.00, constructor $2.00
    room = run(room, 'constructor', { type: 'leave' });
    // The $1.00 of the big blind the small blind matched stays; the $1.00 nobody matched goes back.
    expect(room.gameState.departedContributions).toEqual({ constructor: 100 });
    expect(room.ledger[0]).toMatchObject({ id: 'constructor', finalChips: 900 });
    expect(potsOf(room)).toEqual([['main', 200, ['h', 'a']]]);
    room = play(room, ['h', 'FOLD']);
    expect(player(room, 'a').stack).toBe(1_100);
    room = run(room, 'h', { type: 'endGame' });
    const nets = [
      ...Object.values(room.players).map((p) => p.netResult ?? 0),
      ...room.ledger.map((e) => e.netResult),
    ];
    expect(nets.reduce((a, b) => a + b, 0)).toBe(0);
  });

  it.each(['constructor', 'toString'])(
    'a player seated as %s who left keeps whole-cent results when the game ends with dead money in the pot (regression)',
    (id) => {
      // The engine takes such an id from a join (the server hands out UUIDs); its ledger entry must
      // not read Object.prototype's member when the end of the game returns the departed chips.
      let room = run(seated(['a', 'b', 'c', id]), 'h', { type: 'startGame' }); // h deals, a posts $1.00, b $2.00
      room = run(room, id, { type: 'leave' }); // nothing in the pot: 1000 back, net 0
      room = run(room, 'b', { type: 'leave' }); // the $1.00 of the big blind a matched is dead money
      expect(room.gameState.departedContributions).toEqual({ b: 100 });
      room = run(room, 'h', { type: 'endGame' });
      expect(room.ledger.find((e) => e.id === id)).toMatchObject({ finalChips: 1_000, netResult: 0 });
      expect(room.ledger.find((e) => e.id === 'b')).toMatchObject({ finalChips: 1_000, netResult: 0 });
      const nets = [
        ...Object.values(room.players).map((p) => p.netResult as number),
        ...room.ledger.map((e) => e.netResult),
      ];
      expect(nets.every(Number.isSafeInteger)).toBe(true);
      expect(nets.reduce((a, b) => a + b, 0)).toBe(0);
    },
  );
});

describe('commands of the wrong shape (the server schema lets none through): refused, never thrown', () => {
  const cases: Array<[string, () => Parameters<typeof applyCommand>[0], unknown]> = [
    [
      'byPot naming a pot with null',
      () => allInShowdown(),
      { type: 'declareWinners', winnerIds: ['p1'], byPot: { main: null } },
    ],
    [
      'byPot naming a pot with a number',
      () => allInShowdown(),
      { type: 'declareWinners', winnerIds: ['p1'], byPot: { main: 5 } },
    ],
    ['byPot null', () => allInShowdown(), { type: 'declareWinners', winnerIds: ['p1'], byPot: null }],
    ['byPot a string', () => allInShowdown(), { type: 'declareWinners', winnerIds: ['p1'], byPot: 'main' }],
    ['byPot a list', () => allInShowdown(), { type: 'declareWinners', winnerIds: ['p1'], byPot: [['p1']] }],
    ['sitOut with a string for away', () => started([5_000, 5_000]), { type: 'sitOut', away: 'x' }],
    ['sitOut naming a number', () => started([5_000, 5_000]), { type: 'sitOut', away: true, playerId: 1 }],
    ['arrangeSeats without playerIds', () => lobby([5_000, 5_000]), { type: 'arrangeSeats' }],
    ['arrangeSeats with a string', () => lobby([5_000, 5_000]), { type: 'arrangeSeats', playerIds: 'p0' }],
    ['arrangeSeats with numbers', () => lobby([5_000, 5_000]), { type: 'arrangeSeats', playerIds: [0, 1] }],
    ['null', () => lobby([5_000, 5_000]), null],
    ['a string', () => lobby([5_000, 5_000]), 'startGame'],
  ];
  it.each(cases)('%s: Unknown command, the room unchanged', (_label, make, command) => {
    const room = deepFreeze(make());
    const before = JSON.stringify(room);
    expect(applyCommand(room, 'p0', command as Command, 2_000)).toEqual({
      ok: false,
      error: 'Unknown command',
    });
    expect(JSON.stringify(room)).toBe(before);
  });
});

/**
 * Host 'h' and `ids` seated with $10.00 each, in the lobby: the engine takes any id its pattern allows
 * (the server hands out UUIDs), these included.
 */
function seated(ids: string[]) {
  let room = createRoom({
    roomCode: 'ABCDE',
    hostId: 'h',
    hostName: 'Host',
    startingChips: 1_000,
    now: 1_000,
  });
  for (const id of ids) {
    room = run(room, id, { type: 'join', name: `P-${id}`, startingChips: 1_000 });
    room = run(room, 'h', { type: 'approve', playerId: id });
  }
  return room;
}

/** Heads-up, all-in and called: the showdown, $100.00 in the main pot. */
function allInShowdown() {
  let room = started([5_000, 5_000]);
  room = run(room, 'p0', { type: 'act', action: 'ALL_IN' });
  room = run(room, 'p1', { type: 'act', action: 'CALL' });
  expect(room.gameState.stage).toBe('SHOWDOWN');
  return room;
}
