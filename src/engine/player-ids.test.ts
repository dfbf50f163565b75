/**
 * Ids that name members of Object.prototype ('constructor', 'toString', '__proto__'…) are nobody's:
 * a players map is a plain object, and an engine that asked `players[id] !== undefined` once let a
 * host approve a 'constructor' (a player with no name or stack, saved and broadcast) that then broke
 * startGame and every action of the hand. Each command naming one is refused and changes nothing.
 */
import { describe, expect, it } from 'vitest';
import { applyCommand } from './commands';
import { callAmount, isInRoom, raiseLimits } from './index';
import { checkedDownThreeWay, lobby, refuse, started } from './test-helpers';
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
});
