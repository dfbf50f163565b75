/**
 * The floor of the load benchmark: a bare Socket.IO server with no rules, no store and no validation.
 * For each 'command' it acks with the room's next version and rebroadcasts a snapshot of the real
 * size and shape (a snapshot captured from the real server, else a synthetic one) to the room.
 * Whatever the real server costs on top of this is what Chipless itself adds.
 *
 * With FLOOR_REDIS_URL set (load.ts `--floor-redis`, a diagnostic target) each command first stores its
 * snapshot with one plain `SET` under FLOOR_KEY_PREFIX, awaited, and only then acks and broadcasts: the
 * cheapest server that persists to Redis before telling anyone. What it costs over the bare floor is
 * what the Redis round trip alone costs on this box, whatever the server around it does.
 *
 * With FLOOR_REDIS_SHAPE=save as well (load.ts `--floor-redis-save`) the write has the shape of the
 * real server's save instead (RedisStore's SAVE script): one EVALSHA carrying the whole snapshot
 * event, which holds the room (since session 16 the real save stores its publication in place of the
 * room field), a script that reads the version, writes the hash, refreshes the TTL and the activity
 * index and PUBLISHes the event on a channel this process also subscribes to (so each publication
 * comes back, as the adapter's do). The same bytes and Redis work as a real commit, without
 * the rules, the gateway or the presence.
 *
 * With FLOOR_HOP set instead (load.ts `--floor-hop`) each command crosses to a worker thread and back
 * before the ack and the broadcast: the main thread posts the room's next version, and the thread
 * answers with it and the snapshot event's JSON text (copied across, as every message's strings are).
 * That is the hop a server with its rooms on a thread of their own (the engine, the store and the room
 * JSON off the socket thread) would add to every command; what it costs over the bare floor is the
 * least such a server could cost.
 *
 * With FLOOR_ROOMS=<a data directory> instead (load.ts `--floor-rooms`) the thread does the real room
 * work (floor-rooms-thread.ts: the RoomService, the engine and the SQLite store, with a real room for
 * each of the floor's): the socket thread posts the command's room, and acks with the version and
 * broadcasts the snapshot event's text the thread answers with (sent as it is, not stringified again).
 * That is a server with its rooms on a thread of their own, less the gateway's checks and presence;
 * its helper threads are lowered as the server's are (helper-threads.ts).
 *
 * Run by load.ts with `fork`; reports `{ port }` over IPC once listening. Env: FLOOR_SNAPSHOT (a JSON
 * file), FLOOR_REDIS_URL, FLOOR_KEY_PREFIX, FLOOR_REDIS_SHAPE (set, the default, or save), FLOOR_HOP,
 * FLOOR_ROOMS.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { Worker } from 'node:worker_threads';
import { Server } from 'socket.io';
import { Decoder, Encoder, PacketType } from 'socket.io-parser';
import { DEFAULT_HELPER_THREADS_NICE, lowerHelperThreads } from '../src/server/helper-threads';
import { connectRedis } from '../src/server/store/redis-client';
import type { RoomSnapshot } from '../src/shared/protocol';
import { syntheticSnapshot } from './sample-snapshot';

const sample: RoomSnapshot = process.env.FLOOR_SNAPSHOT
  ? (JSON.parse(readFileSync(process.env.FLOOR_SNAPSHOT, 'utf8')) as RoomSnapshot)
  : syntheticSnapshot();

const versions = new Map<string, number>();
const keyPrefix = process.env.FLOOR_KEY_PREFIX ?? 'chipless-bench-floor:';
// The server's own client factory: same node-redis, same socket options.
const redis = process.env.FLOOR_REDIS_URL ? await connectRedis(process.env.FLOOR_REDIS_URL) : null;
const saveShape = process.env.FLOOR_REDIS_SHAPE === 'save';

/** The real SAVE script's Redis work, minus its checks' branches. */
const SAVE_LIKE = `
local v = redis.call('HGET', KEYS[1], 'v')
redis.call('HSET', KEYS[1], 'v', ARGV[1], 'pub', ARGV[5], 'po', '0,0,0,0')
redis.call('PEXPIRE', KEYS[1], 900000)
redis.call('ZADD', KEYS[2], ARGV[2], ARGV[3])
redis.call('PUBLISH', ARGV[4], ARGV[5])
return 1`;
const channel = `${keyPrefix}publications`;
const saveSha = redis && saveShape ? await redis.scriptLoad(SAVE_LIKE) : '';
const subscriber = redis && saveShape ? redis.duplicate() : null;
if (subscriber) {
  await subscriber.connect();
  await subscriber.subscribe(channel, () => {});
}

/** Stores the command's snapshot in Redis, by `SET` or the save's shape. */
function store(roomCode: string, snapshot: RoomSnapshot): Promise<unknown> {
  if (!redis) return Promise.resolve();
  if (!saveShape) return redis.set(`${keyPrefix}${roomCode}`, JSON.stringify(snapshot));
  return redis.evalSha(saveSha, {
    keys: [`${keyPrefix}room:${roomCode}`, `${keyPrefix}activity`],
    arguments: [
      String(snapshot.version),
      String(Date.now()),
      roomCode,
      channel,
      JSON.stringify(['room', snapshot]),
    ],
  });
}
/** The hop's thread: answers each version with it and the event's text. */
const HOP_THREAD = `
const { parentPort, workerData } = require('node:worker_threads');
parentPort.on('message', (version) => parentPort.postMessage([version, workerData.text]));`;
const hop = process.env.FLOOR_HOP
  ? new Worker(HOP_THREAD, { eval: true, workerData: { text: JSON.stringify(['room', sample]) } })
  : null;
/** What to do when the thread answers, in the order the versions were posted (messages keep their order). */
const hopAnswers: Array<() => void> = [];
hop?.on('message', () => hopAnswers.shift()?.());

/** Runs `then` once the command has been to the hop's thread and back, or at once without FLOOR_HOP. */
function afterHop(version: number, then: () => void): void {
  if (!hop) {
    then();
    return;
  }
  hopAnswers.push(then);
  hop.postMessage(version);
}

// As the server does at start (main.ts): V8's helpers and libuv's pool below the event loop. Before
// the rooms' thread starts, which, made by the main thread, keeps the main thread's priority.
if (process.env.FLOOR_ROOMS) lowerHelperThreads(DEFAULT_HELPER_THREADS_NICE);
/**
 * The rooms' thread (FLOOR_ROOMS). From the sources (the test runs this file through tsx) a worker does
 * not inherit the loader, so it registers tsx first; from load.ts's build it is the compiled sibling.
 */
const roomsThread = process.env.FLOOR_ROOMS
  ? import.meta.url.endsWith('.ts')
    ? new Worker(
        "import('tsx/esm/api').then(({ register }) => { register(); return import(require('node:worker_threads').workerData.module); })",
        {
          eval: true,
          workerData: {
            dataDir: process.env.FLOOR_ROOMS,
            module: new URL('./floor-rooms-thread.ts', import.meta.url).href,
          },
        },
      )
    : new Worker(new URL('./floor-rooms-thread.mjs', import.meta.url), {
        workerData: { dataDir: process.env.FLOOR_ROOMS },
      })
  : null;
/** Commands waiting for the rooms' thread, by id (answers of different rooms may come in any order). */
const roomAnswers = new Map<number, (version: number, text: string) => void>();
let nextRoomRequest = 0;
roomsThread?.on('message', ([id, version, text]: [number, number, string]) => {
  const answer = roomAnswers.get(id);
  roomAnswers.delete(id);
  answer?.(version, text);
});
roomsThread?.on('exit', (code) => {
  console.error(`floor: the rooms' thread exited with ${code}`);
  process.exit(1);
});

/** A snapshot event already encoded as JSON (the rooms' thread's answer), sent as it is. */
class EncodedEvent {
  constructor(readonly json: string) {}
}
/** Socket.IO's encoder, except that an EncodedEvent's text is the packet's data as it is. */
class PassThroughEncoder extends Encoder {
  override encode(packet: { type: number; nsp: string; id?: number; data?: unknown[] }) {
    const data = packet.data;
    if (packet.type === PacketType.EVENT && packet.id === undefined && data?.[0] instanceof EncodedEvent)
      return [`2${data[0].json}`];
    return super.encode(packet as Parameters<Encoder['encode']>[0]);
  }
}

const httpServer = createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
});
const io = new Server(httpServer, {
  transports: ['websocket'],
  serveClient: false,
  ...(roomsThread ? { parser: { Encoder: PassThroughEncoder, Decoder, PacketType, protocol: 5 } } : {}),
});

io.on('connection', (socket) => {
  socket.emit('session', { playerId: socket.id, token: '' });
  socket.on('join', (req: { roomCode: string }, ack: (res: unknown) => void) => {
    socket.join(req.roomCode);
    if (!versions.has(req.roomCode)) versions.set(req.roomCode, 1);
    ack({ ok: true, data: { ...sample, version: versions.get(req.roomCode) } });
  });
  socket.on('command', (req: { roomCode: string }, ack: (res: unknown) => void) => {
    if (roomsThread) {
      const id = nextRoomRequest++;
      roomAnswers.set(id, (version, text) => {
        ack({ ok: true, data: { version } });
        io.to(req.roomCode).emit(new EncodedEvent(text) as unknown as string);
      });
      roomsThread.postMessage([id, req.roomCode]);
      return;
    }
    const version = (versions.get(req.roomCode) ?? 0) + 1;
    versions.set(req.roomCode, version);
    const snapshot = { ...sample, version };
    if (!redis) {
      afterHop(version, () => {
        ack({ ok: true, data: { version } });
        io.to(req.roomCode).emit('room', snapshot);
      });
      return;
    }
    store(req.roomCode, snapshot).then(
      () => {
        ack({ ok: true, data: { version } });
        io.to(req.roomCode).emit('room', snapshot);
      },
      (err: Error) => ack({ ok: false, error: err.message }),
    );
  });
});

httpServer.listen(0, '127.0.0.1', () => {
  const address = httpServer.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  process.send?.({ port });
});

const shutdown = () => {
  void hop?.terminate();
  roomsThread?.removeAllListeners('exit');
  void roomsThread?.terminate();
  subscriber?.destroy();
  redis?.destroy();
  io.close();
  httpServer.close(() => process.exit(0));
  setTimeout(() => process.exit(0), 2_000).unref();
};
process.on('SIGTERM', shutdown);
process.on('disconnect', shutdown);
