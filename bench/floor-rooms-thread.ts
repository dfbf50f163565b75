/**
 * The rooms' thread of the floor's `--floor-rooms` variant (floor-server.ts, FLOOR_ROOMS): the real
 * room work of a command off the socket thread. It holds a real room for each of the floor's rooms
 * (created, joined by 6, approved and started on its first command), runs each command the socket
 * thread posts through the real RoomService over the real SQLite store (its journal and writer thread,
 * in the DATA_DIR given), the move chosen by the load bots' strategy for that room, and answers with the
 * version committed and the text of the snapshot event the server would broadcast (the log cut to the
 * new events, every player present). The socket thread acks and broadcasts that text.
 *
 * So the process is what a server with its rooms on a thread of their own would be, less the gateway's
 * checks and presence on the socket thread: what it measures is whether that design keeps the socket
 * thread's tail near the floor's while the rooms' heap, collections and SQLite work are on another.
 *
 * Messages in: `[id, roomCode]`. Out: `[id, version, text]`.
 */
import { randomUUID } from 'node:crypto';
import { parentPort, workerData } from 'node:worker_threads';
import { createLogger } from '../src/server/logger';
import { type RoomBroadcaster, RoomService } from '../src/server/room-service';
import { snapshotEventJson } from '../src/server/snapshot-encoder';
import type { StoredRoom } from '../src/server/store/room-store';
import { createSqliteStore } from '../src/server/store/sqlite-store';
import { logDelta } from '../src/shared/log-delta';
import { seededRandom } from './stats';
import { BOT_CHIPS, nextMove } from './strategy';

const port = parentPort;
if (!port) throw new Error('floor-rooms-thread.ts runs as a worker thread');
const { dataDir } = workerData as { dataDir: string };

/** The last snapshot event text broadcast per room, with its version. */
const broadcasts = new Map<string, { version: number; text: string }>();
const broadcaster: RoomBroadcaster = {
  async snapshot(record: StoredRoom, logFrom = record.room.nextEventSeq) {
    const presence: Record<string, boolean> = {};
    for (const id of Object.keys(record.room.players)) presence[id] = true;
    const text = snapshotEventJson([
      'room',
      logDelta({ version: record.version, room: record.room, presence }, logFrom),
    ]);
    if (text === null) throw new Error('not a snapshot');
    broadcasts.set(record.room.roomCode, { version: record.version, text });
  },
  async gone() {},
};

const store = createSqliteStore({ dataDir });
const service = new RoomService({ store, logger: createLogger('warn'), now: Date.now, broadcaster });

interface Table {
  code: string;
  latest: StoredRoom;
  random: () => number;
  /** The commands of this room, one after another. */
  queue: Promise<void>;
}
const tables = new Map<string, Table>();
let seed = 1;

/** A room of 6 created and joined (the strategy approves and starts it with its first moves). */
async function openTable(): Promise<Table> {
  const host = randomUUID();
  const created = await service.createRoom(host, randomUUID(), 'Host', BOT_CHIPS);
  if (!created.ok) throw new Error(created.error);
  let latest = created.record;
  const code = latest.room.roomCode;
  for (let k = 1; k < 6; k++) {
    const joined = await service.execute(code, randomUUID(), randomUUID(), {
      type: 'join',
      name: `Bot ${k}`,
      startingChips: BOT_CHIPS,
    });
    if (!joined.ok || !joined.record) throw new Error(joined.ok ? 'join changed nothing' : joined.error);
    latest = joined.record;
  }
  return { code, latest, random: seededRandom(seed++), queue: Promise.resolve() };
}

/** Plays the strategy's next moves in `table` until one is broadcast (at most 5 tries). */
async function play(table: Table): Promise<{ version: number; text: string }> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const move = nextMove(table.latest.room, table.random);
    if (!move) break;
    const before = table.latest.version;
    const outcome = await service.execute(table.code, move.actorId, randomUUID(), move.command);
    if (outcome.ok && outcome.record) table.latest = outcome.record;
    const sent = broadcasts.get(table.code);
    if (sent && table.latest.version > before && sent.version === table.latest.version) return sent;
  }
  throw new Error(`room ${table.code} is stuck at version ${table.latest.version}`);
}

const opening = new Map<string, Promise<Table>>();
function tableOf(roomCode: string): Promise<Table> {
  const open = tables.get(roomCode);
  if (open) return Promise.resolve(open);
  let pending = opening.get(roomCode);
  if (!pending) {
    pending = openTable().then((t) => {
      tables.set(roomCode, t);
      opening.delete(roomCode);
      return t;
    });
    opening.set(roomCode, pending);
  }
  return pending;
}

port.on('message', ([id, roomCode]: [number, string]) => {
  void tableOf(roomCode)
    .then((table) => {
      const turn = table.queue.then(() => play(table));
      table.queue = turn.then(
        () => undefined,
        () => undefined,
      );
      return turn.then(({ version, text }) => port.postMessage([id, version, text]));
    })
    .catch((err: unknown) => {
      // Ends this thread; the socket thread ends the process on it (floor-server.ts).
      console.error('floor-rooms thread:', err);
      process.exit(1);
    });
});
