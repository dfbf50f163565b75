/**
 * Redis mode, two servers sharing one Redis (each with its own Redis store and adapter, in this
 * process; the processes' own suites are two-processes.test.ts and crash.test.ts): what a player's
 * sockets on the OTHER process see. Presence after a phone moves between processes and goes home,
 * 'gone' once per socket and no snapshot after it, idle cleanup never deleting a room another process
 * watches, one command id through both processes, analytics counted once, the host's undo of a move
 * made on the other process.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dailyKey, TOTAL_HANDS_DEALT } from '../analytics';
import { sleep, type TestServer } from '../test-helpers';
import { appsOnRedis } from './apps-on-redis';
import { redisGate } from './redis-available';

const gate = await redisGate('cross-process');

const ROOM_IDLE_MS = 60_000;

describe.skipIf(gate.skip)('Redis mode: a player on the other process', () => {
  /** One clock for both servers (idle cleanup), moved by the tests. */
  let offset = 0;
  const now = () => Date.now() + offset;
  const apps = appsOnRedis('cross-process', {
    now,
    // The tests run the sweeps themselves.
    env: { ROOM_IDLE_MS: String(ROOM_IDLE_MS), CLEANUP_INTERVAL_MS: String(3_600_000) },
  });
  const { start, phone, converge } = apps;

  let a: TestServer;
  let b: TestServer;
  beforeAll(async () => {
    gate.check();
    [a, b] = [await start(), await start()];
  });
  afterAll(() => apps.close(gate.available));

  /** A room created by a host on `hostOn`. */
  async function hosted(hostOn: TestServer) {
    const host = await phone(hostOn);
    const created = await host.createRoom('Host', 5000);
    if (!created.ok) throw new Error(created.error);
    return { host, code: created.data.room.roomCode };
  }

  /** A room hosted on `hostOn`, a guest joined (and approved) from `guestOn`. */
  async function room(hostOn: TestServer, guestOn: TestServer) {
    const { host, code } = await hosted(hostOn);
    const guest = await phone(guestOn);
    expect((await guest.joinRoom(code, 'Guest', 5000)).ok).toBe(true);
    const approved = await host.must(code, { type: 'approve', playerId: guest.playerId });
    await guest.waitForVersion(approved);
    return { host, guest, code };
  }

  it('a guest moves from B to A and goes home after the game: phones on B see it offline, within a second', async () => {
    const { host, guest: guestOnB, code } = await room(b, b);
    const watcher = await phone(b);
    expect((await watcher.joinRoom(code, 'Watcher', 5000)).ok).toBe(true);
    const presence = (guestOnline: boolean) => ({
      [host.playerId]: true,
      [guestOnB.playerId]: guestOnline,
      [watcher.playerId]: true,
    });
    await host.must(code, { type: 'approve', playerId: watcher.playerId });
    await host.must(code, { type: 'startGame' });
    await converge([host, watcher, guestOnB], presence(true));

    guestOnB.close();
    await converge([host, watcher], presence(false));
    const guest = await phone(a, guestOnB.token);
    expect((await guest.resume(code)).ok).toBe(true);
    await converge([host, watcher, guest], presence(true));

    const ended = await host.must(code, { type: 'endGame' });
    await guest.waitForVersion(ended);
    // "Back to Home": a leave that changes nothing in an ended game.
    const left = await guest.command(code, { type: 'leave' });
    expect(left).toEqual({ ok: true, data: { version: ended } });
    await converge([host, watcher], presence(false));
    // And it stays so (no settle broadcast brings it back).
    await sleep(700);
    expect(host.latest?.presence).toEqual(presence(false));
    expect(watcher.latest?.presence).toEqual(presence(false));
    expect(guest.gone).toEqual([]);
  });

  it("the host on A takes back the guest's raise made on B: both phones hold the room as before it", async () => {
    const { host, guest, code } = await room(a, b);
    const started = await host.waitForVersion(await host.must(code, { type: 'startGame' }));
    // Heads-up: the host deals and posts the small blind, then calls; the guest (big blind) raises on B.
    await host.must(code, { type: 'act', action: 'CALL' });
    const called = await guest.waitForVersion(started.version + 1);
    const raised = await guest.waitForVersion(
      await guest.must(code, { type: 'act', action: 'RAISE', amount: 901 }),
    );
    expect(raised.room.players[guest.playerId]?.stack).toBe(5000 - 901);
    const undone = await host.must(code, { type: 'undo', seq: raised.room.undo!.seq });
    const [onA, onB] = await Promise.all([host.waitForVersion(undone), guest.waitForVersion(undone)]);
    for (const snap of [onA, onB]) {
      expect(snap.room.players).toEqual(called.room.players);
      expect(snap.room.gameState).toEqual(called.room.gameState);
    }
    expect(onB).toEqual(onA);
  });

  it("a guest with a tab on each process is removed: 'gone' once on each, no snapshot of the room after it", async () => {
    const { host, guest: guestOnA, code } = await room(b, a);
    const guestOnB = await phone(b, guestOnA.token);
    expect((await guestOnB.resume(code)).ok).toBe(true);
    const hostOnA = await phone(a, host.token);
    expect((await hostOnA.resume(code)).ok).toBe(true);
    for (const remover of [host, hostOnA]) {
      if (remover === hostOnA) {
        // Join again for the second round.
        for (const g of [guestOnA, guestOnB]) {
          g.gone.length = 0;
          g.snapshots.length = 0;
        }
        expect((await guestOnA.joinRoom(code, 'Guest', 5000)).ok).toBe(true);
        await host.must(code, { type: 'approve', playerId: guestOnA.playerId });
        expect((await guestOnB.resume(code)).ok).toBe(true);
      }
      const removed = await remover.must(code, { type: 'remove', playerId: guestOnA.playerId });
      const next = await remover.must(code, { type: 'updateSettings', smallBlind: 10, bigBlind: 20 });
      await Promise.all([host.waitForVersion(next), hostOnA.waitForVersion(next)]);
      for (const g of [guestOnA, guestOnB]) {
        await g.waitFor(() => g.gone.length > 0, 2000, 'gone');
      }
      await sleep(300);
      for (const g of [guestOnA, guestOnB]) {
        expect(g.gone).toEqual([{ roomCode: code, reason: 'removed' }]);
        expect(g.snapshots.filter((s) => s.version >= removed)).toEqual([]);
      }
    }
  });

  /**
   * B's next store load (of `code`) is answered only once `until` resolves: B's step (a resume) then
   * goes on after A's commit meanwhile, as when A commits during B's round trips to Redis.
   */
  function holdNextLoadOnB(code: string, until: () => Promise<void>): () => void {
    const store = b.store;
    const load = store.load.bind(store);
    store.load = async (roomCode) => {
      const record = await load(roomCode);
      if (roomCode !== code) return record;
      store.load = load;
      await until();
      return record;
    };
    return () => {
      store.load = load;
    };
  }

  it("a guest's second tab resumes on B while the host on A removes them: no snapshot after 'gone', no membership in the ack", async () => {
    const { host, guest, code } = await room(a, a);
    const tab = await phone(b, guest.token);
    const undo = holdNextLoadOnB(code, () => tab.waitFor(() => tab.gone.length > 0, 2000, 'gone'));
    try {
      const resumed = tab.resume(code);
      await sleep(50); // B has read the room (guest still in it) and waits
      const removed = await host.must(code, { type: 'remove', playerId: guest.playerId });
      const ack = await resumed;
      const next = await host.must(code, { type: 'updateSettings', smallBlind: 10, bigBlind: 20 });
      await host.waitForVersion(next);
      await sleep(300);
      expect(tab.gone[0]).toEqual({ roomCode: code, reason: 'removed' });
      expect(tab.snapshots.filter((s) => s.version >= removed)).toEqual([]);
      expect(ack).toEqual({ ok: false, error: 'You are not in this room' });
    } finally {
      undo();
    }
  });

  it('a player resumes on B while the host on A deletes the room: told it is gone, not handed the room', async () => {
    const { host, code } = await hosted(a);
    const tab = await phone(b, host.token);
    const undo = holdNextLoadOnB(code, () => host.waitFor(() => host.gone.length > 0, 2000, 'deleted'));
    try {
      const resumed = tab.resume(code);
      await sleep(50);
      await host.must(code, { type: 'leave' });
      const ack = await resumed;
      expect(ack).toEqual({ ok: false, error: 'Room not found' });
      await tab.waitFor(() => tab.gone.length > 0, 2000, 'gone');
      expect(tab.gone).toEqual([{ roomCode: code, reason: 'not_found' }]);
    } finally {
      undo();
    }
  });

  it("the host with a tab on each process leaves the lobby: every socket hears 'deleted' once", async () => {
    const { host, code } = await hosted(a);
    const hostOnB = await phone(b, host.token);
    expect((await hostOnB.resume(code)).ok).toBe(true);
    const guest = await phone(b);
    expect((await guest.joinRoom(code, 'Guest', 5000)).ok).toBe(true);
    const guestOnA = await phone(a, guest.token);
    expect((await guestOnA.resume(code)).ok).toBe(true);
    await hostOnB.must(code, { type: 'leave' });
    const all = [host, hostOnB, guest, guestOnA];
    for (const p of all) await p.waitFor(() => p.gone.length > 0, 2000, 'gone');
    await sleep(300);
    for (const p of all) expect(p.gone).toEqual([{ roomCode: code, reason: 'deleted' }]);
    expect(await a.store.load(code)).toBeNull();
  });

  it('idle cleanup on A does not delete a room watched only by a phone on B', async () => {
    const { host, code } = await hosted(a);
    // Everyone's phone sleeps past the idle time; the host comes back, on B, before any sweep.
    host.close();
    await sleep(100);
    offset += ROOM_IDLE_MS + 1000;
    const back = await phone(b, host.token);
    expect((await back.resume(code)).ok).toBe(true);
    await a.app.cleanup.runOnce();
    expect(await a.store.load(code)).not.toBeNull();
    await sleep(100);
    expect(back.gone).toEqual([]);
    // B's sweep touches it; A's next one still leaves it.
    expect((await b.app.cleanup.runOnce()).touched).toBeGreaterThanOrEqual(1);
    await a.app.cleanup.runOnce();
    expect(await a.store.load(code)).not.toBeNull();
  });

  it('idle cleanup: a room nobody watches is deleted once, by both sweeps at once', async () => {
    const { host, code } = await hosted(b);
    host.close();
    await sleep(100);
    offset += ROOM_IDLE_MS + 1000;
    await Promise.all([a.app.cleanup.runOnce(), b.app.cleanup.runOnce()]);
    expect(await a.store.load(code)).toBeNull();
  });

  it('one command id through both processes at once, many times: applied once, both answered with its version, analytics once', async () => {
    const { host, guest, code } = await room(a, b);
    const hostOnB = await phone(b, host.token);
    expect((await hostOnB.resume(code)).ok).toBe(true);
    const keys = [dailyKey(now(), 'rebuys_processed'), TOTAL_HANDS_DEALT];
    const before = await a.store.readCounters(keys);
    const start = (await a.store.load(code))!.version;
    for (let i = 0; i < 20; i++) {
      const id = randomUUID();
      const rebuy = { type: 'rebuy', playerId: guest.playerId, amount: 100 } as const;
      const [viaA, viaB] = await Promise.all([
        host.command(code, rebuy, id),
        hostOnB.command(code, rebuy, id),
      ]);
      expect(viaA).toEqual({ ok: true, data: { version: start + i + 1 } });
      expect(viaB).toEqual(viaA);
    }
    const stored = (await a.store.load(code))!;
    expect(stored.version).toBe(start + 20);
    expect(stored.room.players[guest.playerId]!.totalInvestment).toBe(5000 + 20 * 100);
    // Analytics are fire-and-forget: poll.
    const deadline = Date.now() + 2000;
    for (;;) {
      const after = await a.store.readCounters(keys);
      const delta = (after[keys[0]!] ?? 0) - (before[keys[0]!] ?? 0);
      if (delta >= 20 || Date.now() > deadline) {
        expect(delta).toBe(20);
        break;
      }
      await sleep(20);
    }
    await sleep(200);
    const after = await a.store.readCounters(keys);
    expect((after[keys[0]!] ?? 0) - (before[keys[0]!] ?? 0)).toBe(20);
  });
});
