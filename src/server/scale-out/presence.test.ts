import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sleep, type TestClient, type TestServer } from '../test-helpers';
import { appsOnRedis } from './apps-on-redis';
import { redisGate } from './redis-available';

const gate = await redisGate('presence-convergence');

describe.skipIf(gate.skip)('presence across two servers', () => {
  const apps = appsOnRedis('presence-e2e');
  const { start, phone, converge } = apps;

  let a: TestServer;
  let b: TestServer;
  beforeAll(async () => {
    gate.check();
    [a, b] = [await start(), await start()];
  });
  afterAll(() => apps.close(gate.available));

  /** Room with the host on B and the guest on A, both present. */
  async function roomAcross(): Promise<{
    host: TestClient;
    guest: TestClient;
    code: string;
    all: (guestOnline: boolean) => Record<string, boolean>;
  }> {
    const host = await phone(b);
    const guest = await phone(a);
    const created = await host.createRoom('Host', 5000);
    if (!created.ok) throw new Error(created.error);
    const code = created.data.room.roomCode;
    expect((await guest.joinRoom(code, 'Guest', 5000)).ok).toBe(true);
    const all = (guestOnline: boolean) => ({ [host.playerId]: true, [guest.playerId]: guestOnline });
    await converge([host, guest], all(true));
    await sleep(400); // the settle broadcasts of the guest's arrival are done
    return { host, guest, code, all };
  }

  /** From now on, server-side events (presence news) reach B `ms` late; returns the undo. */
  function slowLinkToB(ms: number): () => void {
    const nsp = b.app.io.of('/') as unknown as { _onServerSideEmit(args: unknown[]): void };
    const deliver = nsp._onServerSideEmit;
    nsp._onServerSideEmit = (args) => setTimeout(() => deliver.call(nsp, args), ms);
    return () => {
      nsp._onServerSideEmit = deliver;
    };
  }

  it('phones on both servers see a player come and go within a second, also during a command burst', async () => {
    const host = await phone(b);
    const watcher = await phone(b);
    let guest = await phone(a);
    const created = await host.createRoom('Host', 5000);
    if (!created.ok) throw new Error(created.error);
    const code = created.data.room.roomCode;
    expect((await guest.joinRoom(code, 'Guest', 5000)).ok).toBe(true);
    expect((await watcher.joinRoom(code, 'Watcher', 5000)).ok).toBe(true);
    const ids = { host: host.playerId, guest: guest.playerId, watcher: watcher.playerId };
    const all = (guestOnline: boolean) => ({
      [ids.host]: true,
      [ids.guest]: guestOnline,
      [ids.watcher]: true,
    });
    // Keys in the room's player order (join order).
    await converge([host, watcher, guest], all(true));

    // The guest (on A) goes: the phones on B see it.
    guest.close();
    await converge([host, watcher], all(false));

    // And comes back on A.
    const token = guest.token;
    guest = await phone(a, token);
    expect((await guest.resume(code)).ok).toBe(true);
    await converge([host, watcher, guest], all(true));

    // The host commits on B while the guest leaves (and, every other round, comes back) on A: every
    // phone ends on the right presence within a second of the last change.
    for (let round = 0; round < 6; round++) {
      const burst = Array.from({ length: 10 }, (_, i) =>
        host.must(code, { type: 'updateSettings', smallBlind: 100 + i, bigBlind: 200 + 2 * i }),
      );
      guest.close();
      const backDuringBurst = round % 2 === 0;
      if (backDuringBurst) {
        guest = await phone(a, token);
        expect((await guest.resume(code)).ok).toBe(true);
      }
      await Promise.all(burst);
      await converge(backDuringBurst ? [host, watcher, guest] : [host, watcher], all(backDuringBurst));
      if (!backDuringBurst) {
        guest = await phone(a, token);
        expect((await guest.resume(code)).ok).toBe(true);
        await converge([host, watcher, guest], all(true));
      }
    }
  });

  it('slow news: the other server broadcast the old presence before it knew; the changed one settles it', async () => {
    const { host, guest, code, all } = await roomAcross();
    // B holds "guest online on A" (it answered for the room with it).
    await host.must(code, { type: 'updateSettings', smallBlind: 100, bigBlind: 200 });
    const undo = slowLinkToB(2000);
    try {
      // The guest goes: A tells the phones at once. The host then commits on B, which does not know
      // yet and broadcasts a newer version with the guest still online.
      guest.close();
      await converge([host], all(false));
      const version = await host.must(code, { type: 'updateSettings', smallBlind: 200, bigBlind: 400 });
      await host.waitForVersion(version);
      expect(host.latest?.presence).toEqual(all(true));
      // A's settle broadcast (300 ms after the change: the stored version, A's presence) puts it right,
      // long before B learns.
      await converge([host], all(false));
    } finally {
      undo();
    }
  });

  it('slower news: the other server broadcast the old presence after that settle; it settles itself once it knows', async () => {
    const { host, guest, code, all } = await roomAcross();
    await host.must(code, { type: 'updateSettings', smallBlind: 100, bigBlind: 200 });
    const undo = slowLinkToB(800);
    try {
      guest.close();
      await converge([host], all(false));
      await sleep(450); // A's settle has gone out
      const version = await host.must(code, { type: 'updateSettings', smallBlind: 200, bigBlind: 400 });
      await host.waitForVersion(version);
      expect(host.latest?.presence).toEqual(all(true));
      // B learns at ~800 ms, had answered from what it held since before the change: it settles.
      await converge([host], all(false), 1500);
    } finally {
      undo();
    }
  });
});
