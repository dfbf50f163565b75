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
 *
 * The Socket.IO encoder that writes snapshots with this JSON is snapshot-encoder.ts.
 */
import { randomBytes } from 'node:crypto';
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
export function joinedParts(parts: readonly string[]): string {
  return parts.length === 3 ? `${parts[0]}${parts[1]}${parts[2]}` : parts[0]!;
}

/** roomJson(room) in parts that join into it, for a writer that can take them as they are (the journal). */
export function roomJsonParts(room: Room): string[] {
  const skeleton = skeletonOf(room);
  if (skeleton === null) return [JSON.stringify(room)];
  return [skeleton.before, immutableListJson(room.log), skeleton.after];
}
