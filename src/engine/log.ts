/**
 * The event log: the most recent events of a room, numbered, timed and tagged with the hand.
 */
import { LOG_LIMIT } from './room';
import type { GameEvent, LoggedEvent, Room } from './types';

/**
 * Returns the log and next sequence number after appending `events` at time `now` for hand
 * `handNumber`. Keeps only the last LOG_LIMIT (50) entries; never mutates the old log.
 */
export function appendLog(
  room: Room,
  events: readonly GameEvent[],
  now: number,
  handNumber: number,
): { log: LoggedEvent[]; nextEventSeq: number } {
  if (events.length === 0) return { log: room.log, nextEventSeq: room.nextEventSeq };
  let seq = room.nextEventSeq;
  const keepOld = Math.max(0, LOG_LIMIT - events.length);
  const old = room.log.length > keepOld ? room.log.slice(room.log.length - keepOld) : room.log.slice();
  const from = Math.max(0, events.length - LOG_LIMIT);
  seq += from;
  for (let i = from; i < events.length; i++) {
    old.push({ ...(events[i] as GameEvent), seq: seq++, at: now, handNumber });
  }
  return { log: old, nextEventSeq: room.nextEventSeq + events.length };
}
