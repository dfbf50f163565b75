/** The incoming messages' schemas at their bounds: one past a bound is refused, the bound itself is not. */
import { describe, expect, it } from 'vitest';
import { joinRoomSchema, resumeSchema, roomCommandSchema, sessionEndSchema, visitSchema } from './schemas';

const ok = (schema: { safeParse: (v: unknown) => { success: boolean } }, value: unknown) =>
  schema.safeParse(value).success;
const command = (c: Record<string, unknown>, commandId = 'c1') =>
  ok(roomCommandSchema, { commandId, roomCode: 'ABCDE', command: c });
const ids = (n: number) => Array.from({ length: n }, (_, i) => `p-${i}`);

describe('amounts, ids and names', () => {
  it('an amount is whole cents from 0 to $100,000,000.00', () => {
    const rebuy = (amount: number) => command({ type: 'rebuy', playerId: 'p-1', amount });
    expect([0, 1, 100_000_000_00].map(rebuy)).toEqual([true, true, true]);
    expect([-1, 0.5, 100_000_000_01].map(rebuy)).toEqual([false, false, false]);
    // A check's facing: nothing to call.
    const facing = { handNumber: 0, stage: 'FLOP', toCall: 0 };
    expect(command({ type: 'act', action: 'CALL', facing })).toBe(true);
    expect(command({ type: 'act', action: 'CALL', facing: { ...facing, handNumber: -1 } })).toBe(false);
  });

  it('a command id has 1 to 64 characters', () => {
    const startGame = { type: 'startGame' };
    expect(['x', 'x'.repeat(64)].map((id) => command(startGame, id))).toEqual([true, true]);
    expect(['', 'x'.repeat(65)].map((id) => command(startGame, id))).toEqual([false, false]);
  });

  it('a player id is 1 to 64 letters, digits and dashes, nothing before or after', () => {
    const approve = (playerId: string) => command({ type: 'approve', playerId });
    expect(['a', 'A-9', 'x'.repeat(64), '0b6c3a1e-2f4d-4e8a-9c7b-5d1e2f3a4b5c'].map(approve)).toEqual([
      true,
      true,
      true,
      true,
    ]);
    expect(['', 'x'.repeat(65), 'a_b', '__proto__', ' ab', 'ab ', 'a.b'].map(approve)).toEqual(
      Array(7).fill(false),
    );
  });

  it("a name has at most 80 characters (the engine trims it and refuses more than 20 of what's left)", () => {
    const join = (name: string) =>
      ok(joinRoomSchema, { commandId: 'c1', roomCode: 'ABCDE', name, startingChips: 5_000 });
    expect([join('x'.repeat(80)), join('x'.repeat(81))]).toEqual([true, false]);
  });
});

describe('room codes', () => {
  it('five letters or digits, upper-cased', () => {
    expect(resumeSchema.parse({ roomCode: 'ab3de' })).toEqual({ roomCode: 'AB3DE' });
    expect(
      ['ABCD', 'ABCDEF', 'AB-DE', ' ABCD', 'ABCD ', 'AB_DE'].map((c) => ok(resumeSchema, { roomCode: c })),
    ).toEqual(Array(6).fill(false));
  });
});

describe('lists', () => {
  it('winners, pots and seats: at most 20 each', () => {
    const declare = (winnerIds: string[], byPot?: Record<string, string[]>) =>
      command({ type: 'declareWinners', winnerIds, ...(byPot ? { byPot } : {}) });
    expect([declare(ids(20)), declare(ids(21))]).toEqual([true, false]);
    const pots = (n: number) =>
      Object.fromEntries(Array.from({ length: n }, (_, i) => [`side-${i}`, ['p-1']]));
    expect([declare([], pots(20)), declare([], pots(21))]).toEqual([true, false]);
    expect([declare([], { main: ids(20) }), declare([], { main: ids(21) })]).toEqual([true, false]);
    expect([declare([], { ['x'.repeat(16)]: [] }), declare([], { ['x'.repeat(17)]: [] })]).toEqual([
      true,
      false,
    ]);
    const seats = (n: number) => command({ type: 'arrangeSeats', playerIds: ids(n) });
    expect([seats(20), seats(21)]).toEqual([true, false]);
  });

  it('an undo names a logged event: seq 1 or more', () => {
    expect([1, 0].map((seq) => command({ type: 'undo', seq }))).toEqual([true, false]);
  });
});

describe('analytics', () => {
  it('a session id has 1 to 64 characters; a beacon carries 0 to 1440 whole minutes', () => {
    for (const schema of [visitSchema, sessionEndSchema]) {
      const body = (sessionId: string) => ({ sessionId, newSession: true, minutes: 5 });
      const value = (sessionId: string) => {
        const { newSession, minutes, ...rest } = body(sessionId);
        return schema === visitSchema ? { ...rest, newSession } : { ...rest, minutes };
      };
      expect(['x', 'x'.repeat(64)].map((id) => ok(schema, value(id)))).toEqual([true, true]);
      expect(['', 'x'.repeat(65)].map((id) => ok(schema, value(id)))).toEqual([false, false]);
    }
    const minutes = (m: number) => ok(sessionEndSchema, { sessionId: 's', minutes: m });
    expect([0, 1440].map(minutes)).toEqual([true, true]);
    expect([-1, 1441, 1.5].map(minutes)).toEqual([false, false, false]);
  });
});
