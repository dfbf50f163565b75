import { describe, expect, it } from 'vitest';
import { ACT_FOR_AFTER_MS } from './host';
import { MSG } from './messages';
import { lobby, play, player, refuse, run, runWithEvents, started } from './test-helpers';
import type { Command, GameEvent, Room } from './types';

const checkFor = (playerId: string): Command => ({ type: 'actFor', playerId, action: 'CHECK' });
const foldFor = (playerId: string): Command => ({ type: 'actFor', playerId, action: 'FOLD' });

/** Everything a command decides, apart from the log and the undo point (which name the command). */
const state = (room: Room) => ({ players: room.players, gameState: room.gameState, ledger: room.ledger });

/** The events as the player's own move would log them: without the host's mark. */
const unmarked = (events: GameEvent[]) =>
  events.map((e) => {
    if (e.type !== 'playerActed') return e;
    const { byHost: _byHost, ...rest } = e;
    return rest;
  });

describe('actFor: only for a player away from the table (regression, session 33 security audit)', () => {
  // p0 deals, p1 posts $1.00, p2 posts $2.00; p0 calls at 1_000: p1 is to act, phone connected.
  const p1Turn = () => play(started([10_000, 10_000, 10_000]), ['p0', 'CALL']);
  const fold = (online: string[]): Command => ({ type: 'actFor', playerId: 'p1', action: 'FOLD', online });

  it("refuses while the player's phone is connected and their turn is younger than 30 s", () => {
    const room = p1Turn();
    const at = room.lastActivity + ACT_FOR_AFTER_MS - 1;
    expect(refuse(room, 'p0', fold(['p0', 'p1', 'p2']), room.lastActivity)).toBe(
      'P1 is at the table and can act. Nothing was done.',
    );
    expect(refuse(room, 'p0', fold(['p0', 'p1', 'p2']), at)).toBe(
      'P1 is at the table and can act. Nothing was done.',
    );
  });

  it('takes it once the turn has waited 30 s, and at once for a phone not connected', () => {
    const room = p1Turn();
    const folded = (r: Room) => player(r, 'p1').hasFolded;
    expect(folded(run(room, 'p0', fold(['p0', 'p1', 'p2']), room.lastActivity + ACT_FOR_AFTER_MS))).toBe(
      true,
    );
    expect(folded(run(room, 'p0', fold(['p0', 'p2']), room.lastActivity))).toBe(true);
  });

  it("a clock behind the turn's stamp (another process's, up to a second off) does not fold a connected player at once (session 38's review)", () => {
    // The turn was stamped by one process; the host's fold runs on another whose clock is 300 ms behind,
    // 1 ms after the turn came. A negative wait taken as waited (as claimHost takes it) let it through.
    const room = p1Turn();
    expect(refuse(room, 'p0', fold(['p0', 'p1', 'p2']), room.lastActivity + 1 - 300)).toBe(
      'P1 is at the table and can act. Nothing was done.',
    );
    // A phone that is not connected is folded for at once, whatever the clocks say.
    expect(player(run(room, 'p0', fold(['p0', 'p2']), room.lastActivity - 300), 'p1').hasFolded).toBe(true);
  });

  it('a stranger asking to join meanwhile does not start the 30 s again (the fuzz audit of session 35)', () => {
    const room = p1Turn();
    const t0 = room.lastActivity;
    const joined = run(room, 'zed', { type: 'join', name: 'Zed', startingChips: 5_000 }, t0 + 20_000);
    expect(refuse(joined, 'p0', fold(['p0', 'p1', 'p2']), t0 + ACT_FOR_AFTER_MS - 1)).toBe(
      'P1 is at the table and can act. Nothing was done.',
    );
    expect(player(run(joined, 'p0', fold(['p0', 'p1', 'p2']), t0 + ACT_FOR_AFTER_MS), 'p1').hasFolded).toBe(
      true,
    );
  });

  it('sitting out does not make a connected player away: the host sat p1 out, then folded at once (the review)', () => {
    const room = p1Turn();
    const sat = run(room, 'p0', { type: 'sitOut', away: true, playerId: 'p1' }, room.lastActivity + 1);
    expect(refuse(sat, 'p0', fold(['p0', 'p1', 'p2']), sat.lastActivity)).toBe(
      'P1 is at the table and can act. Nothing was done.',
    );
    // Sat out by their own word, the same: their phone is at the table.
    const own = run(room, 'p1', { type: 'sitOut', away: true }, room.lastActivity + 1);
    expect(refuse(own, 'p0', fold(['p0', 'p1', 'p2']), own.lastActivity)).toBe(
      'P1 is at the table and can act. Nothing was done.',
    );
  });
});

describe('actFor: the host checks or folds for the player whose turn it is', () => {
  it('folds for a player facing a bet exactly as their own fold would, marked as the host’s', () => {
    // p0 deals, p1 posts $1.00, p2 posts $2.00; p0 calls, so p1 (away) faces $1.00 more.
    const room = play(started([10_000, 10_000, 10_000]), ['p0', 'CALL']);
    expect(room.gameState.currentTurnPlayerId).toBe('p1');
    const own = runWithEvents(room, 'p1', { type: 'act', action: 'FOLD' }, 5_000);
    const byHost = runWithEvents(room, 'p0', foldFor('p1'), 5_000);
    expect(state(byHost.room!)).toEqual(state(own.room!));
    expect(unmarked(byHost.events)).toEqual(own.events);
    expect(byHost.events[0]).toEqual({
      type: 'playerActed',
      playerId: 'p1',
      name: 'P1',
      action: 'FOLD',
      amount: 0,
      totalBet: 100,
      allIn: false,
      byHost: true,
    });
    expect(byHost.room!.log.at(-1)).toMatchObject({ type: 'playerActed', playerId: 'p1', byHost: true });
    // The hand goes on: the big blind has the option, p1's $1.00 stays in the pot.
    expect(byHost.room!.gameState.currentTurnPlayerId).toBe('p2');
    expect(player(byHost.room!, 'p1')).toMatchObject({ stack: 9_900, hasFolded: true });
  });

  it('checks for a player when a check is free, and the round completes as it would have', () => {
    // Everyone calls the big blind; p2 (the big blind, away) has the option to check.
    const room = play(started([10_000, 10_000, 10_000]), ['p0', 'CALL'], ['p1', 'CALL']);
    expect(room.gameState.currentTurnPlayerId).toBe('p2');
    const own = runWithEvents(room, 'p2', { type: 'act', action: 'CALL' }, 5_000);
    const byHost = runWithEvents(room, 'p0', checkFor('p2'), 5_000);
    expect(state(byHost.room!)).toEqual(state(own.room!));
    expect(unmarked(byHost.events)).toEqual(own.events);
    expect(byHost.events[0]).toMatchObject({ action: 'CALL', amount: 0, totalBet: 200, byHost: true });
    expect(player(byHost.room!, 'p2').stack).toBe(9_800);
    expect(byHost.room!.gameState).toMatchObject({ canAdvanceStage: true, currentTurnPlayerId: null });
  });

  it('a fold for the last opponent wins the pot for the one left, to the cent', () => {
    // Heads-up: p0 (dealer, small blind) raises to $4.00; p1 (big blind, $2.00 in) is away.
    const room = play(started([10_000, 10_000]), ['p0', 'RAISE', 400]);
    const { room: after, events } = runWithEvents(room, 'p0', foldFor('p1'));
    expect(events.map((e) => e.type)).toContain('potAwarded');
    expect(after!.gameState.stage).toBe('SHOWDOWN');
    expect(player(after!, 'p0').stack).toBe(10_200);
    expect(player(after!, 'p1').stack).toBe(9_800);
  });

  it('never puts chips in for anyone: a check with a bet to call is refused, and so is a fold of a free check', () => {
    const facing = play(started([10_000, 10_000, 10_000]), ['p0', 'CALL']);
    expect(refuse(facing, 'p0', checkFor('p1'))).toBe(MSG.actForMovedOn);
    const free = play(facing, ['p1', 'CALL']);
    expect(refuse(free, 'p0', foldFor('p2'))).toBe(MSG.actForMovedOn);
  });

  it('is refused unless it is that player’s turn', () => {
    const room = play(started([10_000, 10_000, 10_000]), ['p0', 'CALL']);
    expect(refuse(room, 'p0', foldFor('p2'))).toBe(MSG.actForMovedOn);
    expect(refuse(room, 'p0', foldFor('nobody'))).toBe(MSG.actForMovedOn);
    expect(refuse(room, 'p0', foldFor('__proto__'))).toBe(MSG.actForMovedOn);
    // The round is complete and waits for the host to deal: nobody's turn.
    const waiting = play(room, ['p1', 'CALL'], ['p2', 'CALL']);
    expect(waiting.gameState.canAdvanceStage).toBe(true);
    expect(refuse(waiting, 'p0', checkFor('p2'))).toBe(MSG.actForMovedOn);
  });

  it('is the host’s alone: the player to act, or anyone else, cannot use it', () => {
    const room = play(started([10_000, 10_000, 10_000]), ['p0', 'CALL']);
    expect(refuse(room, 'p2', foldFor('p1'))).toBe(MSG.onlyHostActFor);
    expect(refuse(room, 'p1', foldFor('p1'))).toBe(MSG.onlyHostActFor);
    expect(refuse(room, 'stranger', foldFor('p1'))).toBe(MSG.onlyHostActFor);
  });

  it('is refused in the lobby, at the showdown and after the end', () => {
    expect(refuse(lobby([10_000, 10_000]), 'p0', foldFor('p1'))).toBe(MSG.noBetting);
    const ended = run(started([10_000, 10_000]), 'p0', { type: 'endGame' });
    expect(ended.status).toBe('ENDED');
    expect(refuse(ended, 'p0', foldFor('p1'))).toBe(MSG.gameEnded);
    const showdown = play(started([10_000, 10_000]), ['p0', 'ALL_IN'], ['p1', 'CALL']);
    expect(showdown.gameState.stage).toBe('SHOWDOWN');
    expect(refuse(showdown, 'p0', foldFor('p1'))).toBe(MSG.actForMovedOn);
  });

  it('leaves an undo point: the host can take back a fold made for the wrong player', () => {
    const room = play(started([10_000, 10_000, 10_000]), ['p0', 'CALL']);
    const folded = run(room, 'p0', foldFor('p1'), 5_000);
    expect(folded.undo).toMatchObject({
      seq: room.nextEventSeq,
      first: { type: 'playerActed', byHost: true },
    });
    const back = run(folded, 'p0', { type: 'undo', seq: room.nextEventSeq }, 6_000);
    expect(state(back)).toEqual(state(room));
    // p1 came back: they act for themselves.
    expect(player(play(back, ['p1', 'CALL']), 'p1').stack).toBe(9_800);
  });
});
