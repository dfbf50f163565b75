/**
 * The storage port of the room service (DESIGN.md): what a store keeps of a room (StoredRoom: the room,
 * its version and its recent applied command ids) and the RoomStore interface that the SQLite store
 * (the default) and the Redis store (scale-out) implement, both held to one contract suite (contract.ts).
 */
import type { Room } from '../../engine/types';

/**
 * How many of its most recent applied command ids a room keeps (a retry of an older one is taken as
 * a new command). Here rather than in the room service, so the SQLite writer thread can use it without
 * loading the service.
 */
export const APPLIED_COMMANDS_KEPT = 100;

/** A command id the room has applied, kept so a retried command is acknowledged again, never re-applied. */
export interface AppliedCommand {
  commandId: string;
  actorId: string;
  /** The version the command produced. */
  version: number;
}

/** A room as stored: the engine's room, its version and the recent command ids, written together. */
export interface StoredRoom {
  room: Room;
  /** 1 when created; +1 per committed change. */
  version: number;
  /**
   * Applied command ids, newest last. As loaded: the most recent APPLIED_COMMANDS_KEPT. As given to
   * `save`: at least those newer than the expected version (the room service gives its new command's
   * only, or the loaded list and it), since a store holds the older ones already; as given to
   * `create`: all of them.
   */
  appliedCommands: AppliedCommand[];
}

/**
 * A message for a Redis pub/sub channel: a commit's broadcast as the Socket.IO adapter would publish it
 * (redis-adapter.ts), handed to `save` so it goes out with the write (RoomStore.publishesOnSave).
 */
export interface Publication {
  channel: string;
  message: string;
  /**
   * `message` cut around the room JSON it holds, when the encoder knows where that is (redis-adapter.ts:
   * a commit's snapshot), so that a store which stores the same room need not search the message for it.
   */
  parts?: PublicationParts;
}

/**
 * A publication's message in parts: `head + before + mid + after + tail === message`, where `before`
 * and `after` are a room JSON's parts around its log as roomJsonParts makes them (room-json.ts) and
 * `mid` is the log the message holds there.
 */
export interface PublicationParts {
  head: string;
  before: string;
  mid: string;
  after: string;
  tail: string;
}

/**
 * Durable home of rooms. Every write is conditional on the version read (optimistic concurrency),
 * so two writers (two processes on Redis) can never both commit a change to the same version.
 * Implementations: SQLite (default, embedded) and Redis (scale-out); one contract test suite runs against both.
 */
export interface RoomStore {
  /** The room and its version, or null when there is none. */
  load(roomCode: string): Promise<StoredRoom | null>;
  /** Stores a new room. False (and nothing written) when the code is already taken. */
  create(record: StoredRoom): Promise<boolean>;
  /**
   * Replaces the room when the stored version equals `expectedVersion` (record.version is the new one),
   * adding the record's applied entries newer than `expectedVersion` to those it keeps. False (and
   * nothing written) on a conflict or when the room no longer exists.
   */
  save(record: StoredRoom, expectedVersion: number, publication?: Publication): Promise<boolean>;
  /**
   * True when `save` publishes a `publication` given to it atomically with the write: on Redis
   * whenever, and only when, the save succeeds, before its answer; other processes then hear of a
   * version exactly when it is stored. Stores without it (SQLite: one process) ignore the argument,
   * and the room service never passes one to them.
   */
  readonly publishesOnSave?: boolean;
  /** Deletes the room when the stored version equals `expectedVersion`. False when it did not. */
  delete(roomCode: string, expectedVersion: number): Promise<boolean>;
  /**
   * Marks the rooms active at `now` (keeps them from idle cleanup / refreshes their TTL) without a
   * version change; codes of rooms that do not exist are skipped. One call for many rooms, so the
   * periodic sweep pays for one write (one SQLite transaction) rather than one per room.
   */
  touch(roomCodes: readonly string[], now: number): Promise<void>;
  /** Codes of rooms whose last activity is before `before` (ms). */
  listIdle(before: number): Promise<string[]>;
  /** Adds to analytics counters atomically (keys like 'daily_analytics/2026-11-21/games_started'). */
  increment(counters: Record<string, number>): Promise<void>;
  /** Reads counters; missing ones are 0. */
  readCounters(keys: string[]): Promise<Record<string, number>>;
  /**
   * Resolves once the store answers, rejects when it does not within a second (GET /readyz). Only
   * stores that live elsewhere (Redis) have it; SQLite's file is this process's own.
   */
  ping?(): Promise<void>;
  /** Flushes and closes. */
  close(): Promise<void>;
}
