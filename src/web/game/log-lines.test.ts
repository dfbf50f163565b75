/** The hand log's lines, and the undo question's line for a command (describeCommand). */
import { describe, expect, it } from 'vitest';
import type { GameEvent, LoggedEvent } from '../../engine/types';
import { describeCommand, describeEvent } from './log-lines';

const pot = (potId: string, amount: number, name: string): Extract<GameEvent, { type: 'potAwarded' }> => ({
  type: 'potAwarded',
  potId,
  amount,
  winners: [{ playerId: name.toLowerCase(), name, amount }],
  reason: 'SHOWDOWN',
  message: null,
});
const logged = (event: GameEvent, seq: number): LoggedEvent => ({ ...event, seq, at: seq, handNumber: 3 });

describe('describeCommand: the line of a command the host takes back', () => {
  const main = pot('main', 3_004, 'Dan');
  const side = pot('side-1', 1_758, 'Dan');
  const side2 = pot('side-2', 500, 'Eve');
  const completed = logged({ type: 'handCompleted', handNumber: 3 }, 13);

  it('names every pot of an award, read from the log, whether the award ends the log, starts it or sits inside it', () => {
    const all = 'Pot $30.04 to Dan; Side pot 1 $17.58 to Dan; Side pot 2 $5.00 to Eve';
    const awards = [logged(main, 10), logged(side, 11), logged(side2, 12)];
    const before = logged({ type: 'stageChanged', stage: 'SHOWDOWN' }, 9);
    expect(describeCommand(main, 10, [before, ...awards])).toBe(all);
    expect(describeCommand(main, 10, awards)).toBe(all);
    expect(describeCommand(main, 10, [before, ...awards, completed])).toBe(all);
    // The next command's award (another hand's) is not this one's.
    const next = logged(pot('main', 200, 'Eve'), 13);
    expect(describeCommand(main, 10, [...awards.slice(0, 2), next])).toBe(
      'Pot $30.04 to Dan; Side pot 1 $17.58 to Dan',
    );
  });

  it("one pot, or the award's events no longer in the log: the first event's line", () => {
    expect(describeCommand(main, 10, [logged(main, 10), completed])).toBe('Pot $30.04 to Dan');
    expect(describeCommand(main, 10, [])).toBe('Pot $30.04 to Dan');
    expect(describeCommand(main, 10, [logged(pot('main', 1, 'Eve'), 4)])).toBe('Pot $30.04 to Dan');
  });

  it("the undone line names the whole award; another command's, its first event", () => {
    const undone: GameEvent = { type: 'undone', undoneSeq: 10, first: main };
    expect(describeEvent(undone, [logged(main, 10), logged(side, 11)])).toBe(
      'Undone by the host: Pot $30.04 to Dan; Side pot 1 $17.58 to Dan',
    );
    expect(describeEvent(undone)).toBe('Undone by the host: Pot $30.04 to Dan');
    const raise: GameEvent = {
      type: 'playerActed',
      playerId: 'ana',
      name: 'Ana',
      action: 'RAISE',
      amount: 400,
      totalBet: 600,
      allIn: false,
    };
    expect(describeEvent({ type: 'undone', undoneSeq: 4, first: raise })).toBe(
      'Undone by the host: Ana raises to $6.00',
    );
  });
});

describe('describeEvent: lines the other suites do not show', () => {
  const acted = (action: 'FOLD' | 'CALL', amount: number, byHost?: true): GameEvent => ({
    type: 'playerActed',
    playerId: 'bob',
    name: 'Bob',
    action,
    amount,
    totalBet: amount,
    allIn: false,
    ...(byHost ? { byHost } : {}),
  });

  it('a check (a call of nothing), by the player or by the host', () => {
    expect(describeEvent(acted('CALL', 0))).toBe('Bob checks');
    expect(describeEvent(acted('CALL', 0, true))).toBe('Bob checks (by the host)');
    expect(describeEvent(acted('CALL', 1))).toBe('Bob calls $0.01');
    expect(describeEvent(acted('FOLD', 0, true))).toBe('Bob folds (by the host)');
  });

  it('a blind that takes the whole stack', () => {
    const blind = (allIn: boolean): GameEvent => ({
      type: 'blindPosted',
      playerId: 'bob',
      name: 'Bob',
      blind: 'BIG',
      amount: 150,
      allIn,
    });
    expect(describeEvent(blind(true))).toBe('Bob posts big blind $1.50 (all-in)');
    expect(describeEvent(blind(false))).toBe('Bob posts big blind $1.50');
  });

  it('a seat link made, used, and void once the phone is back', () => {
    expect(describeEvent({ type: 'seatLinkMade', playerId: 'bob', name: 'Bob' })).toBe(
      'Host made a link to move Bob to a new phone',
    );
    expect(describeEvent({ type: 'seatMoved', playerId: 'bob', name: 'Bob' })).toBe(
      "Bob's seat moved to a new phone",
    );
    expect(describeEvent({ type: 'seatLinkVoid', playerId: 'bob', name: 'Bob' })).toBe(
      "Bob's phone is back: the link to move Bob no longer works",
    );
  });

  it("the showdown's line is the engine's message", () => {
    expect(
      describeEvent({ type: 'showdown', playersRemaining: 2, message: 'Showdown: 2 players remain' }),
    ).toBe('Showdown: 2 players remain');
  });
});
