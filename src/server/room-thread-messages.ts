/**
 * The messages between the socket thread (thread-rooms.ts) and the room thread (room-thread.ts). Every
 * request is `[id, ...Request]` and answered `[id, true, result]` or `[id, false, message]`; the room
 * thread says `['ready']` once its store is open, or `['failed', message]` when it cannot open it.
 */
import type { Command } from '../engine';
import type { GoneReason } from '../shared/protocol';
import type { StoredRoom } from './store/room-store';

/** What the room thread starts with (workerData). */
export interface RoomThreadData {
  dataDir: string;
  logLevel: string;
  /** RoomServiceDeps.cachedRooms; default the service's. */
  cachedRooms?: number;
  /** Set when the thread runs from the TypeScript sources: the module the boot script loads. */
  module?: string;
}

/** A room as the room thread sends it to the socket thread. */
export interface ViewData {
  roomCode: string;
  version: number;
  /** Its players' ids in the room's own order (the order of a snapshot's presence). */
  players: string[];
  /** The seq its next logged event will get (a presence change's logFrom). */
  nextEventSeq: number;
  /** Whether its game has ended (status ENDED). */
  ended: boolean;
  /**
   * The ids of its players whose seat holds a seat link not used yet or a kept claim (the engine's
   * `seatLink`, `seatClaim`), when asked for whole: only a subscription asks, so a command's view does
   * not carry it.
   */
  linkPending?: string[];
  /**
   * When asked for whole: the link whose claim last moved each seat that was moved by one (the
   * engine's `heldByLink`), by player id: which room-scoped credentials hold a seat (RoomView.holds).
   */
  heldByLink?: Record<string, string>;
  /** The table's last move (tableActivity, by this process's clock). */
  activity: number;
  /** The ids of the players who left or were removed during its game (its ledger's), when asked for whole. */
  departed?: string[];
  /** When asked for whole: the room's JSON, and its JSON with an empty log. */
  json?: { whole: string; none: string };
}

/**
 * What the socket side does for a commit, in this order (RoomService.announce's): 'gone' notices, the
 * caller's step after the commit ('committed', when it asked for one), then the snapshot broadcast. The
 * room thread cannot take these steps (they are the sockets'), so it hands them back with the answer.
 */
export type Effect =
  | { kind: 'gone'; reason: GoneReason; playerIds: string[] | null }
  | { kind: 'committed'; view: ViewData }
  /** A broadcast: the room's JSON with its log from `logFrom` on, for the players in `players`. */
  | { kind: 'snapshot'; version: number; players: string[]; room: string; logFrom: number };

/** The answer to 'execute'. */
export type ExecuteResult =
  | { ok: true; version: number; duplicate: boolean; view: ViewData | null; effects: Effect[] }
  | { ok: false; error: string };

/** What the socket side asks, and what each answers. */
export interface Requests {
  load: { args: [roomCode: string, whole: boolean]; result: ViewData | null };
  /** The stored record itself (tests and diagnostics; the socket side never needs it). */
  record: { args: [roomCode: string]; result: StoredRoom | null };
  create: {
    args: [actorId: string, commandId: string, hostName: string, startingChips: number];
    result: { ok: true; roomCode: string } | { ok: false; error: string };
  };
  execute: {
    args: [
      roomCode: string,
      actorId: string,
      commandId: string,
      command: Command,
      committedStep: boolean,
      whole: boolean,
    ];
    result: ExecuteResult;
  };
  /** The room's current snapshot (a presence change). */
  current: { args: [roomCode: string]; result: Effect[] };
  /** Deletes the idle room (the socket side has checked it has no sockets). */
  expire: { args: [roomCode: string, playingSince: number]; result: { deleted: boolean; effects: Effect[] } };
  touch: { args: [roomCodes: string[], now: number]; result: undefined };
  listIdle: { args: [before: number]; result: string[] };
  increment: { args: [counters: Record<string, number>]; result: undefined };
  readCounters: { args: [keys: string[]]; result: Record<string, number> };
  drain: { args: []; result: undefined };
  /** Drains, closes the store; the thread then ends. */
  close: { args: []; result: undefined };
}

export type RequestName = keyof Requests;
export type RequestMessage = {
  [K in RequestName]: [id: number, name: K, ...args: Requests[K]['args']];
}[RequestName];
export type ReplyMessage = [id: number, ok: true, result: unknown] | [id: number, ok: false, message: string];
/** How the room thread's start ended: its store open, or the error that stopped it (its name and message). */
export type StatusMessage = ['ready'] | ['failed', message: string, name: string];
