import { describe, expect, it } from 'vitest';
import { ACT_FOR_AFTER_MS, CLOCK_SKEW_MS, HOST_AWAY_MS } from './host';
import { actForTooSoon, hostTakenBy, MSG } from './messages';
import { tableActivity } from './room';
import { lobby, play, player, refuse, run, runWithEvents, started } from './test-helpers';
import type { Command, Room } from './types';

const makeHost = (playerId: string): Command => ({ type: 'makeHost', playerId });
const hosts = (room: Room) =>
  Object.values(room.players)
    .filter((p) => p.isHost)
    .map((p) => p.id);

describe('makeHost: the host hands the host role to a player at the table', () => {
  it('mid-hand: the role moves, nothing else in the hand or the chips changes, and it is logged', () => {
    const room = play(started([10_000, 10_000, 10_000]), ['p0', 'CALL']);
    const { room: out, events } = runWithEvents(room, 'p0', makeHost('p2'), 5_000);
    expect(out!.hostId).toBe('p2');
    expect(hosts(out!)).toEqual(['p2']);
    expect(events).toEqual([
      { type: 'hostChanged', playerId: 'p2', name: 'P2', fromId: 'p0', fromName: 'P0' },
    ]);
    expect(out!.log.at(-1)).toMatchObject({ type: 'hostChanged', playerId: 'p2', fromId: 'p0', at: 5_000 });
    expect(out!.gameState).toEqual(room.gameState);
    expect(out!.ledger).toEqual(room.ledger);
    for (const id of ['p0', 'p1', 'p2'])
      expect({ ...out!.players[id], isHost: false }).toEqual({ ...room.players[id], isHost: false });
    expect(out!.status).toBe('PLAYING');
  });

  it('the new host has the host powers and the old one has not; the old host then leaves without ending the game', () => {
    const room = run(play(started([10_000, 10_000, 10_000]), ['p0', 'CALL']), 'p0', makeHost('p2'));
    expect(refuse(room, 'p0', { type: 'rebuy', playerId: 'p0', amount: 500 })).toBe(MSG.onlyHostGameState);
    expect(refuse(room, 'p0', makeHost('p0'))).toBe(MSG.onlyHostMakeHost);
    expect(refuse(room, 'p0', { type: 'remove', playerId: 'p1' })).toBe(MSG.onlyHostRemove);
    const left = run(room, 'p0', { type: 'leave' });
    expect(left.status).toBe('PLAYING');
    expect(left.players.p0).toBeUndefined();
    expect(left.ledger.map((e) => [e.id, e.finalChips, e.totalInvestment])).toEqual([['p0', 9_800, 10_000]]);
    // p1 (the small blind, to act) is away: the new host folds for him, and the hand is over.
    const next = run(left, 'p2', { type: 'actFor', playerId: 'p1', action: 'FOLD' });
    expect(next.gameState.stage).toBe('SHOWDOWN');
    // And the new host leaving ends the game, as the spec has it for the host.
    expect(run(next, 'p2', { type: 'leave' }).status).toBe('ENDED');
  });

  it('in the lobby too: the new host starts the game, and the old one leaving no longer deletes the room', () => {
    const room = run(lobby([10_000, 10_000, 10_000]), 'p0', makeHost('p1'));
    const { room: left } = runWithEvents(room, 'p0', { type: 'leave' });
    expect(left).not.toBeNull();
    expect(Object.keys(left!.players).sort()).toEqual(['p1', 'p2']);
    expect(run(left!, 'p1', { type: 'startGame' }).status).toBe('PLAYING');
  });

  it('refuses anyone but the host, a player not at the table, a stranger waiting, the host themself, and an ended game', () => {
    const room = started([10_000, 10_000, 10_000]);
    expect(refuse(room, 'p1', makeHost('p1'))).toBe(MSG.onlyHostMakeHost);
    expect(refuse(room, 'p1', makeHost('p2'))).toBe(MSG.onlyHostMakeHost);
    expect(refuse(room, 'nobody', makeHost('p1'))).toBe(MSG.onlyHostMakeHost);
    expect(refuse(room, 'p0', makeHost('p9'))).toBe(MSG.playerNotFound);
    expect(refuse(room, 'p0', makeHost('constructor'))).toBe(MSG.playerNotFound);
    expect(refuse(room, 'p0', makeHost('p0'))).toBe(MSG.alreadyHost);
    const waiting = run(room, 'zed', { type: 'join', name: 'Zed', startingChips: 5_000 });
    expect(refuse(waiting, 'p0', makeHost('zed'))).toBe(MSG.makeHostNotSeated);
    const ended = run(room, 'p0', { type: 'endGame' });
    expect(refuse(ended, 'p0', makeHost('p1'))).toBe(MSG.gameEnded);
  });

  it('clears the undo point: the new host cannot take back the old host’s last move', () => {
    const room = play(started([10_000, 10_000, 10_000]), ['p0', 'CALL']);
    expect(room.undo).not.toBeNull();
    const handed = run(room, 'p0', makeHost('p1'));
    expect(handed.undo).toBeNull();
    const lastSeq = handed.log.at(-1)!.seq;
    expect(refuse(handed, 'p1', { type: 'undo', seq: lastSeq })).toBe(MSG.nothingToUndo);
  });
});

describe('claimHost: a player at the table takes over when the table has waited 3 minutes', () => {
  // Hand 1 checked to the flop's end: the host (p0) must deal the turn; the last command at 1_000.
  const stuck = () => {
    let room = play(started([10_000, 10_000, 10_000]), ['p0', 'CALL'], ['p1', 'CALL'], ['p2', 'CALL']);
    room = run(room, 'p0', { type: 'advanceStage' });
    return play(room, ['p1', 'CALL'], ['p2', 'CALL'], ['p0', 'CALL']);
  };

  it('after exactly 3 minutes without a command: the role moves, marked as taken over, nothing else changes', () => {
    const room = stuck();
    expect(room.gameState.canAdvanceStage).toBe(true);
    const at = room.lastActivity + HOST_AWAY_MS;
    const { room: out, events } = runWithEvents(room, 'p2', { type: 'claimHost' }, at);
    expect(events).toEqual([
      { type: 'hostChanged', playerId: 'p2', name: 'P2', fromId: 'p0', fromName: 'P0', claimed: true },
    ]);
    expect(out!.hostId).toBe('p2');
    expect(hosts(out!)).toEqual(['p2']);
    expect(out!.gameState).toEqual(room.gameState);
    expect(out!.undo).toBeNull();
    // The new host deals; the old host is a player, and can no longer.
    expect(refuse(out!, 'p0', { type: 'advanceStage' })).toBe(MSG.onlyHostAdvance);
    expect(run(out!, 'p2', { type: 'advanceStage' }, at + 1).gameState.stage).toBe('TURN');
  });

  it("refuses while the server sees the host's phone connected, however long the table waited (regression, session 33 security audit)", () => {
    const room = stuck();
    const at = room.lastActivity + 10 * HOST_AWAY_MS;
    expect(refuse(room, 'p2', { type: 'claimHost', online: ['p0', 'p1', 'p2'] }, at)).toBe(MSG.hostStillHere);
    // The host's phone away (the others' connected): the role moves.
    expect(run(room, 'p2', { type: 'claimHost', online: ['p1', 'p2'] }, at).hostId).toBe('p2');
  });

  it('refuses a millisecond early, the host, a stranger waiting, someone not in the room, the lobby and an ended game', () => {
    const room = run(stuck(), 'zed', { type: 'join', name: 'Zed', startingChips: 5_000 }, 2_000);
    const at = tableActivity(room) + HOST_AWAY_MS;
    expect(refuse(room, 'p1', { type: 'claimHost' }, at - 1)).toBe(MSG.hostNotAway);
    expect(refuse(room, 'p0', { type: 'claimHost' }, at)).toBe(MSG.alreadyHost);
    expect(refuse(room, 'zed', { type: 'claimHost' }, at)).toBe(MSG.notInGame);
    expect(refuse(room, 'nobody', { type: 'claimHost' }, at)).toBe(MSG.notInGame);
    const waiting = lobby([10_000, 10_000]);
    expect(refuse(waiting, 'p1', { type: 'claimHost' }, waiting.lastActivity + HOST_AWAY_MS)).toBe(
      MSG.claimHostNotPlaying,
    );
    const ended = run(room, 'p0', { type: 'endGame' }, 3_000);
    expect(refuse(ended, 'p1', { type: 'claimHost' }, 3_000 + HOST_AWAY_MS)).toBe(MSG.gameEnded);
  });

  it('two players claiming at once: the second is told who took over, not that the host was here (regression, session 36 race audit)', () => {
    const room = stuck();
    const at = room.lastActivity + HOST_AWAY_MS;
    const taken = run(room, 'p1', { type: 'claimHost' }, at);
    expect(taken.hostId).toBe('p1');
    expect(refuse(taken, 'p2', { type: 'claimHost' }, at + 5)).toBe(hostTakenBy('P1'));
    // A stranger asking to join in between is not the table: still told who took over (review).
    const asked = run(taken, 'zed', { type: 'join', name: 'Zed', startingChips: 5_000 }, at + 3);
    expect(refuse(asked, 'p2', { type: 'claimHost' }, at + 5)).toBe(hostTakenBy('P1'));
    // Once the new host has done anything, a late claim is refused as any other: the host is here.
    const dealt = run(taken, 'p1', { type: 'advanceStage' }, at + 10);
    expect(refuse(dealt, 'p2', { type: 'claimHost' }, at + 20)).toBe(MSG.hostNotAway);
    // A new host who claimed and then went away too can be taken over from, 3 minutes on.
    expect(run(taken, 'p2', { type: 'claimHost' }, at + HOST_AWAY_MS).hostId).toBe('p2');
  });

  it("the server's clock stepped back since the last command: not taken for a host just seen (clock audit, session 37)", () => {
    const room = stuck();
    const back = room.lastActivity - 600_000; // NTP stepped the clock back 10 minutes
    expect(run(room, 'p1', { type: 'claimHost', online: ['p1', 'p2'] }, back).hostId).toBe('p1');
    // The host's phone still there: refused, as at any time.
    expect(refuse(room, 'p1', { type: 'claimHost', online: ['p0', 'p1', 'p2'] }, back)).toBe(
      MSG.hostStillHere,
    );
  });

  it("a clock a moment behind the last move's stamp (another process's, up to a second off) is a table just active (session 38's review)", () => {
    const room = stuck();
    // 1 ms after the last move, judged by a clock 300 ms behind the one that stamped it.
    expect(refuse(room, 'p1', { type: 'claimHost', online: ['p1', 'p2'] }, room.lastActivity + 1 - 300)).toBe(
      MSG.hostNotAway,
    );
    // At the tolerance's edge: still the table's moment; past it, a clock stepped back.
    expect(
      refuse(room, 'p1', { type: 'claimHost', online: ['p1', 'p2'] }, room.lastActivity - CLOCK_SKEW_MS),
    ).toBe(MSG.hostNotAway);
    expect(
      run(room, 'p1', { type: 'claimHost', online: ['p1', 'p2'] }, room.lastActivity - CLOCK_SKEW_MS - 1)
        .hostId,
    ).toBe('p1');
  });

  it('a stored room whose host is missing from its players (never made by the engine) still gets its new host', () => {
    const room = stuck();
    const { p0: _gone, ...players } = room.players;
    const broken = { ...room, players };
    const out = run(broken, 'p1', { type: 'claimHost' }, room.lastActivity + HOST_AWAY_MS);
    expect(out.hostId).toBe('p1');
    expect(hosts(out)).toEqual(['p1']);
  });

  it('any command at the table starts the wait again; a stranger asking to join and leaving again does not', () => {
    // A stranger with the room code joining and leaving every minute kept the host's "away" from ever
    // coming (the fuzz audit of session 35): their commands change the room, not the table.
    const room = stuck();
    const t0 = room.lastActivity;
    let later = run(room, 'zed', { type: 'join', name: 'Zed', startingChips: 5_000 }, t0 + 60_000);
    later = run(later, 'zed', { type: 'leave' }, t0 + 120_000);
    later = run(later, 'zed', { type: 'join', name: 'Zed', startingChips: 5_000 }, t0 + 170_000);
    expect(later.lastActivity).toBe(t0 + 170_000);
    expect(tableActivity(later)).toBe(t0);
    expect(refuse(later, 'p1', { type: 'claimHost' }, t0 + HOST_AWAY_MS - 1)).toBe(MSG.hostNotAway);
    expect(run(later, 'p1', { type: 'claimHost' }, t0 + HOST_AWAY_MS).hostId).toBe('p1');
    // The host denying them is the host at the table: the wait starts again.
    const denied = run(later, 'p0', { type: 'remove', playerId: 'zed' }, t0 + 175_000);
    expect(tableActivity(denied)).toBe(t0 + 175_000);
    expect(refuse(denied, 'p1', { type: 'claimHost' }, t0 + HOST_AWAY_MS)).toBe(MSG.hostNotAway);
    // A room stored before tableActivity: its lastActivity stands in.
    const { tableActivity: _none, ...stored } = room;
    expect(refuse(stored, 'p1', { type: 'claimHost' }, t0 + HOST_AWAY_MS - 1)).toBe(MSG.hostNotAway);
    expect(run(stored, 'p1', { type: 'claimHost' }, t0 + HOST_AWAY_MS).hostId).toBe('p1');
  });
});

describe('host timing constants, pinned (mutation testing)', () => {
  // The existing tests count from HOST_AWAY_MS and ACT_FOR_AFTER_MS, so they hold for any value.
  it('a take-over waits exactly 3 minutes: refused at 179 999 ms and at 0 ms, allowed at 180 000 ms', () => {
    const room = play(started([10_000, 10_000, 10_000]), ['p0', 'CALL'], ['p1', 'CALL'], ['p2', 'CALL']);
    const at = tableActivity(room);
    expect(HOST_AWAY_MS).toBe(180_000);
    expect(refuse(room, 'p1', { type: 'claimHost' }, at)).toBe(MSG.hostNotAway);
    expect(refuse(room, 'p1', { type: 'claimHost' }, at + 179_999)).toBe(MSG.hostNotAway);
    expect(run(room, 'p1', { type: 'claimHost' }, at + 180_000).hostId).toBe('p1');
  });

  it('the host may act for a connected player after exactly 30 seconds', () => {
    const room = started([10_000, 10_000, 10_000]); // p0 to act, facing the big blind
    const at = tableActivity(room);
    const foldFor = { type: 'actFor', playerId: 'p0', action: 'FOLD', online: ['p0', 'p1', 'p2'] } as const;
    expect(ACT_FOR_AFTER_MS).toBe(30_000);
    const room1 = run(room, 'p0', { type: 'makeHost', playerId: 'p1' }, at);
    expect(refuse(room1, 'p1', foldFor, at + 29_999)).toBe(actForTooSoon('P0'));
    expect(player(run(room1, 'p1', foldFor, at + 30_000), 'p0').hasFolded).toBe(true);
  });
});
