/**
 * The socket thread's side of the room thread (room-thread.ts; rooms.ts says why it exists):
 * startRoomThread starts the thread and carries requests to it; threadRooms is the Rooms the gateway
 * uses over it.
 *
 * Each room's requests go one at a time, in the room's queue on this thread: a command's answer comes
 * back with its effects ('gone' notices, the step after the commit, the broadcast), which are taken
 * here, in the queue, before the room's next request. Rooms reach this thread as views (who is in them,
 * their version) and their JSON text; snapshots are sent as EncodedSnapshot text with the presence of
 * this thread's sockets spliced in, byte for byte what directRooms sends.
 */
import { readdirSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { holdsSeat } from '../engine';
import type { GoneReason } from '../shared/protocol';
import type { Broadcaster } from './broadcaster';
import { KeyedQueue } from './keyed-queue';
import type { Logger } from './logger';
import { SHUTTING_DOWN } from './room-service';
import type {
  Effect,
  ReplyMessage,
  RequestName,
  Requests,
  RoomThreadData,
  StatusMessage,
  ViewData,
} from './room-thread-messages';
import type { HousekeepingStore, Rooms, RoomView } from './rooms';
import { EncodedSnapshot } from './snapshot-encoder';
import type { ChiplessServer } from './socket-gateway';

/**
 * How the room thread is started: from the compiled server (`npm start`) its sibling room-thread.js;
 * from the TypeScript sources (tsx, Vitest) worker-boot.mjs, which registers tsx and loads the module.
 */
const ENTRY: { script: URL; module?: string } = import.meta.url.endsWith('.ts')
  ? {
      script: new URL('./worker-boot.mjs', import.meta.url),
      module: new URL('./room-thread.ts', import.meta.url).href,
    }
  : { script: new URL('./room-thread.js', import.meta.url) };

/** Said by every request once the room thread has stopped. */
export const ROOM_THREAD_STOPPED = 'The room thread has stopped';

/** The running room thread. */
export interface RoomThread extends HousekeepingStore {
  /** Sends a request; resolves with its answer, rejects with the thread's error. */
  request<K extends RequestName>(name: K, ...args: Requests[K]['args']): Promise<Requests[K]['result']>;
  /** Linux thread ids that appeared while the thread started: its own (helper-threads.ts leaves them be). */
  readonly threadIds: number[];
  /** Graceful stop: drains, closes the store, ends the thread. */
  close(): Promise<void>;
  /** Crash-like stop (tests): the thread ends now, whatever it was doing. */
  terminate(): Promise<void>;
}

export interface RoomThreadOptions {
  dataDir: string;
  logLevel: string;
  cachedRooms?: number;
  /** Called when the thread ends other than by close() or terminate(), with what ended it. */
  onUnexpectedExit?: (code: number, err: Error) => void;
}

function taskIds(): number[] {
  try {
    return readdirSync('/proc/self/task').map(Number);
  } catch {
    return [];
  }
}

/** Starts the room thread and resolves once its store is open (rejects with the store's error). */
export async function startRoomThread(options: RoomThreadOptions): Promise<RoomThread> {
  const before = new Set(taskIds());
  const data: RoomThreadData = {
    dataDir: options.dataDir,
    logLevel: options.logLevel,
    ...(options.cachedRooms !== undefined ? { cachedRooms: options.cachedRooms } : {}),
    ...(ENTRY.module ? { module: ENTRY.module } : {}),
  };
  const worker = new Worker(ENTRY.script, { workerData: data });
  const waiting = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  let nextId = 0;
  let stopped: Error | null = null;
  let ending = false;

  await new Promise<void>((resolve, reject) => {
    // The first of a status message or an exit decides (a promise settles once). An uncaught error is
    // kept for the exit: the thread posts 'failed' before it throws, but the error comes on another
    // port and may arrive first, and it does not always arrive as an Error (better-sqlite3's
    // SqliteError is no real one and crosses as a plain object: "[object Object]"). Node delivers what
    // the thread posted before it emits 'exit', so 'failed' wins when there is one.
    let thrown: unknown = null;
    const fail = (err: Error) => {
      // The error listener stays: an error after the start failed is not one more to throw.
      worker.off('message', onStatus);
      worker.off('exit', onExit);
      void worker.terminate();
      reject(err);
    };
    const onError = (err: unknown) => {
      thrown ??= err;
    };
    const onExit = (code: number) => {
      const message = (thrown as { message?: unknown } | null)?.message;
      if (thrown instanceof Error) fail(thrown);
      else if (typeof message === 'string') fail(new Error(message));
      else fail(new Error(`The room thread exited with ${code} while starting`));
    };
    const onStatus = (message: StatusMessage) => {
      if (message[0] === 'ready') {
        worker.off('message', onStatus);
        worker.off('error', onError);
        worker.off('exit', onExit);
        resolve();
        return;
      }
      const err = new Error(message[1]);
      err.name = message[2];
      fail(err);
    };
    worker.on('message', onStatus);
    worker.on('error', onError);
    worker.once('exit', onExit);
  });
  const threadIds = taskIds().filter((id) => !before.has(id));

  worker.on('message', (message: ReplyMessage) => {
    const entry = waiting.get(message[0]);
    if (!entry) return;
    waiting.delete(message[0]);
    if (message[1]) entry.resolve(message[2]);
    else entry.reject(new Error(message[2]));
  });
  worker.on('error', (err) => {
    stopped ??= err;
  });
  worker.on('exit', (code) => {
    stopped ??= new Error(ROOM_THREAD_STOPPED);
    for (const entry of waiting.values()) entry.reject(stopped);
    waiting.clear();
    // `stopped`: the thread's uncaught error when it had one ('error' comes before 'exit').
    if (!ending) options.onUnexpectedExit?.(code, stopped);
  });

  const request = <K extends RequestName>(name: K, ...args: Requests[K]['args']) =>
    new Promise<Requests[K]['result']>((resolve, reject) => {
      if (stopped) {
        reject(stopped);
        return;
      }
      const id = nextId++;
      waiting.set(id, { resolve: resolve as (v: unknown) => void, reject });
      worker.postMessage([id, name, ...args]);
    });

  return {
    request,
    threadIds,
    touch: (roomCodes, now) => request('touch', [...roomCodes], now),
    listIdle: (before) => request('listIdle', before),
    increment: (counters) => request('increment', counters),
    readCounters: (keys) => request('readCounters', keys),
    async close() {
      if (stopped) return;
      ending = true;
      const exited = new Promise((resolve) => worker.once('exit', resolve));
      await request('close');
      await exited;
    },
    async terminate() {
      ending = true;
      await worker.terminate();
    },
  };
}

/** A RoomView of a room on the room thread. */
class ThreadView implements RoomView {
  constructor(readonly data: ViewData) {}
  get roomCode(): string {
    return this.data.roomCode;
  }
  get version(): number {
    return this.data.version;
  }
  has(playerId: string): boolean {
    return this.data.players.includes(playerId);
  }
  get ended(): boolean {
    return this.data.ended;
  }
  linkPending(playerId: string): boolean {
    const pending = this.data.linkPending;
    if (pending === undefined)
      throw new TypeError('threadRooms: linkPending asked of a view not loaded whole');
    return pending.includes(playerId);
  }
  holds(playerId: string, link: string): boolean {
    const held = this.data.heldByLink;
    if (held === undefined) throw new TypeError('threadRooms: holds asked of a view not loaded whole');
    if (!this.has(playerId)) return false;
    const heldByLink = held[playerId];
    return holdsSeat(heldByLink === undefined ? {} : { heldByLink }, link);
  }
  departed(playerId: string): boolean {
    const departed = this.data.departed;
    if (departed === undefined) throw new TypeError('threadRooms: departed asked of a view not loaded whole');
    return departed.includes(playerId);
  }
  get activity(): number {
    return this.data.activity;
  }
}

const viewOf = (data: ViewData | null) => (data ? new ThreadView(data) : null);

/** The Rooms over `thread`, its snapshots sent through `broadcaster` to the sockets of `io`. */
export function threadRooms(
  thread: RoomThread,
  io: ChiplessServer,
  broadcaster: Broadcaster,
  logger: Logger,
): Rooms {
  const queue = new KeyedQueue();
  let accepting = true;

  /** A snapshot's JSON as snapshotOf and logDelta build it (key order included), presence now. */
  const snapshotJson = async (
    roomCode: string,
    version: number,
    players: string[],
    room: string,
    logFrom?: number,
  ): Promise<EncodedSnapshot> => {
    const online = await broadcaster.onlinePlayers(roomCode);
    const presence: Record<string, boolean> = {};
    for (const id of players) presence[id] = online.has(id);
    const end = logFrom === undefined ? '}' : `,"logFrom":${logFrom}}`;
    return new EncodedSnapshot(
      version,
      `{"version":${version},"room":${room},"presence":${JSON.stringify(presence)}${end}`,
    );
  };

  /** Takes a commit's effects, in order. Committed already: a failure is logged, not answered. */
  const perform = async (
    roomCode: string,
    effects: Effect[],
    onCommitted?: (view: RoomView) => Promise<void> | void,
  ) => {
    try {
      for (const effect of effects) {
        if (effect.kind === 'gone') await goneFor(roomCode, effect.reason, effect.playerIds);
        else if (effect.kind === 'committed') await onCommitted?.(new ThreadView(effect.view));
        else {
          const { version, players, room, logFrom } = effect;
          const snapshot = await snapshotJson(roomCode, version, players, room, logFrom);
          // The typed emit wants a RoomSnapshot; the encoder writes this one's text (room-json.ts).
          io.to(roomCode).emit('room', snapshot as never);
        }
      }
    } catch (err) {
      logger.warn({ err, room: roomCode }, 'broadcast failed');
    }
  };
  const goneFor = (roomCode: string, reason: GoneReason, playerIds: string[] | null) =>
    broadcaster.gone(roomCode, reason, playerIds ?? undefined);

  return {
    runExclusive: (roomCode, fn) => queue.run(roomCode, fn),
    load: async (roomCode, options) =>
      viewOf(await thread.request('load', roomCode, options?.whole === true)),
    async snapshotOf(view, log) {
      const json = view instanceof ThreadView ? view.data.json : undefined;
      if (!json) throw new TypeError('threadRooms: a view without its JSON');
      const { roomCode, version, players, nextEventSeq } = (view as ThreadView).data;
      return log === 'whole'
        ? snapshotJson(roomCode, version, players, json.whole)
        : snapshotJson(roomCode, version, players, json.none, nextEventSeq);
    },
    async createRoom(actorId, commandId, hostName, startingChips) {
      if (!accepting) return { ok: false, error: SHUTTING_DOWN };
      return thread.request('create', actorId, commandId, hostName, startingChips);
    },
    execute(roomCode, actorId, commandId, command, options = {}) {
      if (!accepting) return Promise.resolve({ ok: false, error: SHUTTING_DOWN });
      const { onCommitted, wholeSnapshot = false, prepare } = options;
      return queue.run(roomCode, async () => {
        const result = await thread.request(
          'execute',
          roomCode,
          actorId,
          commandId,
          prepare ? await prepare(command) : command,
          onCommitted !== undefined,
          wholeSnapshot,
        );
        if (!result.ok) return result;
        await perform(roomCode, result.effects, onCommitted);
        return { ok: true, version: result.version, view: viewOf(result.view), duplicate: result.duplicate };
      });
    },
    broadcastCurrent(roomCode) {
      return queue
        .run(roomCode, async () => perform(roomCode, await thread.request('current', roomCode)))
        .catch((err: unknown) => logger.warn({ err, room: roomCode }, 'presence broadcast failed'));
    },
    expire(roomCode, stillActive, playingSince = -Infinity) {
      return queue.run(roomCode, async () => {
        if (stillActive()) return false;
        const { deleted, effects } = await thread.request('expire', roomCode, playingSince);
        await perform(roomCode, effects);
        return deleted;
      });
    },
    stopAccepting() {
      // Refused here only: the room thread must still run the commands this side accepted and queued
      // before now, whose requests it has not been sent yet (a 'stopAccepting' sent to it would arrive
      // first and refuse them, where RoomService.stopAccepting lets its queued commands run). Every
      // command reaches the thread through this side; the thread's 'close' stops it accepting.
      accepting = false;
    },
    async drain() {
      await queue.drain();
      await thread.request('drain');
    },
    touch: (roomCodes, now) => thread.touch(roomCodes, now),
    listIdle: (before) => thread.listIdle(before),
    increment: (counters) => thread.increment(counters),
    readCounters: (keys) => thread.readCounters(keys),
  };
}
