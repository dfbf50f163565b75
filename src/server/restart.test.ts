/**
 * Integration: a server stopped and started again on the same DATA_DIR has every room exactly as
 * acknowledged (the host's undo point too); tokens still work; an abrupt stop loses no acknowledged command.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MSG } from '../engine';
import type { RoomSnapshot, SeatClaim, SeatLinkResponse } from '../shared/protocol';
import { emitWithAck, okData, startServer, TestClient, type TestServer } from './test-helpers';

const dirs: string[] = [];
const servers: TestServer[] = [];
const clients: TestClient[] = [];

function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'chipless-restart-'));
  dirs.push(d);
  return d;
}
async function start(dataDir: string): Promise<TestServer> {
  const s = await startServer({ dataDir });
  servers.push(s);
  return s;
}
async function connect(url: string, token?: string): Promise<TestClient> {
  const c = await TestClient.connect(url, token ? { token } : {});
  clients.push(c);
  return c;
}

afterEach(async () => {
  for (const c of clients.splice(0)) c.close();
  for (const s of servers.splice(0)) await s.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('restart on the same data dir', () => {
  it('every room is exactly as last acknowledged; players resume with their old tokens', async () => {
    const dataDir = tempDir();
    const first = await start(dataDir);
    const acknowledged = new Map<string, RoomSnapshot>();
    const hosts: TestClient[] = [];
    for (let r = 0; r < 3; r++) {
      const host = await connect(first.url);
      const code = okData(await host.createRoom(`Host${r}`, 5000 + r)).room.roomCode;
      const guest = await connect(first.url);
      okData(await guest.joinRoom(code, `Guest${r}`, 3000));
      await host.must(code, { type: 'approve', playerId: guest.playerId });
      const v = await host.must(code, {
        type: 'updateSettings',
        smallBlind: 50 * (r + 1),
        bigBlind: 100 * (r + 1),
      });
      acknowledged.set(code, await host.waitForVersion(v));
      hosts.push(host);
    }
    for (const c of clients.splice(0)) c.close();
    await first.close({ keepData: true });
    servers.splice(servers.indexOf(first), 1);

    const second = await start(dataDir);
    for (const [code, snap] of acknowledged) {
      const stored = await second.store.load(code);
      expect(stored?.version).toBe(snap.version);
      expect(stored?.room).toEqual(snap.room);
    }
    // The host of the first room comes back with the same token and sees the same snapshot.
    const [code0, snap0] = [...acknowledged][0]!;
    const back = await connect(second.url, hosts[0]!.token);
    expect(back.playerId).toBe(hosts[0]!.playerId);
    const resumed = okData(await back.resume(code0));
    expect(resumed.version).toBe(snap0.version);
    expect(resumed.room).toEqual(snap0.room);
    // And play goes on from there.
    expect(await back.must(code0, { type: 'updateSettings', smallBlind: 1, bigBlind: 2 })).toBe(
      snap0.version + 1,
    );
  });

  it("the host's undo survives a restart: the raise made before it is taken back after it", async () => {
    const dataDir = tempDir();
    const first = await start(dataDir);
    const host = await connect(first.url);
    const code = okData(await host.createRoom('Hana', 5000)).room.roomCode;
    const guest = await connect(first.url);
    okData(await guest.joinRoom(code, 'Gus', 5000));
    await host.must(code, { type: 'approve', playerId: guest.playerId });
    const started = await host.waitForVersion(await host.must(code, { type: 'startGame' }));
    // Heads-up: Hana is the dealer and small blind, first to act; she raises to $7.77.
    expect(started.room.gameState.currentTurnPlayerId).toBe(host.playerId);
    const raised = await host.waitForVersion(
      await host.must(code, { type: 'act', action: 'RAISE', amount: 777 }),
    );
    expect(raised.room.players[host.playerId]?.stack).toBe(5000 - 777);
    const seq = raised.room.undo!.seq;
    for (const c of clients.splice(0)) c.close();
    await first.close({ keepData: true });
    servers.splice(servers.indexOf(first), 1);

    const second = await start(dataDir);
    const back = await connect(second.url, host.token);
    expect(okData(await back.resume(code)).room.undo?.seq).toBe(seq);
    const undone = await back.waitForVersion(await back.must(code, { type: 'undo', seq }));
    expect(undone.room.players).toEqual(started.room.players);
    expect(undone.room.gameState).toEqual(started.room.gameState);
    expect(undone.room.undo).toBeNull();
  });

  it("a seat link's claim survives a restart: the phone asking again gets its credentials, an earlier link's phone stays out", async () => {
    const dataDir = tempDir();
    const first = await start(dataDir);
    const host = await connect(first.url);
    const code = okData(await host.createRoom('Hana', 5000)).room.roomCode;
    const ben = await connect(first.url);
    okData(await ben.joinRoom(code, 'Ben', 5000));
    await host.must(code, { type: 'approve', playerId: ben.playerId });
    await host.must(code, { type: 'startGame' });
    const benId = ben.playerId;
    ben.close();
    await host.waitFor(() => host.latest?.presence[benId] === false, 5000, 'Ben away');
    const link = async () =>
      okData(
        await emitWithAck<SeatLinkResponse>(host.socket, 'seatLink', {
          commandId: crypto.randomUUID(),
          roomCode: code,
          playerId: benId,
        }),
      ).seat;
    const claim = (c: TestClient, seat: string) => emitWithAck<SeatClaim>(c.socket, 'claimSeat', { seat });
    // A photo's phone took the seat by the first link; then Ben's new phone by a newer one, its answer
    // lost in the restart.
    const photo = okData(await claim(await connect(first.url), await link())).credentials;
    const seat = await link();
    const bensNew = await connect(first.url);
    const claimed = okData(await claim(bensNew, seat));
    for (const c of clients.splice(0)) c.close();
    await first.close({ keepData: true });
    servers.splice(servers.indexOf(first), 1);

    const second = await start(dataDir);
    const again = await connect(second.url, bensNew.token);
    expect(okData(await claim(again, seat))).toEqual(claimed);
    expect(await claim(await connect(second.url), seat)).toEqual({ ok: false, error: MSG.seatLinkUsed });
    expect(await (await connect(second.url, photo.token)).resume(code)).toEqual({
      ok: false,
      error: MSG.seatHeldElsewhere,
    });
    okData(await (await connect(second.url, claimed.credentials.token)).resume(code));
  });

  it('an abrupt stop in the middle of a command stream loses no acknowledged command', async () => {
    const dataDir = tempDir();
    const first = await start(dataDir);
    const host = await connect(first.url);
    const code = okData(await host.createRoom('Hana', 5000)).room.roomCode;
    const acked: number[] = [];
    let failures = 0;
    const stream = (async () => {
      for (let i = 1; i <= 400; i++) {
        try {
          const res = await host.command(code, { type: 'updateSettings', smallBlind: i, bigBlind: 1000 });
          if (!res.ok) break;
          acked.push(res.data.version);
        } catch {
          failures++;
          break;
        }
      }
    })();
    while (acked.length < 20) await new Promise((r) => setTimeout(r, 5));
    await first.stopAbruptly();
    await stream;
    servers.splice(servers.indexOf(first), 1);

    const second = await start(dataDir);
    const stored = await second.store.load(code);
    const lastAcked = Math.max(...acked);
    expect(stored!.version).toBeGreaterThanOrEqual(lastAcked);
    // Versions are gap-free and each setting matches its version (version v carries smallBlind v-1).
    expect(stored!.room.settings.smallBlind).toBe(stored!.version - 1);
    expect(failures).toBeLessThanOrEqual(1);
  });
});
