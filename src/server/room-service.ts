/**
 * The room authority: runs commands through the engine one at a time per room and commits each result
 * to the store before anyone hears of it. It knows nothing about sockets: what it has to tell phones goes
 * through the RoomBroadcaster it is given (the socket layer implements it), called inside the room's
 * queue so broadcasts leave in version order.
 */
import { randomInt } from 'node:crypto';
import { applyCommand, type Command, createRoom, type GameEvent } from '../engine';
import { ROOM_CODE_ALPHABET, ROOM_CODE_LENGTH } from '../shared/limits';
import { CREATE_FAILED, type GoneReason, SOMETHING_WENT_WRONG } from '../shared/protocol';
import { KeyedQueue } from './keyed-queue';
import type { Logger } from './logger';
import { OutageLog } from './outage-log';
import {
  APPLIED_COMMANDS_KEPT,
  type AppliedCommand,
  type Publication,
  type RoomStore,
  type StoredRoom,
} from './store/room-store';

/** Load/apply/save attempts before giving up on a contended room (another process keeps winning). */
const MAX_ATTEMPTS = 8;
/** Attempts at drawing a free room code. */
const MAX_CODE_ATTEMPTS = 50;
/** Create retries remembered per process (actor + command id -> room code). */
const CREATES_REMEMBERED = 10_000;
/** Default number of recently committed rooms kept in memory (see RoomServiceDeps.cachedRooms). */
const CACHED_ROOMS_DEFAULT = 2_000;

/**
 * A room this process has committed nothing to for this long leaves its cache. With several processes
 * on Redis another one may have deleted it (its cleanup sweep, a host's End Game Session): only the
 * process that deletes a room drops it, and the others kept it up to the cap, ~16 MB of dead rooms
 * (the session-31 audit). A room still in use is read from the store again, once.
 */
export const CACHED_ROOM_MAX_AGE_MS = 15 * 60 * 1000;

export const ROOM_NOT_FOUND = 'Room not found';
/** Re-exported: the server's word for a command it failed to carry out (the web app reads it too). */
export { SOMETHING_WENT_WRONG };
export const SHUTTING_DOWN = 'The server is restarting. Please try again in a moment.';

/** What the room service tells phones; implemented by the socket layer. */
export interface RoomBroadcaster {
  /**
   * Sends the room's snapshot (the record plus presence) to everyone in the room. Its log carries only
   * the events with seq >= `logFrom` (default: none, for a change that logged nothing); phones keep
   * the rest (src/shared/log-delta.ts).
   */
  snapshot(record: StoredRoom, logFrom?: number): Promise<void>;
  /** Tells `playerIds` (or everyone in the room when omitted) that the room is gone for them, and unsubscribes them. */
  gone(roomCode: string, reason: GoneReason, playerIds?: string[]): Promise<void>;
  /**
   * Present when snapshots reach other processes by a publication the store can make with its save
   * (RoomStore.publishesOnSave: the Redis adapter over the Redis store). Builds the snapshot that
   * `snapshot(record, logFrom)` would send, as the publication for the save and the delivery to this
   * process's own sockets, for after it.
   */
  prepare?(record: StoredRoom, logFrom: number): Promise<PreparedSnapshot>;
}

/** A commit's snapshot made before its save (RoomBroadcaster.prepare). */
export interface PreparedSnapshot {
  /** For the save to publish to the other processes. */
  publication: Publication;
  /** Sends it to this process's sockets in the room (after the save). */
  deliver(): void;
}

/** Receives the events of committed commands (analytics). Must not throw; must not block. */
export type EventSink = (e: {
  roomCode: string;
  actorId: string;
  byHost: boolean;
  events: GameEvent[];
}) => void;

/** What a create answers: the new room's record, or why there is none. */
export type CreateOutcome = { ok: true; record: StoredRoom } | { ok: false; error: string };

/** Result of a command. */
export type CommandOutcome =
  | { ok: true; version: number; record: StoredRoom | null; duplicate: boolean }
  | { ok: false; error: string };

/** Options of one command run. */
export interface ExecuteOptions {
  /**
   * Runs inside the room's queue right after the commit and before the broadcast (when the room still
   * exists): the socket layer subscribes the sender here so the broadcast already counts it as present.
   */
  onCommitted?: (record: StoredRoom) => Promise<void> | void;
  /** Runs in the room's queue before the command is applied and gives the command to apply (rooms.ts). */
  prepare?: (command: Command) => Promise<Command>;
}

/** What a RoomService is built from: where rooms are stored, where it logs, and its clock. */
export interface RoomServiceDeps {
  store: RoomStore;
  logger: Logger;
  now: () => number;
  broadcaster: RoomBroadcaster;
  onEvents?: EventSink;
  /**
   * How many rooms' last committed record to keep in memory (least recently committed dropped first),
   * so a command usually starts without a store read and a JSON parse (a third of the CPU of a command
   * on SQLite; bench/README.md). 0 turns it off. Safe with other writers: see commit(). Default
   * CACHED_ROOMS_DEFAULT; a room committed to longer than CACHED_ROOM_MAX_AGE_MS ago leaves it.
   */
  cachedRooms?: number;
}

/** Draws a random room code (A-Z, 0-9). */
export function randomRoomCode(): string {
  let code = '';
  for (let i = 0; i < ROOM_CODE_LENGTH; i++) code += ROOM_CODE_ALPHABET[randomInt(ROOM_CODE_ALPHABET.length)];
  return code;
}

/**
 * A room's last committed record as kept in memory, and its window of applied command ids: the
 * newest APPLIED_COMMANDS_KEPT (at most that many, at least every id of the newest that many), oldest
 * first, each as its commandIdHash with the version it last produced. An id whose hash is absent was
 * not applied in the room's window, so the command is new: no scan of the entries (two pointer chases
 * each, cache misses at 1,000 rooms: ~10 µs a command in bench/hot-path.ts). A hash present may be a
 * retry, another actor's id or another id with the same hash: it is decided on a fresh load, as every
 * answer given without a write is, so a shared hash costs a store read, never a wrong answer.
 *
 * So the record's own `appliedCommands` is only what its save needed: the entries newer than the
 * version it was saved over (RoomStore.save), i.e. its own command's, or the whole list when it was
 * made from a loaded record. A map of 100 small integers a room instead of 100 entry objects, their
 * id strings, a list of 100 copied into every new record and a map of counts: at 1,000 rooms ~200K
 * fewer objects for every major GC to mark, and ~0.8 KB less promoted a command (bench/README.md,
 * session 9).
 */
export interface CachedRoom {
  record: StoredRoom;
  applied: Map<number, number>;
  /** When it was committed (the service's clock), once kept (RoomService.remember). */
  at?: number;
}

/**
 * A command id's key in a CachedRoom's window: its 32-bit FNV-1a hash cut to 30 bits, a small integer
 * on every V8 build, so the window holds no strings. Two of a room's 100 ids share one with a chance of
 * ~1 in 10 million a command (then a store read).
 */
export function commandIdHash(commandId: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < commandId.length; i++) {
    hash ^= commandId.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash & 0x3fffffff;
}

/** The cache entry of `record` (created or loaded): the ids of its applied list as the window. */
export function cachedRoom(record: StoredRoom): CachedRoom {
  const applied = new Map<number, number>();
  const list = record.appliedCommands;
  for (let i = Math.max(0, list.length - APPLIED_COMMANDS_KEPT); i < list.length; i++) {
    const c = list[i]!;
    const key = commandIdHash(c.commandId);
    // A key seen again (another actor's id, an id applied again, two ids with one hash): its newest place.
    applied.delete(key);
    applied.set(key, c.version);
  }
  return { record, applied };
}

/**
 * The cache entry of `next`, committed over `cached`'s record by the command `commandId`: the window
 * moves on by one (`cached`'s map, which is dropped, is reused).
 */
export function advanced(cached: CachedRoom, next: StoredRoom, commandId: string): CachedRoom {
  const { applied } = cached;
  const key = commandIdHash(commandId);
  applied.delete(key);
  applied.set(key, next.version);
  while (applied.size > APPLIED_COMMANDS_KEPT) {
    const oldest = applied.keys().next().value;
    if (oldest === undefined) break;
    applied.delete(oldest);
  }
  return { record: next, applied };
}

/** The room authority. See the file comment. */
export class RoomService {
  private readonly queue = new KeyedQueue();
  private readonly creates = new Map<string, string>();
  /**
   * Creates still being made, by actor and command id: the same create asked again meanwhile (a phone's
   * retry after 'No connection…', which keeps the command id) waits for it and gets the same room. Only
   * remembered once made, two such creates made two rooms, the first left an orphan lobby (Redis mode:
   * session 36's race audit).
   */
  private readonly creating = new Map<string, Promise<CreateOutcome>>();
  /** Last record this process committed per room, least recently committed first. */
  private readonly recent = new Map<string, CachedRoom>();
  private accepting = true;

  /** Commands failing because the store is down: logged once, then counted (outage-log.ts). */
  private readonly outages: OutageLog;

  constructor(private readonly deps: RoomServiceDeps) {
    this.outages = new OutageLog(deps.logger, deps.now);
  }

  /**
   * Runs `fn` alone for `roomCode`: after everything queued before it for that room, before
   * everything queued after. A failing `fn` rejects its own promise only.
   */
  runExclusive<T>(roomCode: string, fn: () => Promise<T>): Promise<T> {
    return this.queue.run(roomCode, fn);
  }

  /**
   * Creates a room hosted by `actorId` under a free random code. Retrying a command id returns the same
   * room, while the first is still being made too.
   */
  createRoom(
    actorId: string,
    commandId: string,
    hostName: string,
    startingChips: number,
  ): Promise<CreateOutcome> {
    const retryKey = `${actorId}\n${commandId}`;
    const inFlight = this.creating.get(retryKey);
    if (inFlight) return inFlight;
    const made = this.makeRoom(actorId, commandId, hostName, startingChips).finally(() =>
      this.creating.delete(retryKey),
    );
    this.creating.set(retryKey, made);
    return made;
  }

  private async makeRoom(
    actorId: string,
    commandId: string,
    hostName: string,
    startingChips: number,
  ): Promise<CreateOutcome> {
    const started = performance.now();
    const log = (result: { ok: boolean; error?: string; room?: string; duplicate?: boolean }) =>
      this.deps.logger.info(
        { room: result.room, actor: actorId, type: 'createRoom', ...result, ms: elapsed(started) },
        'command',
      );
    if (!this.accepting) return { ok: false, error: SHUTTING_DOWN };

    const retryKey = `${actorId}\n${commandId}`;
    const earlier = this.creates.get(retryKey);
    if (earlier !== undefined) {
      const record = await this.deps.store.load(earlier);
      if (record) {
        log({ ok: true, room: earlier, duplicate: true });
        return { ok: true, record };
      }
    }

    for (let attempt = 0; attempt < MAX_CODE_ATTEMPTS; attempt++) {
      const roomCode = randomRoomCode();
      let room: StoredRoom['room'];
      try {
        room = createRoom({ roomCode, hostId: actorId, hostName, startingChips, now: this.deps.now() });
      } catch (err) {
        // createRoom throws the spec's validation messages (name, buy-in).
        const error = err instanceof Error ? err.message : CREATE_FAILED;
        log({ ok: false, error });
        return { ok: false, error };
      }
      const record: StoredRoom = { room, version: 1, appliedCommands: [{ commandId, actorId, version: 1 }] };
      if (await this.deps.store.create(record)) {
        this.rememberCreate(retryKey, roomCode);
        this.remember(cachedRoom(record));
        log({ ok: true, room: roomCode });
        return { ok: true, record };
      }
    }
    this.deps.logger.error({ actor: actorId }, 'no free room code found');
    log({ ok: false, error: CREATE_FAILED });
    return { ok: false, error: CREATE_FAILED };
  }

  /**
   * Runs one command from `actorId` in `roomCode`: load, engine, conditional save (retried on a
   * version conflict), then broadcast. A (actorId, commandId) pair already applied is acknowledged
   * with the version it produced and not applied again. A refused command writes nothing.
   */
  execute(
    roomCode: string,
    actorId: string,
    commandId: string,
    command: Command,
    options: ExecuteOptions = {},
  ): Promise<CommandOutcome> {
    if (!this.accepting) return Promise.resolve({ ok: false, error: SHUTTING_DOWN });
    return this.runExclusive(roomCode, async () => {
      const started = performance.now();
      let outcome: CommandOutcome;
      try {
        const prepared = options.prepare ? await options.prepare(command) : command;
        outcome = await this.commit(roomCode, actorId, commandId, prepared, options);
        this.outages.succeeded();
      } catch (err) {
        this.outages.failed(err, { room: roomCode, actor: actorId, type: command.type });
        outcome = { ok: false, error: SOMETHING_WENT_WRONG };
      }
      // Built only when it is written: at 1,000 commands a second the object alone is measurable.
      if (this.deps.logger.isLevelEnabled('info')) {
        this.deps.logger.info(
          {
            room: roomCode,
            actor: actorId,
            type: command.type,
            ok: outcome.ok,
            ...(outcome.ok
              ? { version: outcome.version, ...(outcome.duplicate ? { duplicate: true } : {}) }
              : { error: outcome.error }),
            ms: elapsed(started),
          },
          'command',
        );
      }
      return outcome;
    });
  }

  /** Sends the room's current snapshot to its sockets (presence changed). Through the queue, so in order. */
  broadcastCurrent(roomCode: string): Promise<void> {
    return this.runExclusive(roomCode, async () => {
      const record = await this.deps.store.load(roomCode);
      if (record) await this.deps.broadcaster.snapshot(record);
    }).catch((err: unknown) => this.deps.logger.warn({ err, room: roomCode }, 'presence broadcast failed'));
  }

  /**
   * Deletes an idle room (cleanup) unless `stillActive()` says a player is connected, or it is a game (in
   * progress or over: its results) whose last activity (its last command) is at or after `playingSince`
   * (cleanup.ts), then tells its sockets it expired. True when deleted.
   */
  expire(roomCode: string, stillActive: () => boolean, playingSince = -Infinity): Promise<boolean> {
    return this.runExclusive(roomCode, async () => {
      if (stillActive()) return false;
      const record = await this.deps.store.load(roomCode);
      this.recent.delete(roomCode);
      if (!record) return false;
      if (record.room.status !== 'LOBBY' && record.room.lastActivity >= playingSince) return false;
      if (!(await this.deps.store.delete(roomCode, record.version))) return false;
      this.deps.logger.info({ room: roomCode, version: record.version }, 'idle room deleted');
      await this.deps.broadcaster.gone(roomCode, 'expired');
      return true;
    });
  }

  /** Refuses new commands from now on (graceful shutdown); queued ones still run. */
  stopAccepting(): void {
    this.accepting = false;
  }

  /** Resolves when every queued command has finished. */
  drain(): Promise<void> {
    return this.queue.drain();
  }

  private async commit(
    roomCode: string,
    actorId: string,
    commandId: string,
    command: Command,
    options: ExecuteOptions,
  ): Promise<CommandOutcome> {
    const { store, broadcaster } = this.deps;
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      // Start from the record this process last committed: it is current unless another process (or
      // store instance) wrote since. A change decided on it is proven by the conditional write (a stale
      // record loses and the loop reloads); anything answered WITHOUT a write (duplicate, refusal,
      // no-op) is decided again on a fresh load, so a stale record never decides an answer.
      const cached = attempt === 0 ? this.cached(roomCode) : undefined;
      const current = cached?.record ?? (await store.load(roomCode));
      if (!current) return { ok: false, error: ROOM_NOT_FOUND };
      if (cached) {
        // An id in the window may be a retry: decided on a fresh load (the next attempt).
        if (cached.applied.has(commandIdHash(commandId))) continue;
      } else {
        const earlier = current.appliedCommands.find(
          (c) => c.commandId === commandId && c.actorId === actorId,
        );
        if (earlier) return { ok: true, version: earlier.version, record: current, duplicate: true };
      }

      const result = applyCommand(current.room, actorId, command, this.deps.now());
      if (!result.ok) {
        if (cached) continue;
        return { ok: false, error: result.error };
      }
      const byHost = current.room.hostId === actorId;

      if (result.room === null) {
        this.recent.delete(roomCode);
        if (!(await store.delete(roomCode, current.version))) continue;
        this.emitEvents(roomCode, actorId, byHost, result.events);
        await broadcaster.gone(roomCode, 'deleted');
        return { ok: true, version: current.version + 1, record: null, duplicate: false };
      }
      // The engine hands back the same room for a command that changes nothing: nothing to write.
      if (result.room === current.room) {
        if (cached) continue;
        return { ok: true, version: current.version, record: current, duplicate: false };
      }

      const version = current.version + 1;
      const entry: AppliedCommand = { commandId, actorId, version };
      // Over a cached record the save needs only the new entry (the window is the cache's). Over a
      // loaded one, the newest APPLIED_COMMANDS_KEPT of its list and the new entry, as the window starts.
      let applied: AppliedCommand[] = [entry];
      if (!cached) {
        const dropped = Math.max(0, current.appliedCommands.length + 1 - APPLIED_COMMANDS_KEPT);
        applied = current.appliedCommands.slice(dropped);
        applied.push(entry);
      }
      const next: StoredRoom = { room: result.room, version, appliedCommands: applied };
      const prepared = await this.prepare(current, next, options);
      if (!(await store.save(next, current.version, prepared?.publication))) {
        this.recent.delete(roomCode);
        continue;
      }
      this.remember(cached ? advanced(cached, next, commandId) : cachedRoom(next));

      if (prepared) this.deliver(prepared, next);
      else await this.announce(current, next, options, actorId);
      // After the broadcast: analytics may write (a store transaction) and phones should not wait for it.
      this.emitEvents(roomCode, actorId, byHost, result.events);
      return { ok: true, version, record: next, duplicate: false };
    }
    this.deps.logger.error(
      { room: roomCode, actor: actorId, type: command.type },
      'version conflicts persisted',
    );
    return { ok: false, error: SOMETHING_WENT_WRONG };
  }

  /**
   * The snapshot of `next`, made before its save so the save publishes it to the other processes
   * (RoomBroadcaster.prepare), or null for the announce path after the save. Only for a commit that
   * neither removes a player nor has an onCommitted step: their 'gone' notices and subscriptions must
   * come before the snapshot, and a snapshot made before them would show the wrong presence. A failure
   * here leaves the announce path (the snapshot is then made after the save).
   */
  private async prepare(
    previous: StoredRoom,
    next: StoredRoom,
    options: ExecuteOptions,
  ): Promise<PreparedSnapshot | null> {
    const { broadcaster, store, logger } = this.deps;
    if (!broadcaster.prepare || !store.publishesOnSave || options.onCommitted) return null;
    if (departedPlayers(previous, next).length > 0) return null;
    try {
      return await broadcaster.prepare(next, previous.room.nextEventSeq);
    } catch (err) {
      logger.warn({ err, room: next.room.roomCode, version: next.version }, 'snapshot not prepared');
      return null;
    }
  }

  /** After a commit whose save published its snapshot: this process's sockets get it too. */
  private deliver(prepared: PreparedSnapshot, next: StoredRoom): void {
    try {
      prepared.deliver();
    } catch (err) {
      // Committed already: as in announce, a failed broadcast is no error ack.
      this.deps.logger.warn({ err, room: next.room.roomCode, version: next.version }, 'broadcast failed');
    }
  }

  /**
   * After a commit: players no longer in the room hear 'gone' (the actor, who left, 'left': their other
   * tabs; anyone else was removed), the sender is subscribed, everyone gets the snapshot.
   */
  private async announce(
    previous: StoredRoom,
    next: StoredRoom,
    options: ExecuteOptions,
    actorId: string,
  ): Promise<void> {
    const { broadcaster, logger } = this.deps;
    const roomCode = next.room.roomCode;
    try {
      const departed = departedPlayers(previous, next);
      const removed = departed.filter((id) => id !== actorId);
      if (removed.length < departed.length) await broadcaster.gone(roomCode, 'left', [actorId]);
      if (removed.length > 0) await broadcaster.gone(roomCode, 'removed', removed);
      await options.onCommitted?.(next);
      await broadcaster.snapshot(next, previous.room.nextEventSeq);
    } catch (err) {
      // Committed already: a failed broadcast must not turn into an error ack. Clients catch up on resume.
      logger.warn({ err, room: roomCode, version: next.version }, 'broadcast failed');
    }
  }

  private emitEvents(roomCode: string, actorId: string, byHost: boolean, events: GameEvent[]): void {
    if (!this.deps.onEvents || events.length === 0) return;
    try {
      this.deps.onEvents({ roomCode, actorId, byHost, events });
    } catch (err) {
      this.deps.logger.warn({ err, room: roomCode }, 'event sink failed');
    }
  }

  /** The room's cached record, unless committed longer than CACHED_ROOM_MAX_AGE_MS ago (then dropped). */
  private cached(roomCode: string): CachedRoom | undefined {
    const entry = this.recent.get(roomCode);
    if (entry === undefined || (entry.at ?? 0) >= this.deps.now() - CACHED_ROOM_MAX_AGE_MS) return entry;
    this.recent.delete(roomCode);
    return undefined;
  }

  /**
   * Keeps `entry` as its room's latest (most recently committed last): the oldest beyond the cap, and
   * those committed longer than CACHED_ROOM_MAX_AGE_MS ago, are dropped.
   */
  private remember(entry: CachedRoom): void {
    const limit = this.deps.cachedRooms ?? CACHED_ROOMS_DEFAULT;
    if (limit <= 0) return;
    const code = entry.record.room.roomCode;
    const now = this.deps.now();
    entry.at = now;
    this.recent.delete(code);
    this.recent.set(code, entry);
    if (this.recent.size > limit) {
      const oldest = this.recent.keys().next().value;
      if (oldest !== undefined) this.recent.delete(oldest);
    }
    // In commit order, so the stale ones are first.
    const staleBefore = now - CACHED_ROOM_MAX_AGE_MS;
    for (const [room, cached] of this.recent) {
      if ((cached.at ?? 0) >= staleBefore) break;
      this.recent.delete(room);
    }
  }

  private rememberCreate(key: string, roomCode: string): void {
    this.creates.set(key, roomCode);
    if (this.creates.size > CREATES_REMEMBERED) {
      const oldest = this.creates.keys().next().value;
      if (oldest !== undefined) this.creates.delete(oldest);
    }
  }
}

/** Ids of the players in `previous` who are not in `next` (removed or left). */
function departedPlayers(previous: StoredRoom, next: StoredRoom): string[] {
  return Object.keys(previous.room.players).filter((id) => !(id in next.room.players));
}

function elapsed(started: number): number {
  return Math.round((performance.now() - started) * 100) / 100;
}
