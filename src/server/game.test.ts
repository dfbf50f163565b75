/**
 * Integration: a whole poker night of three phones over the real server, from creating the room to
 * the settlements, with exact amounts in cents. Seats by join order: Hana (host), Gus, Ivy; the button
 * starts on Hana. Blinds 100/200, buy-ins 5000.
 *
 * Hand 1: everyone checks it down; Hana wins 600.          Hana 5400, Gus 4800, Ivy 4800.
 * Hand 2: Gus raises to 1000, both fold; Gus wins the blinds.  Hana 5200, Gus 5100, Ivy 4700.
 * Hand 2 has Ivy's slip to All-in taken back by the host (undo); a rebuy typed wrong and hand 3 dealt
 * once too early are taken back too, and Ivy, stepped out, has her fold made by the host (actFor).
 * Between hands 1 and 2 the host rearranges the seats (Hana, Ivy, Gus) and puts them back; Ivy sits
 * out and the host brings her back.
 * Rebuy: Ivy +300.                                            Ivy 5000 (invested 5300).
 * Hand 3: Ivy all-in 5000, Hana calls, Gus folds; Ivy wins 10200. Hana 200, Gus 4900, Ivy 10200.
 * End: Hana -4800, Gus -100, Ivy +4900: Hana owes Ivy 4800, Gus owes Ivy 100.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Command, settle } from '../engine';
import type { RoomSnapshot } from '../shared/protocol';
import { dailyKey, TOTAL_HANDS_DEALT } from './analytics';
import { getJson, okData, sleep, startServer, TestClient, type TestServer } from './test-helpers';

let server: TestServer;
let hana: TestClient;
let gus: TestClient;
let ivy: TestClient;
let code: string;
let version = 0;

const all = () => [hana, gus, ivy];

/** Sends a command that must succeed and waits until every phone holds the version it produced. */
async function send(client: TestClient, command: Command): Promise<RoomSnapshot> {
  const res = await client.command(code, command);
  if (!res.ok) throw new Error(`${command.type} refused: ${res.error}`);
  expect(res.data.version).toBe(version + 1);
  version = res.data.version;
  const snaps = await Promise.all(all().map((c) => c.waitForVersion(version)));
  return snaps[0]!;
}

/** The command must be refused with `error`, and nothing may change. */
async function refused(client: TestClient, command: Command, error: string): Promise<void> {
  expect(await client.command(code, command)).toEqual({ ok: false, error });
  expect((await server.store.load(code))?.version).toBe(version);
}

function state(): RoomSnapshot {
  const snap = hana.latest!;
  expect(snap.version).toBe(version);
  return snap;
}

function stacks(): [number, number, number] {
  const p = state().room.players;
  return [p[hana.playerId]!.stack, p[gus.playerId]!.stack, p[ivy.playerId]!.stack];
}

function turn(): string | null {
  return state().room.gameState.currentTurnPlayerId;
}

/** Each named player in turn checks (CALL with nothing owed), then the host advances, until SHOWDOWN. */
async function checkAround(order: TestClient[]): Promise<void> {
  for (const c of order) {
    expect(turn()).toBe(c.playerId);
    await send(c, { type: 'act', action: 'CALL' });
  }
}

beforeAll(async () => {
  server = await startServer();
  hana = await TestClient.connect(server.url);
  gus = await TestClient.connect(server.url);
  ivy = await TestClient.connect(server.url);
});
afterAll(async () => {
  for (const c of all()) c.close();
  await server.close();
});

describe('a whole game of three phones', () => {
  it('lobby: create, join, approve', async () => {
    const created = okData(await hana.createRoom('Hana', 5000));
    code = created.room.roomCode;
    version = created.version;
    const g = okData(await gus.joinRoom(code, 'Gus', 5000));
    const i = okData(await ivy.joinRoom(code, 'Ivy', 5000));
    version = i.version;
    expect([g.version, i.version]).toEqual([2, 3]);
    await refused(gus, { type: 'approve', playerId: ivy.playerId }, 'Only the host can approve players');
    await send(hana, { type: 'approve', playerId: gus.playerId });
    await send(hana, { type: 'approve', playerId: ivy.playerId });
    expect(state().room.status).toBe('LOBBY');
  });

  it('host-only commands from a non-host are refused with the spec messages', async () => {
    await refused(gus, { type: 'startGame' }, 'Only the host can update game state');
    await refused(ivy, { type: 'remove', playerId: gus.playerId }, 'Only the host can remove players');
    await refused(
      ivy,
      { type: 'updateSettings', smallBlind: 1, bigBlind: 2 },
      'Only the host can update settings',
    );
  });

  it('host commands naming an Object.prototype member are refused and change nothing (regression)', async () => {
    // The engine once took players['constructor'] for a player: approving it saved a player with no
    // name or stack that broke the game. Own keys only now; '__proto__' does not even pass the schema.
    await refused(hana, { type: 'approve', playerId: 'constructor' }, 'Selected player not found');
    await refused(hana, { type: 'remove', playerId: 'toString' }, 'Selected player not found');
    await refused(hana, { type: 'rebuy', playerId: 'valueOf', amount: 100 }, 'Selected player not found');
    await refused(hana, { type: 'approve', playerId: '__proto__' }, 'Invalid request');
    expect(Object.keys(state().room.players)).toHaveLength(3);
  });

  it('start: roles, blinds and the first turn', async () => {
    const snap = await send(hana, { type: 'startGame' });
    const { players, gameState } = snap.room;
    expect(snap.room.status).toBe('PLAYING');
    expect(gameState.handNumber).toBe(1);
    expect(gameState.stage).toBe('PRE_FLOP');
    expect(gameState.dealerId).toBe(hana.playerId);
    expect(players[gus.playerId]?.role).toBe('SMALL_BLIND');
    expect(players[ivy.playerId]?.role).toBe('BIG_BLIND');
    expect(stacks()).toEqual([5000, 4900, 4800]);
    expect(gameState.currentTurnPlayerId).toBe(hana.playerId);
  });

  it('hand 1: acting out of turn changes nothing; checked down; host-only stage and winner commands', async () => {
    await refused(gus, { type: 'act', action: 'FOLD' }, 'It is not your turn');
    await refused(ivy, { type: 'act', action: 'CALL' }, 'It is not your turn');

    await checkAround([hana, gus, ivy]);
    expect(state().room.gameState).toMatchObject({
      canAdvanceStage: true,
      nextStage: 'FLOP',
      nextStageName: 'Flop',
    });
    await refused(gus, { type: 'advanceStage' }, 'Only the host can advance stages');
    for (const stage of ['FLOP', 'TURN', 'RIVER'] as const) {
      const snap = await send(hana, { type: 'advanceStage' });
      expect(snap.room.gameState.stage).toBe(stage);
      await checkAround([gus, ivy, hana]);
    }
    const { gameState } = state().room;
    expect(gameState.stage).toBe('SHOWDOWN');
    expect(gameState.pots.reduce((s, p) => s + p.amount, 0)).toBe(600);
    await refused(
      ivy,
      { type: 'declareWinners', winnerIds: [ivy.playerId] },
      'Only the host can update game state',
    );
    await send(hana, { type: 'declareWinners', winnerIds: [hana.playerId] });
    expect(stacks()).toEqual([5400, 4800, 4800]);
    expect(state().room.gameState.winnerIds).toEqual([hana.playerId]);

    // Between hands the host may put the seats in the table's real order (ours, seating.ts); nobody
    // else can, and the list must be exactly the table. Arranged and put back, so hand 2 deals as before.
    const arrange = (...c: TestClient[]): Command => ({
      type: 'arrangeSeats',
      playerIds: c.map((x) => x.playerId),
    });
    const seatsSeen = (snap: RoomSnapshot) =>
      Object.values(snap.room.players)
        .sort((a, b) => a.joinedAt - b.joinedAt)
        .map((p) => p.name);
    await refused(gus, arrange(gus, hana, ivy), 'Only the host can change the seating');
    await refused(hana, arrange(hana, gus), 'The players at the table have changed. Please try again.');
    await refused(hana, arrange(hana, gus, gus), 'The players at the table have changed. Please try again.');
    await refused(hana, { type: 'arrangeSeats', playerIds: 'Hana' } as unknown as Command, 'Invalid request');
    await send(hana, arrange(hana, ivy, gus));
    for (const c of all()) expect(seatsSeen(c.latest!)).toEqual(['Hana', 'Ivy', 'Gus']);
    expect(state().room.log.at(-1)).toMatchObject({ type: 'seatsArranged', names: ['Hana', 'Ivy', 'Gus'] });
    await send(hana, arrange(hana, gus, ivy));
    for (const c of all()) expect(seatsSeen(c.latest!)).toEqual(['Hana', 'Gus', 'Ivy']);

    // Ivy says she is stepping out (dealt out from the next hand); Gus cannot say it for her, the
    // host can bring her back. Back before the deal, so hand 2 deals as before.
    await refused(
      gus,
      { type: 'sitOut', away: true, playerId: ivy.playerId },
      'Only the host can sit another player out',
    );
    await send(ivy, { type: 'sitOut', away: true });
    for (const c of all()) expect(c.latest!.room.players[ivy.playerId]?.away).toBe(true);
    expect(state().room.log.at(-1)).toMatchObject({
      type: 'sitOutChanged',
      playerId: ivy.playerId,
      away: true,
    });
    await send(hana, { type: 'sitOut', away: false, playerId: ivy.playerId });
    for (const c of all()) expect(c.latest!.room.players[ivy.playerId]?.away).toBeUndefined();
  });

  it('hand 2: a raise, two folds, the raiser takes the blinds', async () => {
    await refused(gus, { type: 'newHand' }, 'Only the host can update game state');
    const snap = await send(hana, { type: 'newHand' });
    expect(snap.room.gameState).toMatchObject({ handNumber: 2, dealerId: gus.playerId, stage: 'PRE_FLOP' });
    expect(turn()).toBe(gus.playerId);
    await send(gus, { type: 'act', action: 'RAISE', amount: 1000 });
    // Ivy's thumb slips to All-in; only the host can take it back, and only while nothing came after.
    const raised = state().room;
    await send(ivy, { type: 'act', action: 'ALL_IN' });
    const slip = state().room.undo!;
    expect(slip).toMatchObject({
      seq: raised.nextEventSeq,
      first: { type: 'playerActed', playerId: ivy.playerId, action: 'ALL_IN' },
    });
    await refused(ivy, { type: 'undo', seq: slip.seq }, 'Only the host can undo');
    await refused(
      hana,
      { type: 'undo', seq: slip.seq - 1 },
      'The table has moved on since. Nothing was undone.',
    );
    const undone = await send(hana, { type: 'undo', seq: slip.seq });
    for (const c of all()) {
      expect(c.latest!.room.players).toEqual(raised.players);
      expect(c.latest!.room.gameState).toEqual(raised.gameState);
    }
    expect(undone.room.log.at(-1)).toMatchObject({ type: 'undone', undoneSeq: slip.seq, first: slip.first });
    expect(turn()).toBe(ivy.playerId);
    await refused(hana, { type: 'undo', seq: slip.seq }, 'There is nothing to undo');
    // Ivy steps out with her phone; the host folds for her. Nobody else may, and the host may not
    // check for her while she faces Gus's raise.
    const foldIvy: Command = { type: 'actFor', playerId: ivy.playerId, action: 'FOLD' };
    await refused(gus, foldIvy, 'Only the host can check or fold for another player');
    await refused(ivy, foldIvy, 'Only the host can check or fold for another player');
    await refused(
      hana,
      { type: 'actFor', playerId: ivy.playerId, action: 'CHECK' },
      'The table has moved on since. Nothing was done.',
    );
    // Her phone still connected at the table, the host may not (take-over.test.ts: after 30 s).
    await refused(hana, foldIvy, 'Ivy is at the table and can act. Nothing was done.');
    // She steps out, her phone with her (its connection drops): the host folds for her. Back, her phone
    // picks the game up again.
    const ivyToken = ivy.token;
    ivy.close();
    await hana.waitFor(() => hana.latest?.presence[ivy.playerId] === false, 5_000, 'Ivy offline');
    const byHost = okData(await hana.command(code, foldIvy));
    expect(byHost.version).toBe(version + 1);
    version = byHost.version;
    ivy = await TestClient.connect(server.url, { token: ivyToken });
    okData(await ivy.resume(code));
    const [folded] = await Promise.all(all().map((c) => c.waitForVersion(version)));
    expect(folded!.room.log.at(-1)).toMatchObject({
      type: 'playerActed',
      playerId: ivy.playerId,
      action: 'FOLD',
      byHost: true,
    });
    const end = await send(hana, { type: 'act', action: 'FOLD' });
    expect(end.room.gameState.stage).toBe('SHOWDOWN');
    expect(end.room.gameState.message).toBe('Gus wins! All other players folded.');
    expect(stacks()).toEqual([5200, 5100, 4700]);
  });

  it('a rebuy (host only)', async () => {
    await refused(
      ivy,
      { type: 'rebuy', playerId: ivy.playerId, amount: 300 },
      'Only the host can update game state',
    );
    // $3.00 typed as $300.00, taken back (and not counted in the analytics).
    await send(hana, { type: 'rebuy', playerId: ivy.playerId, amount: 30_000 });
    expect(stacks()).toEqual([5200, 5100, 34_700]);
    await send(hana, { type: 'undo', seq: state().room.undo!.seq });
    expect(stacks()).toEqual([5200, 5100, 4700]);
    expect(state().room.players[ivy.playerId]?.totalInvestment).toBe(5000);
    await send(hana, { type: 'rebuy', playerId: ivy.playerId, amount: 300 });
    expect(stacks()).toEqual([5200, 5100, 5000]);
    expect(state().room.players[ivy.playerId]?.totalInvestment).toBe(5300);
  });

  it('hand 3: all-in, call, fold, showdown; the host awards the pot', async () => {
    // Dealt, taken back, dealt again: the same hand 3 (and counted once).
    await send(hana, { type: 'newHand' });
    await send(hana, { type: 'undo', seq: state().room.undo!.seq });
    expect(state().room.gameState).toMatchObject({ handNumber: 2, stage: 'SHOWDOWN' });
    await send(hana, { type: 'newHand' });
    expect(state().room.gameState.dealerId).toBe(ivy.playerId);
    expect(turn()).toBe(ivy.playerId);
    await send(ivy, { type: 'act', action: 'ALL_IN' });
    await send(hana, { type: 'act', action: 'CALL' });
    await send(gus, { type: 'act', action: 'FOLD' });
    const { gameState } = state().room;
    expect(gameState.stage).toBe('SHOWDOWN');
    expect(gameState.pots.reduce((s, p) => s + p.amount, 0)).toBe(10_200);
    await send(hana, { type: 'declareWinners', winnerIds: [ivy.playerId] });
    expect(stacks()).toEqual([200, 4900, 10_200]);
    // Hana hands the host role to Gus for a moment (her phone at 2%), and he hands it back. Nobody
    // else can take it, and while Gus holds it Hana cannot end the game.
    await refused(
      gus,
      { type: 'makeHost', playerId: gus.playerId },
      'Only the host can hand over the host role',
    );
    expect((await send(hana, { type: 'makeHost', playerId: gus.playerId })).room.hostId).toBe(gus.playerId);
    expect(state().room.log.at(-1)).toMatchObject({
      type: 'hostChanged',
      playerId: gus.playerId,
      fromId: hana.playerId,
    });
    await refused(hana, { type: 'endGame' }, 'Only the host can update game state');
    await refused(
      ivy,
      { type: 'makeHost', playerId: ivy.playerId },
      'Only the host can hand over the host role',
    );
    // Nor take it over: the table has not waited 3 minutes (the server's clock) on its host.
    await refused(
      ivy,
      { type: 'claimHost' },
      'The host can be replaced only after the table has waited 3 minutes for them',
    );
    expect((await send(gus, { type: 'makeHost', playerId: hana.playerId })).room.hostId).toBe(hana.playerId);
    expect(stacks()).toEqual([200, 4900, 10_200]);
  });

  it('end of the game: final results and settlements', async () => {
    await refused(gus, { type: 'endGame' }, 'Only the host can update game state');
    const snap = await send(hana, { type: 'endGame' });
    const { room } = snap;
    expect(room.status).toBe('ENDED');
    expect(room.gameState.endedBy).toBe(hana.playerId);
    const results = [hana, gus, ivy].map((c) => {
      const p = room.players[c.playerId]!;
      return { name: p.name, finalChips: p.finalChips, netResult: p.netResult };
    });
    expect(results).toEqual([
      { name: 'Hana', finalChips: 200, netResult: -4800 },
      { name: 'Gus', finalChips: 4900, netResult: -100 },
      { name: 'Ivy', finalChips: 10_200, netResult: 4900 },
    ]);
    const settlements = settle(
      Object.values(room.players).map((p) => ({ id: p.id, name: p.name, netResult: p.netResult ?? 0 })),
    );
    expect(settlements.map((s) => [s.from, s.to, s.amount])).toEqual([
      ['Hana', 'Ivy', 4800],
      ['Gus', 'Ivy', 100],
    ]);
    // The game is over: nobody can join any more.
    const late = await TestClient.connect(server.url);
    expect(await late.joinRoom(code, 'Late', 5000)).toEqual({
      ok: false,
      error: 'This game has already ended.',
    });
    late.close();
  });

  it('every phone ends on the same version and the same snapshot, as stored', async () => {
    const finals = await Promise.all(all().map((c) => c.waitForVersion(version)));
    expect(finals.map((s) => s.version)).toEqual([version, version, version]);
    expect(finals[1]).toEqual(finals[0]);
    expect(finals[2]).toEqual(finals[0]);
    expect(finals[0]?.presence).toEqual({
      [hana.playerId]: true,
      [gus.playerId]: true,
      [ivy.playerId]: true,
    });
    const stored = await server.store.load(code);
    expect(stored?.version).toBe(version);
    expect(stored?.room).toEqual(finals[0]?.room);
    // Every phone saw every version from its join on, in order (no gaps, no reordering).
    for (const c of all()) {
      const versions = c.snapshots.map((s) => s.version);
      const distinct = versions.filter((v, i) => i === 0 || v !== versions[i - 1]);
      expect(distinct).toEqual([...distinct].sort((a, b) => a - b));
      expect(distinct.at(-1)).toBe(version);
      expect(new Set(distinct).size).toBe(distinct.at(-1)! - distinct[0]! + 1);
    }
  });

  it('analytics counted the host commands', async () => {
    const today = Date.now();
    const keys = [
      'games_started',
      'players_joined',
      'hands_completed',
      'rebuys_processed',
      'games_ended',
    ].map((k) => dailyKey(today, k));
    let counters: Record<string, number> = {};
    for (let i = 0; i < 20; i++) {
      counters = await server.store.readCounters([...keys, TOTAL_HANDS_DEALT]);
      if (counters[TOTAL_HANDS_DEALT] === 3 && counters[keys[4]!] === 1) break;
      await sleep(25);
    }
    expect(Object.values(counters)).toEqual([1, 2, 3, 1, 1, 3]);
    expect(await getJson(server.url, '/api/stats')).toEqual({ status: 200, body: { totalHandsDealt: 3 } });
  });
});
