/**
 * The room thread: the RoomService over the SQLite store, on a worker thread of its own (rooms.ts says
 * why). It answers the socket thread's requests (room-thread-messages.ts) one by one as they come; the
 * socket thread sends a room's requests one at a time, in the room's queue (thread-rooms.ts), so each
 * answer's effects are that room's alone. The analytics counters of committed commands are bumped
 * here, where the events are.
 *
 * Started by thread-rooms.ts: from the compiled server as dist/server/room-thread.js, from the
 * TypeScript sources through worker-boot.mjs.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { tableActivity } from '../engine';
import { logDelta } from '../shared/log-delta';
import { createAnalytics } from './analytics';
import { createLogger } from './logger';
import { roomJson } from './room-json';
import { type RoomBroadcaster, RoomService } from './room-service';
import type {
  Effect,
  ReplyMessage,
  RequestMessage,
  Requests,
  RoomThreadData,
  StatusMessage,
  ViewData,
} from './room-thread-messages';
import type { StoredRoom } from './store/room-store';
import { createSqliteStore } from './store/sqlite-store';

const port = parentPort;
if (!port) throw new Error('room-thread.ts runs as a worker thread');
const data = workerData as RoomThreadData;
const logger = createLogger(data.logLevel);

/** The effects of the request running in each room (its commit's 'gone' notices and broadcast). */
const pending = new Map<string, Effect[]>();
const effectsOf = (roomCode: string) => {
  let list = pending.get(roomCode);
  if (!list) {
    list = [];
    pending.set(roomCode, list);
  }
  return list;
};
/** The effects gathered for `roomCode` since the last call (and forgets them). */
const takeEffects = (roomCode: string): Effect[] => {
  const list = pending.get(roomCode) ?? [];
  pending.delete(roomCode);
  return list;
};

const NO_PRESENCE: Record<string, boolean> = {};
const broadcaster: RoomBroadcaster = {
  async snapshot(record, logFrom = record.room.nextEventSeq) {
    const { room } = logDelta({ version: record.version, room: record.room, presence: NO_PRESENCE }, logFrom);
    effectsOf(record.room.roomCode).push({
      kind: 'snapshot',
      version: record.version,
      players: Object.keys(record.room.players),
      room: roomJson(room),
      logFrom,
    });
  },
  async gone(roomCode, reason, playerIds) {
    effectsOf(roomCode).push({ kind: 'gone', reason, playerIds: playerIds ?? null });
  },
};

/** The view of `record`; with its JSON when `whole`. */
function viewOf(record: StoredRoom, whole: boolean): ViewData {
  const { room } = record;
  const view: ViewData = {
    roomCode: room.roomCode,
    version: record.version,
    players: Object.keys(room.players),
    nextEventSeq: room.nextEventSeq,
    ended: room.status === 'ENDED',
    activity: tableActivity(room),
  };
  if (whole) {
    view.json = { whole: roomJson(room), none: roomJson({ ...room, log: [] }) };
    view.departed = room.ledger.map((entry) => entry.id);
    view.linkPending = Object.values(room.players)
      .filter((p) => p.seatLink !== undefined || p.seatClaim !== undefined)
      .map((p) => p.id);
    view.heldByLink = {};
    for (const p of Object.values(room.players))
      if (p.heldByLink !== undefined) view.heldByLink[p.id] = p.heldByLink;
  }
  return view;
}

let store: ReturnType<typeof createSqliteStore>;
try {
  store = createSqliteStore({
    dataDir: data.dataDir,
    onError: (err) => logger.error({ err }, 'sqlite store'),
  });
} catch (err) {
  port.postMessage([
    'failed',
    err instanceof Error ? err.message : String(err),
    err instanceof Error ? err.name : 'Error',
  ] satisfies StatusMessage);
  // Nothing else to do here: the socket side ends the thread.
  throw err;
}
const analytics = createAnalytics(store, logger, Date.now);
const service = new RoomService({
  store,
  logger,
  now: Date.now,
  broadcaster,
  onEvents: ({ byHost, events }) => analytics.recordEvents(events, byHost),
  ...(data.cachedRooms !== undefined ? { cachedRooms: data.cachedRooms } : {}),
});

const nothing = () => undefined;
type Handlers = { [K in keyof Requests]: (...args: Requests[K]['args']) => Promise<Requests[K]['result']> };
const handlers: Handlers = {
  async load(roomCode, whole) {
    const record = await store.load(roomCode);
    return record ? viewOf(record, whole) : null;
  },
  record: (roomCode) => store.load(roomCode),
  create: (actorId, commandId, hostName, startingChips) =>
    service
      .createRoom(actorId, commandId, hostName, startingChips)
      .then((created) => (created.ok ? { ok: true, roomCode: created.record.room.roomCode } : created)),
  async execute(roomCode, actorId, commandId, command, committedStep, whole) {
    const outcome = await service.execute(
      roomCode,
      actorId,
      commandId,
      command,
      committedStep
        ? {
            onCommitted: (record) => {
              effectsOf(roomCode).push({ kind: 'committed', view: viewOf(record, false) });
            },
          }
        : {},
    );
    const effects = takeEffects(roomCode);
    if (!outcome.ok) return outcome;
    return {
      ok: true,
      version: outcome.version,
      duplicate: outcome.duplicate,
      view: outcome.record ? viewOf(outcome.record, whole) : null,
      effects,
    };
  },
  async current(roomCode) {
    await service.broadcastCurrent(roomCode);
    return takeEffects(roomCode);
  },
  async expire(roomCode, playingSince) {
    const deleted = await service.expire(roomCode, () => false, playingSince);
    return { deleted, effects: takeEffects(roomCode) };
  },
  touch: (roomCodes, now) => store.touch(roomCodes, now).then(nothing),
  listIdle: (before) => store.listIdle(before),
  increment: (counters) => store.increment(counters).then(nothing),
  readCounters: (keys) => store.readCounters(keys),
  drain: () => service.drain().then(nothing),
  async close() {
    service.stopAccepting();
    await service.drain();
    await store.close();
    return undefined;
  },
};

port.on('message', (message: RequestMessage) => {
  const [id, name, ...args] = message;
  const handler = handlers[name] as ((...a: unknown[]) => Promise<unknown>) | undefined;
  if (!handler) {
    port.postMessage([id, false, `unknown request ${String(name)}`] satisfies ReplyMessage);
    return;
  }
  handler(...args).then(
    (result) => {
      port.postMessage([id, true, result] satisfies ReplyMessage);
      if (name === 'close') port.close();
    },
    (err: unknown) => {
      logger.error({ err, request: name }, 'room thread request failed');
      port.postMessage([id, false, err instanceof Error ? err.message : String(err)] satisfies ReplyMessage);
    },
  );
});
port.postMessage(['ready'] satisfies StatusMessage);
