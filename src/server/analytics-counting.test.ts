/**
 * Analytics counted with real servers (SPEC section 3): every counter counts exactly once, only for the
 * host's committed commands (retries with the same commandId, refused commands and non-hosts' commands
 * count nothing), on SQLite (event loop and room thread) and on Redis with two processes; atomic under
 * concurrency; kept across a restart; a failing analytics write never fails a command; beacons cannot
 * inflate session minutes without bound.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Command } from '../engine';
import { dailyKey, dayKey, TOTAL_HANDS_DEALT, TOTAL_PAGE_VISITS } from './analytics';
import { loadConfig } from './config';
import { appsOnRedis } from './scale-out/apps-on-redis';
import { redisGate } from './scale-out/redis-available';
import { createStore } from './store';
import type { RoomStore } from './store/room-store';
import { sleep, startServer, TestClient, type TestServer } from './test-helpers';

const COUNTERS = ['games_started', 'players_joined', 'hands_completed', 'rebuys_processed', 'games_ended'];

/** The five daily counters (summed over the UTC days the test spanned) and the all-time hands dealt. */
async function readGameCounters(store: RoomStore, spanned: string[]): Promise<Record<string, number>> {
  const days = [...new Set(spanned)];
  const keys = days.flatMap((d) => COUNTERS.map((c) => `daily_analytics/${d}/${c}`));
  const values = await store.readCounters([...keys, TOTAL_HANDS_DEALT]);
  const out: Record<string, number> = {};
  for (const c of COUNTERS) out[c] = days.reduce((s, d) => s + (values[`daily_analytics/${d}/${c}`] ?? 0), 0);
  out.total_hands_dealt = values[TOTAL_HANDS_DEALT] ?? 0;
  return out;
}

/** Reads until `expected` holds (increments are fire-and-forget), then once more after a pause: nothing late. */
async function expectCounters(
  store: RoomStore,
  days: string[],
  expected: Record<string, number>,
): Promise<void> {
  let got: Record<string, number> = {};
  for (let i = 0; i < 80; i++) {
    got = await readGameCounters(store, days);
    if (JSON.stringify(got) === JSON.stringify(expected)) break;
    await sleep(25);
  }
  await sleep(150);
  expect(await readGameCounters(store, days)).toEqual(expected);
}

/**
 * One whole game with every counted command retried (same commandId, on `retryOn` when given: the other
 * process), refused (wrong state) and tried by a non-host. Exactly: 1 start, 2 approvals, 2 hands dealt,
 * 1 rebuy, 1 end.
 */
async function playGame(
  host: TestClient,
  alice: TestClient,
  bob: TestClient,
  retryHost: TestClient = host,
): Promise<void> {
  const created = await host.createRoom('Host', 5000);
  if (!created.ok) throw new Error(created.error);
  const code = created.data.room.roomCode;
  expect((await alice.joinRoom(code, 'Alice', 5000)).ok).toBe(true);
  expect((await bob.joinRoom(code, 'Bob', 5000)).ok).toBe(true);

  /** The host's command, then its retry (same id): applied once, the retry acknowledged as the same. */
  const twice = async (command: Command) => {
    const id = randomUUID();
    const first = await host.command(code, command, id);
    if (!first.ok) throw new Error(`${command.type}: ${first.error}`);
    const again = await retryHost.command(code, command, id);
    expect(again).toEqual(first);
  };
  const refusedFor = async (client: TestClient, command: Command) => {
    expect((await client.command(code, command)).ok).toBe(false);
  };

  await refusedFor(alice, { type: 'approve', playerId: bob.playerId });
  await twice({ type: 'approve', playerId: alice.playerId });
  await twice({ type: 'approve', playerId: bob.playerId });
  await refusedFor(host, { type: 'approve', playerId: 'nobody' });

  await refusedFor(alice, { type: 'startGame' });
  await twice({ type: 'startGame' });
  await refusedFor(host, { type: 'startGame' });

  // Hand 1: two folds end it (players' commands: nothing counted).
  for (let i = 0; i < 2; i++) {
    const turn = await currentTurn(host, code);
    const who = [host, alice, bob].find((c) => c.playerId === turn)!;
    expect((await who.command(code, { type: 'act', action: 'FOLD' })).ok).toBe(true);
  }
  // At the showdown of hand 1.
  await refusedFor(alice, { type: 'rebuy', playerId: alice.playerId, amount: 300 });
  await twice({ type: 'rebuy', playerId: alice.playerId, amount: 300 });
  await refusedFor(host, { type: 'rebuy', playerId: alice.playerId, amount: -1 });

  await refusedFor(alice, { type: 'newHand' });
  await twice({ type: 'newHand' });

  await refusedFor(alice, { type: 'endGame' });
  await twice({ type: 'endGame' });
  await refusedFor(host, { type: 'rebuy', playerId: alice.playerId, amount: 300 });
  // Leaving an ended game (a non-host) counts nothing.
  expect((await bob.command(code, { type: 'leave' })).ok).toBe(true);
}

async function currentTurn(client: TestClient, code: string): Promise<string | null> {
  const res = await client.resume(code);
  if (!res.ok) throw new Error(res.error);
  return res.data.room.gameState.currentTurnPlayerId;
}

const ONE_GAME = {
  games_started: 1,
  players_joined: 2,
  hands_completed: 2,
  rebuys_processed: 1,
  games_ended: 1,
  total_hands_dealt: 2,
};

const times = (n: number, game: Record<string, number>) =>
  Object.fromEntries(Object.entries(game).map(([k, v]) => [k, v * n]));

for (const roomThread of [false, true]) {
  describe(`SQLite, ${roomThread ? 'room thread' : 'event loop'}: counts once, host only`, () => {
    let server: TestServer;
    let dataDir: string;
    const clients: TestClient[] = [];
    const phone = async (s: TestServer) => {
      const c = await TestClient.connect(s.url);
      clients.push(c);
      return c;
    };
    beforeAll(async () => {
      dataDir = mkdtempSync(join(tmpdir(), 'chipless-analytics-'));
      server = await startServer({ dataDir, roomThread });
    });
    afterAll(async () => {
      for (const c of clients) c.close();
      await server.close();
      rmSync(dataDir, { recursive: true, force: true });
    });

    it('one game: each counter exactly once per counted command', async () => {
      const days = [dayKey(Date.now())];
      await playGame(await phone(server), await phone(server), await phone(server));
      days.push(dayKey(Date.now()));
      await expectCounters(server.store, days, ONE_GAME);
    });

    it('four games at once: atomic counters', async () => {
      const days = [dayKey(Date.now())];
      const tables = await Promise.all(
        Array.from({ length: 4 }, async () => [
          await phone(server),
          await phone(server),
          await phone(server),
        ]),
      );
      await Promise.all(tables.map(([h, a, b]) => playGame(h!, a!, b!)));
      days.push(dayKey(Date.now()));
      await expectCounters(server.store, days, times(5, ONE_GAME));
    });

    it('the numbers survive a restart; the landing reads the all-time hands dealt', async () => {
      const days = [dayKey(Date.now())];
      const beacon = await fetch(`${server.url}/api/analytics/visit`, {
        method: 'POST',
        body: JSON.stringify({ sessionId: 's', newSession: true }),
      });
      expect(beacon.status).toBe(204);
      for (const c of clients.splice(0)) c.close();
      await server.close({ keepData: true });
      server = await startServer({ dataDir, roomThread });
      await expectCounters(server.store, days, times(5, ONE_GAME));
      expect(await (await fetch(`${server.url}/api/stats`)).json()).toEqual({ totalHandsDealt: 10 });
      expect(await server.store.readCounters([TOTAL_PAGE_VISITS, 'all_time_stats/sessions/count'])).toEqual({
        [TOTAL_PAGE_VISITS]: 1,
        'all_time_stats/sessions/count': 1,
      });
    });

    it("a game a player's leaving ends (endedBy auto) is no host's end: games_ended stays as it was", async () => {
      const days = [dayKey(Date.now())];
      const before = await readGameCounters(server.store, days);
      const [host, alice] = [await phone(server), await phone(server)];
      const created = await host.createRoom('Host', 5000);
      if (!created.ok) throw new Error(created.error);
      const code = created.data.room.roomCode;
      expect((await alice.joinRoom(code, 'Alice', 5000)).ok).toBe(true);
      expect((await host.command(code, { type: 'approve', playerId: alice.playerId })).ok).toBe(true);
      expect((await host.command(code, { type: 'startGame' })).ok).toBe(true);
      // Heads-up, Alice leaves mid-hand: one player is left at the table, and the game ends by itself.
      expect((await alice.command(code, { type: 'leave' })).ok).toBe(true);
      const ended = await host.resume(code);
      if (!ended.ok) throw new Error(ended.error);
      expect([ended.data.room.status, ended.data.room.gameState.endedBy]).toEqual(['ENDED', 'auto']);
      days.push(dayKey(Date.now()));
      await expectCounters(server.store, days, {
        ...before,
        games_started: (before.games_started ?? 0) + 1,
        players_joined: (before.players_joined ?? 0) + 1,
        hands_completed: (before.hands_completed ?? 0) + 1,
        total_hands_dealt: (before.total_hands_dealt ?? 0) + 1,
      });
    });
  });
}

const gate = await redisGate('analytics-counting');

describe.skipIf(gate.skip)('Redis, two processes: counts once, host only, atomic', () => {
  const apps = appsOnRedis('analytics-counting');
  let a: TestServer;
  let b: TestServer;
  beforeAll(async () => {
    gate.check();
    [a, b] = [await apps.start(), await apps.start()];
  });
  afterAll(() => apps.close(gate.available));

  it('one game played across both processes, every retry sent to the other one', async () => {
    const days = [dayKey(Date.now())];
    const host = await apps.phone(a);
    const hostOnB = await apps.phone(b, host.token);
    await playGame(host, await apps.phone(b), await apps.phone(a), hostOnB);
    days.push(dayKey(Date.now()));
    await expectCounters(a.store, days, ONE_GAME);
  });

  it('games on both processes at once, and beacons hammered at both: every increment lands', async () => {
    const days = [dayKey(Date.now())];
    const tables = await Promise.all(
      [a, b, a, b].map(async (s) => [await apps.phone(s), await apps.phone(s), await apps.phone(s)]),
    );
    const beacons = [a, b].flatMap((s) =>
      Array.from({ length: 25 }, () =>
        fetch(`${s.url}/api/analytics/visit`, {
          method: 'POST',
          body: JSON.stringify({ sessionId: 's', newSession: true }),
        }).then((r) => r.status),
      ),
    );
    const [statuses] = await Promise.all([
      Promise.all(beacons),
      ...tables.map(([h, x, y]) => playGame(h!, x!, y!)),
    ]);
    expect(statuses.every((s) => s === 204)).toBe(true);
    days.push(dayKey(Date.now()));
    await expectCounters(b.store, days, times(5, ONE_GAME));
    const visits = await a.store.readCounters([TOTAL_PAGE_VISITS, 'all_time_stats/sessions/count']);
    expect(visits).toEqual({ [TOTAL_PAGE_VISITS]: 50, 'all_time_stats/sessions/count': 50 });
  });
});

describe('a failing analytics store', () => {
  let dataDir: string;
  let real: RoomStore;
  let server: TestServer;
  let mode: 'reject' | 'hang' = 'reject';
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'chipless-analytics-'));
    real = await createStore(loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' }));
    // The same store, but every counter write fails (or never answers).
    const failing = new Proxy(real, {
      get(target, prop, receiver) {
        if (prop === 'increment')
          return () => (mode === 'reject' ? Promise.reject(new Error('store down')) : new Promise(() => {}));
        const value: unknown = Reflect.get(target, prop, receiver);
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
    server = await startServer({ store: failing });
  });
  afterAll(async () => {
    await server.close();
    await real.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  for (const m of ['reject', 'hang'] as const) {
    it(`commands still succeed and are acknowledged at once (${m})`, async () => {
      mode = m;
      const phones = [
        await TestClient.connect(server.url),
        await TestClient.connect(server.url),
        await TestClient.connect(server.url),
      ];
      try {
        await playGame(phones[0]!, phones[1]!, phones[2]!);
      } finally {
        for (const p of phones) p.close();
      }
      if (m === 'reject') {
        const res = await fetch(`${server.url}/api/analytics/visit`, {
          method: 'POST',
          body: JSON.stringify({ sessionId: 's', newSession: true }),
        });
        expect(res.status).toBe(204);
      }
      expect(await readGameCounters(real, [dayKey(Date.now())])).toEqual(times(0, ONE_GAME));
    });
  }
});

describe('session minutes from beacons', () => {
  let server: TestServer;
  let clock = Date.UTC(2030, 0, 1, 12);
  beforeAll(async () => {
    server = await startServer({ now: () => clock });
  });
  afterAll(() => server.close());

  const minutesKey = 'all_time_stats/sessions/totalMinutes';
  const total = async () => (await server.store.readCounters([minutesKey]))[minutesKey];
  const report = (minutes: unknown) =>
    fetch(`${server.url}/api/analytics/session`, {
      method: 'POST',
      body: JSON.stringify({ sessionId: 's1', minutes }),
    }).then((r) => r.status);

  it('forged, negative, fractional and huge minutes are refused', async () => {
    for (const minutes of [1e9, -5, 2.5, 1441, '10', null]) expect(await report(minutes)).toBe(400);
    expect(await total()).toBe(0);
  });

  it('one client cannot add minutes without bound: at most 4800 at once, then 10 a minute', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 20; i++) statuses.push(await report(1440));
    expect(statuses.every((s) => s === 204)).toBe(true);
    expect(await total()).toBe(4800);
    clock += 60 * 60_000; // an hour later: 600 more
    for (let i = 0; i < 5; i++) await report(1440);
    expect(await total()).toBe(5400);
    expect(await server.store.readCounters([dailyKey(clock, 'sessions/totalMinutes')])).toEqual({
      [dailyKey(clock, 'sessions/totalMinutes')]: 5400,
    });
  });
});
