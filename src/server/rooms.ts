/**
 * What the socket side (socket-gateway.ts, cleanup.ts) asks of the rooms: the port between the gateway
 * and wherever the room service runs. Two implementations:
 *
 * - directRooms (here): the RoomService and the store on the socket thread itself. Redis mode (several
 *   processes, the snapshot published with the save) and tests that inject a store or a clock use it.
 * - threadRooms (thread-rooms.ts): the RoomService and the SQLite store on a worker thread of their own
 *   (room-thread.ts), the default in SQLite mode. The socket thread then holds no room objects: rooms
 *   reach it as views (who is in them, their version) and their JSON text, so the rooms' heap, its
 *   collections and the SQLite work stay off the event loop every socket waits on (bench/README.md,
 *   session 20).
 *
 * Either way a room's steps on the socket side (subscribing a socket, 'gone' notices, the broadcast)
 * run in the room's queue in the order of its commits.
 */
import type { Command } from '../engine';
import { holdsSeat, isInRoom, leftDuringGame, tableActivity } from '../engine';
import { logDelta } from '../shared/log-delta';
import type { RoomSnapshot } from '../shared/protocol';
import type { Broadcaster } from './broadcaster';
import type { RoomService } from './room-service';
import type { EncodedSnapshot } from './snapshot-encoder';
import type { RoomStore, StoredRoom } from './store/room-store';

/** A committed room as the socket side sees it. */
export interface RoomView {
  readonly roomCode: string;
  readonly version: number;
  /** Whether `playerId` is in the room (the engine's own-key rule, isInRoom). */
  has(playerId: string): boolean;
  /** Whether the game has ended (status ENDED): nothing in the room changes any more. */
  readonly ended: boolean;
  /**
   * Whether `playerId`'s seat holds a seat link not used yet (the engine's `seatLink`: the host's
   * newest) or a claim kept until the new phone is in (`seatClaim`): their phone resuming ends it
   * (seatBack; socket-gateway.ts). Asked of a view loaded whole (a command's view on the room thread
   * does not carry it).
   */
  linkPending(playerId: string): boolean;
  /**
   * Whether room-scoped credentials made for the link `link` hold `playerId`'s seat: they do only while
   * that link's claim is the seat's newest (the engine's holdsSeat; identity.ts). Asked of a view
   * loaded whole, as linkPending.
   */
  holds(playerId: string, link: string): boolean;
  /**
   * Whether `playerId` left or was removed during the game (the engine's leftDuringGame): not in the
   * room, but named by its results, which they may see once it has ended.
   */
  departed(playerId: string): boolean;
  /**
   * The table's last move (the engine's tableActivity, by the server's clock): what the take-over and
   * act-for waits count from. A subscription's acknowledgement says how long ago it was (withIdle).
   */
  readonly activity: number;
}

/** A snapshot on its way to a phone: an object, or its JSON already made (thread-rooms.ts). */
export type OutgoingSnapshot = RoomSnapshot | EncodedSnapshot;

/** Result of a command. */
export type RoomsOutcome =
  | { ok: true; version: number; view: RoomView | null; duplicate: boolean }
  | { ok: false; error: string };

/** Options of one command run. */
export interface RoomsExecuteOptions {
  /**
   * Runs in the room's queue right after the commit and before the broadcast (when the room still
   * exists): the gateway subscribes the sender here so the broadcast already counts it as present.
   */
  onCommitted?: (view: RoomView) => Promise<void> | void;
  /** The outcome's view will be asked for its whole snapshot (a join's acknowledgement). */
  wholeSnapshot?: boolean;
  /**
   * Runs in the room's queue when the command's turn comes, before it is applied, and gives the command
   * to apply: the gateway adds who is online then (actFor, claimHost). Read before queueing, a host's
   * phone resuming just ahead of a claim was still offline for it (session 36's race audit).
   */
  prepare?: (command: Command) => Promise<Command>;
}

/** The counters and housekeeping parts of a store (analytics.ts, cleanup.ts). */
export type HousekeepingStore = Pick<RoomStore, 'touch' | 'listIdle' | 'increment' | 'readCounters'>;

/** The port the socket side holds the rooms by (see the file comment): directRooms or threadRooms. */
export interface Rooms extends HousekeepingStore {
  /** Runs `fn` in the room's queue: after everything queued before it for that room. */
  runExclusive<T>(roomCode: string, fn: () => Promise<T>): Promise<T>;
  /** The room as last committed, or null when there is none. `whole`: its snapshot will be asked for. */
  load(roomCode: string, options?: { whole?: boolean }): Promise<RoomView | null>;
  /**
   * The snapshot of `view` with who is connected now: with its whole log ('whole', for a
   * subscription's acknowledgement; the view must come from load({ whole: true }) or a command run
   * with wholeSnapshot) or with none ('none', the broadcast of a presence change).
   */
  snapshotOf(view: RoomView, log: 'whole' | 'none'): Promise<OutgoingSnapshot>;
  /** Creates a room hosted by `actorId`; retrying a command id returns the same room. */
  createRoom(
    actorId: string,
    commandId: string,
    hostName: string,
    startingChips: number,
  ): Promise<{ ok: true; roomCode: string } | { ok: false; error: string }>;
  /** Runs one command (RoomService.execute). */
  execute(
    roomCode: string,
    actorId: string,
    commandId: string,
    command: Command,
    options?: RoomsExecuteOptions,
  ): Promise<RoomsOutcome>;
  /** Sends the room's current snapshot to its sockets (presence changed), in the room's queue. */
  broadcastCurrent(roomCode: string): Promise<void>;
  /**
   * Deletes an idle room unless `stillActive()`, or it is a game (in progress or over) whose last
   * activity is not before `playingSince` (RoomService.expire). True when deleted.
   */
  expire(roomCode: string, stillActive: () => boolean, playingSince?: number): Promise<boolean>;
  /** Refuses new commands from now on (graceful shutdown); queued ones still run. */
  stopAccepting(): void;
  /** Resolves when every queued command has finished. */
  drain(): Promise<void>;
}

/** A RoomView over a record in this thread. */
class RecordView implements RoomView {
  constructor(readonly record: StoredRoom) {}
  get roomCode(): string {
    return this.record.room.roomCode;
  }
  get version(): number {
    return this.record.version;
  }
  has(playerId: string): boolean {
    return isInRoom(this.record.room, playerId);
  }
  get ended(): boolean {
    return this.record.room.status === 'ENDED';
  }
  linkPending(playerId: string): boolean {
    if (!isInRoom(this.record.room, playerId)) return false;
    const seat = this.record.room.players[playerId];
    return seat?.seatLink !== undefined || seat?.seatClaim !== undefined;
  }
  holds(playerId: string, link: string): boolean {
    if (!isInRoom(this.record.room, playerId)) return false;
    const seat = this.record.room.players[playerId];
    return seat !== undefined && holdsSeat(seat, link);
  }
  departed(playerId: string): boolean {
    return leftDuringGame(this.record.room, playerId);
  }
  get activity(): number {
    return tableActivity(this.record.room);
  }
}

const viewOf = (record: StoredRoom | null) => (record ? new RecordView(record) : null);

/** The rooms on this thread: `service` over `store`, snapshots by `broadcaster`. */
export function directRooms(service: RoomService, store: RoomStore, broadcaster: Broadcaster): Rooms {
  const recordOf = (view: RoomView): StoredRoom => {
    if (!(view instanceof RecordView)) throw new TypeError('directRooms: not one of its views');
    return view.record;
  };
  return {
    runExclusive: (roomCode, fn) => service.runExclusive(roomCode, fn),
    load: async (roomCode) => viewOf(await store.load(roomCode)),
    async snapshotOf(view, log) {
      const record = recordOf(view);
      const snapshot = await broadcaster.snapshotOf(record);
      return log === 'whole' ? snapshot : logDelta(snapshot, record.room.nextEventSeq);
    },
    async createRoom(actorId, commandId, hostName, startingChips) {
      const created = await service.createRoom(actorId, commandId, hostName, startingChips);
      return created.ok ? { ok: true, roomCode: created.record.room.roomCode } : created;
    },
    async execute(roomCode, actorId, commandId, command, options = {}) {
      const { onCommitted, prepare } = options;
      const outcome = await service.execute(roomCode, actorId, commandId, command, {
        ...(onCommitted ? { onCommitted: (record: StoredRoom) => onCommitted(new RecordView(record)) } : {}),
        ...(prepare ? { prepare } : {}),
      });
      return outcome.ok
        ? { ok: true, version: outcome.version, view: viewOf(outcome.record), duplicate: outcome.duplicate }
        : outcome;
    },
    broadcastCurrent: (roomCode) => service.broadcastCurrent(roomCode),
    expire: (roomCode, stillActive, playingSince) => service.expire(roomCode, stillActive, playingSince),
    stopAccepting: () => service.stopAccepting(),
    drain: () => service.drain(),
    touch: (roomCodes, now) => store.touch(roomCodes, now),
    listIdle: (before) => store.listIdle(before),
    increment: (counters) => store.increment(counters),
    readCounters: (keys) => store.readCounters(keys),
  };
}
