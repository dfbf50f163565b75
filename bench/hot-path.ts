/**
 * The server's per-command hot path without sockets (`npx tsx bench/hot-path.ts [--rooms N]
 * [--commands N] [--store sqlite|redis]`): the real RoomService over the real store, with a broadcaster
 * that encodes each snapshot with the server's Socket.IO encoder (once per broadcast). CPU includes the
 * SQLite store's writer thread (its batches); `store.save` is the main thread's part. Rooms of 6 play with the
 * load bots' strategy, one command at a time, round robin. Prints the CPU time per command split into
 * store load, store save, snapshot serialisation and the rest (engine, service, analytics).
 *
 * Time spent per command here is what the server adds on top of the floor's socket work; the load
 * benchmark (load.ts) measures the whole thing end to end.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { PacketType } from 'socket.io-parser';
import { createLogger } from '../src/server/logger';
import { type RoomBroadcaster, RoomService } from '../src/server/room-service';
import { deleteKeysWithPrefix } from '../src/server/scale-out/redis-available';
import { snapshotParser } from '../src/server/snapshot-encoder';
import { createRedisStore } from '../src/server/store/redis-store';
import type { RoomStore, StoredRoom } from '../src/server/store/room-store';
import { createSqliteStore } from '../src/server/store/sqlite-store';
import { logDelta } from '../src/shared/log-delta';
import { seededRandom, summarize } from './stats';
import { BOT_CHIPS, nextMove } from './strategy';

const { values: args } = parseArgs({
  options: {
    rooms: { type: 'string', default: '1000' },
    commands: { type: 'string', default: '30000' },
    store: { type: 'string', default: 'sqlite' },
  },
});
const ROOMS = Number(args.rooms);
const COMMANDS = Number(args.commands);

/** Accumulated time (ms) per phase. */
const spent = { load: 0, save: 0, serialise: 0 };
let measuring = false;

/** Wraps a store so load and save are timed. */
function timed(store: RoomStore): RoomStore {
  return {
    ...store,
    load: async (code) => {
      const t = performance.now();
      const r = await store.load(code);
      if (measuring) spent.load += performance.now() - t;
      return r;
    },
    save: async (record, expected) => {
      const t = performance.now();
      const ok = await store.save(record, expected);
      if (measuring) spent.save += performance.now() - t;
      return ok;
    },
  };
}

let bytes = 0;
const encoder = new snapshotParser.Encoder();
const broadcaster: RoomBroadcaster = {
  async snapshot(record: StoredRoom, logFrom = record.room.nextEventSeq) {
    const t = performance.now();
    const presence: Record<string, boolean> = {};
    for (const id of Object.keys(record.room.players)) presence[id] = true;
    // Socket.IO encodes a broadcast once, with the server's encoder; the log is cut as the server does.
    const [packet] = encoder.encode({
      type: PacketType.EVENT,
      nsp: '/',
      data: ['room', logDelta({ version: record.version, room: record.room, presence }, logFrom)],
    });
    bytes = String(packet).length;
    if (measuring) spent.serialise += performance.now() - t;
  },
  async gone() {},
};

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'chipless-hot-path-'));
  const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  const keyPrefix = `bench-hot-path-${randomUUID()}:`;
  const raw =
    args.store === 'redis'
      ? await createRedisStore(redisUrl, {
          keyPrefix,
          roomTtlMs: 600_000,
        })
      : createSqliteStore({ dataDir });
  const store = timed(raw);
  const service = new RoomService({ store, logger: createLogger('warn'), now: Date.now, broadcaster });
  const random = seededRandom(7);

  const latest = new Map<string, StoredRoom>();
  const rooms: Array<{ code: string; players: string[] }> = [];
  for (let i = 0; i < ROOMS; i++) {
    const host = randomUUID();
    const created = await service.createRoom(host, randomUUID(), 'Host', BOT_CHIPS);
    if (!created.ok) throw new Error(created.error);
    const code = created.record.room.roomCode;
    latest.set(code, created.record);
    const players = [host];
    for (let k = 1; k < 6; k++) {
      const id = randomUUID();
      players.push(id);
      const joined = await service.execute(code, id, randomUUID(), {
        type: 'join',
        name: `Bot ${k}`,
        startingChips: BOT_CHIPS,
      });
      if (joined.ok && joined.record) latest.set(code, joined.record);
    }
    rooms.push({ code, players });
  }

  const play = async (n: number) => {
    let refused = 0;
    for (let i = 0; i < n; i++) {
      // Let the event loop turn now and then, as the server's does between socket reads: timers and
      // messages from threads (the SQLite writer's reports) run only then. Without it the SQLite
      // store's WAL once grew without bound and every save paid for new file blocks.
      if (i % 100 === 99) await new Promise((resolve) => setImmediate(resolve));
      const room = rooms[i % rooms.length]!;
      const move = nextMove(latest.get(room.code)!.room, random);
      if (!move) throw new Error(`room ${room.code} is stuck`);
      const outcome = await service.execute(room.code, move.actorId, randomUUID(), move.command);
      if (!outcome.ok) refused++;
      else if (outcome.record) latest.set(room.code, outcome.record);
    }
    return refused;
  };

  await play(Math.min(COMMANDS, ROOMS * 40)); // warm-up: lobbies done, logs full, JIT warm
  measuring = true;
  const cpu0 = process.cpuUsage();
  const written0 = bytesWritten();
  const t0 = performance.now();
  const samples: number[] = [];
  let refused = 0;
  for (let done = 0; done < COMMANDS; done += 1000) {
    const s = performance.now();
    refused += await play(1000);
    samples.push(((performance.now() - s) * 1000) / 1000);
  }
  const wall = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  const written = bytesWritten() - written0;
  const per = (ms: number) => Math.round((ms * 1000) / COMMANDS);
  const total = per(wall);
  console.log(
    `hot path (${args.store}, ${ROOMS} rooms, ${COMMANDS} commands, snapshot ${bytes} bytes, ${refused} refused):`,
  );
  console.log(`  wall per command      ${total} µs (includes choosing the move)`);
  console.log(`  CPU per command       ${Math.round((cpu.user + cpu.system) / COMMANDS)} µs`);
  console.log(`  store.load            ${per(spent.load)} µs`);
  console.log(`  store.save            ${per(spent.save)} µs`);
  console.log(`  snapshot JSON         ${per(spent.serialise)} µs`);
  console.log(
    `  bytes written         ${Math.round(written / COMMANDS)} per command (write calls, WAL + checkpoints)`,
  );
  console.log(`  per 1000-command batch (µs/command): ${JSON.stringify(summarize(samples))}`);
  await raw.close();
  rmSync(dataDir, { recursive: true, force: true });
  // Its keys go with it: the rooms would expire, but not the activity index (no TTL).
  if (args.store === 'redis') await deleteKeysWithPrefix(keyPrefix, redisUrl);
}

/** Bytes this process has passed to write calls so far (`wchar` of /proc/self/io; 0 where there is none). */
function bytesWritten(): number {
  try {
    const match = /^wchar: (\d+)$/m.exec(readFileSync('/proc/self/io', 'utf8'));
    return match ? Number(match[1]) : 0;
  } catch {
    return 0;
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
