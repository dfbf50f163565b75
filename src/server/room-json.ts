/**
 * The JSON text of a room (exactly JSON.stringify(room)) for the store and the broadcast, without
 * stringifying its parts more often than needed.
 *
 * What a command's room needs stringified: the store's row (the room with its log empty, since the log
 * is in its own slots) and the broadcast (the room with its log cut to the command's new events,
 * log-delta.ts), plus each new event once more for the store's journal entry. Both copies of the room
 * differ only in `log`, so the second reuses the first's skeleton (below); each new event's JSON is
 * computed once and reused for a while (immutableJson). The whole log (50 events, ~9.6 of ~13 KB) is
 * stringified only for a full snapshot (a phone subscribing), which is rare.
 *
 * Nothing per room is remembered: an earlier version kept each room's whole JSON with the room object
 * (for the broadcast to reuse), which held ~11 KB per room in the old generation until the next command
 * and raised the server's peak RSS by ~100 MB at 1,000 rooms. Another kept every log event's JSON for
 * as long as the event lived (a WeakMap: 50,000 entries at 1,000 rooms, each string in the old
 * generation and the table walked by every GC), when only the newest events' are ever asked for twice.
 */
import { randomBytes } from 'node:crypto';
import { Decoder, Encoder, PacketType } from 'socket.io-parser';
import type { Room } from '../engine/types';

/** How many of the most recently stringified objects immutableJson keeps the JSON of. */
const RECENT_JSON = 64;
const recentValues: (object | undefined)[] = new Array(RECENT_JSON).fill(undefined);
const recentJson: string[] = new Array(RECENT_JSON).fill('');
let recentNext = 0;

/**
 * JSON.stringify(value), reused when `value` was one of the last RECENT_JSON objects given: a command's
 * new log events are stringified for the journal entry and again for the broadcast, in the same turn.
 * Only for objects never mutated after (log events, applied command entries). Compared by reference,
 * newest first; the last RECENT_JSON objects stay referenced (a few KB).
 */
export function immutableJson(value: object): string {
  for (let k = 1; k <= RECENT_JSON; k++) {
    const i = (recentNext - k + RECENT_JSON) % RECENT_JSON;
    if (recentValues[i] === value) return recentJson[i]!;
  }
  const json = JSON.stringify(value);
  recentValues[recentNext] = value;
  recentJson[recentNext] = json;
  recentNext = (recentNext + 1) % RECENT_JSON;
  return json;
}

/** JSON.stringify(list), from each (immutable) element's JSON (immutableJson). */
function immutableListJson(list: readonly object[]): string {
  let out = '[';
  for (let i = 0; i < list.length; i++)
    out += i === 0 ? immutableJson(list[i]!) : `,${immutableJson(list[i]!)}`;
  return `${out}]`;
}

/**
 * The JSON of a room's keys other than `log`, split where the log's JSON goes: `before` ends with
 * `"log":`, `after` starts with what follows the log (a comma or the closing brace).
 */
interface Skeleton {
  room: Room;
  keys: string[];
  before: string;
  after: string;
}

/**
 * The skeleton of the last room stringified. A command's room is stringified twice in a row: for the
 * store (its log empty, sqlite-store.ts) and for the broadcast (its log cut to the new events,
 * log-delta.ts); both are copies of the committed room that differ only in `log`, so the second reuses
 * the first's skeleton (~13 µs a command at 1,000 rooms, bench/README.md). One slot only: a skeleton
 * is ~3 KB, and keeping one per room would hold them until each room's next command.
 */
let lastSkeleton: Skeleton | null = null;

/** True when `room` has `skeleton`'s keys in its order, each holding the very same value, `log` aside. */
function fits(skeleton: Skeleton, room: Room, keys: string[]): boolean {
  if (keys.length !== skeleton.keys.length) return false;
  const values = room as unknown as Record<string, unknown>;
  const known = skeleton.room as unknown as Record<string, unknown>;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    if (key !== skeleton.keys[i]) return false;
    if (key !== 'log' && values[key] !== known[key]) return false;
  }
  return true;
}

/**
 * Stands in for the log while the rest of a room is stringified: a string no player can type (control
 * characters and a random part), so its JSON after `"log":` marks the one place the log's JSON goes.
 * Exported for tests.
 */
export const LOG_MARK = `\u0001log-${randomBytes(12).toString('hex')}\u0001`;
const LOG_MARK_JSON = `"log":${JSON.stringify(LOG_MARK)}`;
const LOG_KEY_JSON_LENGTH = '"log":'.length;

/**
 * `room`'s skeleton (the last one when it fits), or null when the room has no log list. Made by one
 * JSON.stringify of the room with the mark in place of its log, cut around the mark: a stringify per
 * key and the concatenations between them allocated ~7 KB a command, much of it found in the old
 * generation by the sampling heap profiler (so more major GCs; bench/README.md, session 7). One call
 * allocates less, though still ~3× its text: JSON.stringify builds it in growing parts (~11 KB for
 * the ~3.2 KB of a room without its log; session 8).
 */
function skeletonOf(room: Room): Skeleton | null {
  const keys = Object.keys(room);
  if (lastSkeleton !== null && fits(lastSkeleton, room, keys)) return lastSkeleton;
  if (!Array.isArray(room.log)) return null;
  const json = JSON.stringify({ ...room, log: LOG_MARK });
  const at = json.indexOf(LOG_MARK_JSON);
  // Never twice, unless a nested value held the mark under a key named log: then the plain
  // stringify is the safe answer.
  if (at < 0 || json.indexOf(LOG_MARK_JSON, at + 1) >= 0) return null;
  lastSkeleton = {
    room,
    keys,
    before: json.slice(0, at + LOG_KEY_JSON_LENGTH),
    after: json.slice(at + LOG_MARK_JSON.length),
  };
  return lastSkeleton;
}

/**
 * JSON.stringify(room), byte for byte: the top-level keys in the room's own order, each value
 * stringified as JSON.stringify would (undefined and function values left out), the log from its
 * events' JSON (immutableJson), the rest from the last room's skeleton when only the log differs. Rooms
 * and their log events must never be mutated (the engine never does).
 */
export function roomJson(room: Room): string {
  return joinedParts(roomJsonParts(room));
}

/** roomJsonParts' parts joined by concatenation, not `join`, so that nothing is copied until the text is written. */
function joinedParts(parts: readonly string[]): string {
  return parts.length === 3 ? `${parts[0]}${parts[1]}${parts[2]}` : parts[0]!;
}

/** roomJson(room) in parts that join into it, for a writer that can take them as they are (the journal). */
export function roomJsonParts(room: Room): string[] {
  const skeleton = skeletonOf(room);
  if (skeleton === null) return [JSON.stringify(room)];
  return [skeleton.before, immutableListJson(room.log), skeleton.after];
}

/** What isSnapshot finds: a RoomSnapshot's shape. */
type Snapshot = { version: number; room: Room; presence: Record<string, boolean>; logFrom?: number };

/** A RoomSnapshot with its keys in the order its builders write them (so the text is JSON.stringify's). */
function isSnapshot(value: unknown): value is Snapshot {
  if (typeof value !== 'object' || value === null) return false;
  const keys = Object.keys(value);
  return (
    (keys.length === 3 || (keys.length === 4 && keys[3] === 'logFrom')) &&
    keys[0] === 'version' &&
    keys[1] === 'room' &&
    keys[2] === 'presence'
  );
}

/**
 * Where keepSnapshotEventJson leaves a snapshot's event JSON and its parts: symbol keys, which neither
 * JSON.stringify nor Object.keys (isSnapshot) sees.
 */
const EVENT_JSON = Symbol('chipless.snapshotEventJson');
const EVENT_PARTS = Symbol('chipless.snapshotEventParts');

/**
 * A snapshot event's JSON (snapshotEventJson) in the parts that join into it: `head`, then the room's
 * JSON as roomJsonParts makes it (`before` its log, the `log`, `after` it: the very strings of the
 * room's skeleton), then `tail`. What lets a Redis save send the room's JSON once for the row and the
 * publication (redis-store.ts, PublicationParts).
 */
export interface SnapshotEventParts {
  head: string;
  before: string;
  log: string;
  after: string;
  tail: string;
}

/** snapshotEventJson(['room', snapshot]) as its head, its room's JSON (roomJsonParts, and joined) and its tail. */
function eventPieces(snapshot: Snapshot): { head: string; room: string[]; roomJson: string; tail: string } {
  const { version, room, presence, logFrom } = snapshot;
  const end = 'logFrom' in snapshot ? `,"logFrom":${JSON.stringify(logFrom)}}]` : '}]';
  const parts = roomJsonParts(room);
  return {
    head: `["room",{"version":${JSON.stringify(version)},"room":`,
    room: parts,
    roomJson: joinedParts(parts),
    tail: `,"presence":${JSON.stringify(presence)}${end}`,
  };
}

/**
 * snapshotEventJson(['room', snapshot]), kept on `snapshot` so that every later encoding of that
 * event (snapshotEventJson: the publication, the frame for this process's sockets) reuses it, with its
 * parts (keptSnapshotEventParts). For a commit in Redis mode (broadcaster.ts): its snapshot is encoded
 * for the publication before the save and for the local sockets after Redis answers, when other rooms'
 * commands have usually replaced the one skeleton roomJson keeps, so the room was stringified again
 * (~1.6 skeletons a command instead of ~1, each ~11 KB of garbage; bench/README.md, session 13).
 * `snapshot` must not change afterwards (a snapshot never does: logDelta and snapshotOf build new ones)
 * and must have a snapshot's keys; the JSON lives as long as the snapshot does.
 */
export function keepSnapshotEventJson(snapshot: object): string {
  const kept = (snapshot as { [EVENT_JSON]?: string })[EVENT_JSON];
  if (kept !== undefined) return kept;
  if (!isSnapshot(snapshot)) throw new TypeError('keepSnapshotEventJson: not a room snapshot');
  const { head, room, roomJson: roomText, tail } = eventPieces(snapshot);
  const json = `${head}${roomText}${tail}`;
  Object.defineProperty(snapshot, EVENT_JSON, { value: json });
  if (room.length === 3) {
    const [before, log, after] = room as [string, string, string];
    const parts: SnapshotEventParts = { head, before, log, after, tail };
    Object.defineProperty(snapshot, EVENT_PARTS, { value: parts });
  }
  return json;
}

/** The parts of the event JSON keepSnapshotEventJson kept on `snapshot`, if it kept any. */
export function keptSnapshotEventParts(snapshot: unknown): SnapshotEventParts | undefined {
  if (typeof snapshot !== 'object' || snapshot === null) return undefined;
  return (snapshot as { [EVENT_PARTS]?: SnapshotEventParts })[EVENT_PARTS];
}

/**
 * JSON.stringify(data) for an event's data `['room', snapshot]`, with the room's JSON from roomJson
 * (its skeleton reused), or as kept by keepSnapshotEventJson; null for any other data.
 */
export function snapshotEventJson(data: unknown): string | null {
  if (!Array.isArray(data) || data.length !== 2 || data[0] !== 'room') return null;
  const kept = (data[1] as { [EVENT_JSON]?: string } | null)?.[EVENT_JSON];
  if (kept !== undefined) return kept;
  if (!isSnapshot(data[1])) return null;
  const { head, roomJson: roomText, tail } = eventPieces(data[1]);
  return `${head}${roomText}${tail}`;
}

/**
 * A snapshot whose JSON text is already made: what the socket thread sends when the rooms live on their
 * own thread (thread-rooms.ts), which sends their JSON, not the objects. The encoder below writes the
 * text as it is into a 'room' event or a subscription's acknowledgement; anything else that stringifies
 * one (toJSON) gets the same JSON, parsed back.
 */
export class EncodedSnapshot {
  /** `version` is the snapshot's (what its JSON says). */
  constructor(
    readonly version: number,
    readonly json: string,
  ) {}
  toJSON(): unknown {
    return JSON.parse(this.json);
  }
}

/** The text of an acknowledgement `[{ ok: true, data: EncodedSnapshot }]`, or null for any other data. */
function encodedAckJson(data: unknown): string | null {
  if (!Array.isArray(data) || data.length !== 1) return null;
  const res = data[0] as { ok?: unknown; data?: unknown } | null;
  if (typeof res !== 'object' || res === null || res.ok !== true || !(res.data instanceof EncodedSnapshot))
    return null;
  return Object.keys(res).length === 2 ? `[{"ok":true,"data":${res.data.json}}]` : null;
}

/**
 * Socket.IO's encoder, except that a 'room' snapshot event reuses the room's JSON (roomJson) and skips
 * the scan for binary attachments (a snapshot has none). A broadcast's room (log cut by logDelta) is a
 * new object, so its JSON is computed here once for all the room's sockets. An EncodedSnapshot, in an
 * event or an acknowledgement, is written as it is. The text is exactly what the default encoder
 * produces.
 */
class SnapshotEncoder extends Encoder {
  override encode(packet: {
    type: number;
    nsp: string;
    id?: number;
    data?: unknown[];
  }): Array<string | Buffer> {
    if (packet.nsp === '/') {
      if (packet.type === PacketType.EVENT && packet.id === undefined) {
        const data = packet.data;
        if (
          Array.isArray(data) &&
          data.length === 2 &&
          data[0] === 'room' &&
          data[1] instanceof EncodedSnapshot
        )
          return [`2["room",${data[1].json}]`];
        const json = snapshotEventJson(data);
        if (json !== null) return [`2${json}`];
      } else if (packet.type === PacketType.ACK && packet.id !== undefined) {
        const json = encodedAckJson(packet.data);
        if (json !== null) return [`3${packet.id}${json}`];
      }
    }
    return super.encode(packet as Parameters<Encoder['encode']>[0]);
  }
}

/** The `parser` option of the Socket.IO server. */
export const snapshotParser = { Encoder: SnapshotEncoder, Decoder, PacketType, protocol: 5 };
