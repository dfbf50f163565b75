/**
 * Crash safety, for both stores: a server process takes a stream of commands from several clients and
 * is SIGKILLed in the middle of it; started again on the same store, it still has every acknowledged
 * command, and the stored room is whole (no command half-applied: chips balance, the version equals
 * the chain of applied commands, and it matches what was broadcast for that version).
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WireCommand } from '../../shared/protocol';
import { createRedisStore } from '../store/redis-store';
import type { RoomStore } from '../store/room-store';
import { APPLIED_COMMANDS_KEPT } from '../store/room-store';
import { createSqliteStore } from '../store/sqlite-store';
import {
  chipTotals,
  killAllServers,
  type ServerProcess,
  sleep,
  startServerProcess,
  TestPlayer,
} from './process-harness';
import { deleteKeysWithPrefix, REDIS_URL, redisGate, uniqueKeyPrefix } from './redis-available';

const gate = await redisGate('crash (redis)');

interface StoreUnderTest {
  env: Record<string, string>;
  open: () => Promise<RoomStore>;
  cleanup: () => Promise<void>;
}

/** The next command a bot sends, from the snapshot it holds; null = nothing to do right now. */
function nextCommand(p: TestPlayer, isHost: boolean): WireCommand | null {
  const { room } = p.latest!;
  const gs = room.gameState;
  if (gs.currentTurnPlayerId === p.id) return { type: 'act', action: Math.random() < 0.15 ? 'FOLD' : 'CALL' };
  // Out of turn, now and then, a player presses a button anyway: refused, and nothing may change.
  if (!isHost) return Math.random() < 0.3 ? { type: 'act', action: 'CALL' } : null;
  if (gs.stage === 'SHOWDOWN') {
    const pot = gs.pots.find((x) => x.amount > 0);
    return pot ? { type: 'declareWinners', winnerIds: pot.eligiblePlayers.slice(0, 1) } : { type: 'newHand' };
  }
  if (gs.canAdvanceStage) return { type: 'advanceStage' };
  // Between the host's own moves: top up a player who folded (rebuys are allowed then; always a write).
  const folded = Object.values(room.players).find((x) => x.hasFolded && !x.isHost);
  return folded ? { type: 'rebuy', playerId: folded.id, amount: 100 } : null;
}

/** Plays as `p` until `stop()` or until its connection dies. */
async function bot(p: TestPlayer, isHost: boolean, stop: () => boolean): Promise<void> {
  while (!stop()) {
    const snap = p.latest!;
    if (snap.room.status !== 'PLAYING') return;
    const command = nextCommand(p, isHost);
    try {
      if (!command) {
        await p.waitForVersion(snap.version + 1, 100).catch(() => undefined);
        continue;
      }
      const res = await p.send(command);
      if (res.ok) await p.waitForVersion(res.data.version, 2000);
      else await sleep(2); // refused (raced with another player's command): look again
    } catch {
      return; // the server is gone
    }
  }
}

/** Runs every player's bot until `until()` holds (checked every few ms) or `maxMs` passed; then `stop`. */
async function stream(
  players: TestPlayer[],
  host: TestPlayer,
  until: () => boolean,
  maxMs: number,
  stop: () => Promise<void> = async () => {},
): Promise<void> {
  let stopped = false;
  const bots = players.map((p) => bot(p, p === host, () => stopped));
  const deadline = Date.now() + maxMs;
  while (!until() && Date.now() < deadline) await sleep(5);
  await stop();
  stopped = true;
  await Promise.all(bots);
}

function crashScenario(kind: string, makeStore: () => StoreUnderTest): void {
  describe(`crash safety: ${kind} store`, () => {
    let target: StoreUnderTest;
    const players: TestPlayer[] = [];
    const secret = randomBytes(24).toString('base64url');

    beforeAll(() => {
      target = makeStore();
    });
    afterAll(async () => {
      for (const p of players) p.disconnect();
      await killAllServers();
      await target?.cleanup();
    });

    it('SIGKILL mid-stream loses no acknowledged command and half-applies nothing', async () => {
      const env = { ...target.env, SESSION_SECRET: secret };
      let server: ServerProcess = await startServerProcess(env);
      const host = new TestPlayer(`${kind}:host`);
      const guests = [1, 2, 3].map((i) => new TestPlayer(`${kind}:guest${i}`));
      players.push(host, ...guests);
      await Promise.all(players.map((p) => p.connect(server.url)));

      const code = (await host.createRoom('Host', 5000)).room.roomCode;
      for (const [i, g] of guests.entries()) await g.joinRoom(code, `Guest ${i + 1}`, 5000);
      for (const g of guests) await host.must({ type: 'approve', playerId: g.id });
      const started = await host.must({ type: 'startGame' });
      await Promise.all(players.map((p) => p.waitForVersion(started)));

      // The stream: every client plays concurrently; the process dies in the middle of it.
      const ackCount = () => players.reduce((n, p) => n + p.acked.length, 0);
      const killAfter = ackCount() + 40 + Math.floor(Math.random() * 60);
      await stream(
        players,
        host,
        () => ackCount() >= killAfter,
        5000,
        () => server.kill('SIGKILL'),
      );
      const acks = players.flatMap((p) => p.acked);
      expect(acks.length, server.output()).toBeGreaterThanOrEqual(40);

      // What survived, read from the store itself while no server runs.
      const maxAcked = Math.max(...acks.map((a) => a.version));
      const store = await target.open();
      let survivedVersion: number;
      let survivedChain: Set<string>;
      try {
        const stored = (await store.load(code))!;
        expect(stored).not.toBeNull();
        survivedVersion = stored.version;
        expect(stored.version).toBeGreaterThanOrEqual(maxAcked);

        // One applied command per version, none missing, ending at the stored version: every version
        // is exactly one whole command (the list keeps the newest APPLIED_COMMANDS_KEPT).
        const versions = stored.appliedCommands.map((c) => c.version);
        expect(versions).toHaveLength(Math.min(stored.version, APPLIED_COMMANDS_KEPT));
        const oldest = stored.version - versions.length + 1;
        expect(versions).toEqual(Array.from({ length: versions.length }, (_, i) => oldest + i));

        // Every acknowledged write is in the chain with the version it was acknowledged with.
        const applied = new Map(stored.appliedCommands.map((c) => [c.commandId, c.version]));
        survivedChain = new Set(applied.keys());
        for (const ack of acks) {
          const version = applied.get(ack.commandId);
          const alwaysWrites = ['rebuy', 'createRoom', 'joinRoom', 'approve', 'startGame'].includes(ack.type);
          if (alwaysWrites && ack.version >= oldest) {
            expect(version, `${ack.type} acked at v${ack.version}`).toBe(ack.version);
          } else if (version !== undefined) {
            expect(version, `${ack.type} acked at v${ack.version}`).toBe(ack.version);
          }
        }
        // The stored room is the one broadcast for that version (when it went out before the kill)...
        for (const p of players) {
          const seen = p.snapshots.get(stored.version);
          if (seen) expect(stored.room, `${p.label} saw v${stored.version}`).toEqual(seen.room);
        }
        // ...and it is whole: chips balance, nobody is negative, the pots hold what players put in.
        const { held, invested } = chipTotals(stored.room);
        expect(held).toBe(invested);
        const everyone = Object.values(stored.room.players);
        for (const pl of everyone) expect(pl.stack).toBeGreaterThanOrEqual(0);
        expect(stored.room.gameState.pots.reduce((s, x) => s + x.amount, 0)).toBe(
          everyone.reduce((s, pl) => s + pl.totalPotContribution, 0),
        );
      } finally {
        await store.close();
      }

      // Restart on the same store: everyone resumes with their token at the surviving version.
      server = await startServerProcess(env);
      for (const p of players) {
        const id = p.id;
        await p.connect(server.url);
        expect(p.id).toBe(id);
        expect((await p.resume()).version).toBe(survivedVersion);
      }

      // Retried acknowledged commands are acknowledged again with their version, not applied twice.
      const retried = players
        .flatMap((p) => p.acked.map((ack) => ({ p, ack })))
        .filter(
          ({ ack }) => ack.command && ack.version <= survivedVersion && survivedChain.has(ack.commandId),
        )
        .slice(-8);
      expect(retried.length).toBeGreaterThan(0);
      for (const { p, ack } of retried) {
        expect(await p.send(ack.command!, ack.commandId)).toEqual({
          ok: true,
          data: { version: ack.version },
        });
      }
      expect((await host.resume()).version).toBe(survivedVersion);

      // And the game goes on from there.
      await stream(players, host, () => host.latest!.version >= survivedVersion + 10, 5000);
      const reached = Math.max(...players.map((p) => p.latest!.version));
      expect(reached).toBeGreaterThanOrEqual(survivedVersion + 10);
      await Promise.all(players.map((p) => p.waitForVersion(reached)));
      await server.kill('SIGTERM');
      await server.exited;
      expect(server.child.exitCode, server.output()).toBe(0);
    }, 55_000);
  });
}

crashScenario('sqlite', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'chipless-crash-sqlite-'));
  return {
    env: { STORE: 'sqlite', DATA_DIR: dataDir },
    open: async () => createSqliteStore({ dataDir }),
    cleanup: async () => rmSync(dataDir, { recursive: true, force: true }),
  };
});

describe.skipIf(gate.skip)('with Redis', () => {
  beforeAll(() => gate.check());
  crashScenario('redis', () => {
    const keyPrefix = uniqueKeyPrefix('crash');
    const dataDir = mkdtempSync(join(tmpdir(), 'chipless-crash-redis-'));
    return {
      env: { STORE: 'redis', REDIS_URL, REDIS_KEY_PREFIX: keyPrefix, DATA_DIR: dataDir },
      open: () => createRedisStore(REDIS_URL, { keyPrefix }),
      cleanup: async () => {
        rmSync(dataDir, { recursive: true, force: true });
        if (gate.available) await deleteKeysWithPrefix(keyPrefix);
      },
    };
  });
});
