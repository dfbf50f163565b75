/**
 * The event log: the most recent events of a room, numbered, timed and tagged with the hand.
 */
import { LOG_LIMIT } from './room';
import type { GameEvent, LoggedEvent, Room } from './types';

/**
 * A logged event: the event's own fields, then `seq`, `at` and `handNumber`, in that order (the order
 * JSON.stringify writes). Made by a constructor rather than a spread (`{ ...event, seq, at, handNumber }`)
 * so that every field sits in the object itself: a spread's copy has room for the event's fields only
 * and puts the last three in a property array of their own, one more object for each of a room's 50
 * events that every major GC marks (~50K at 1,000 rooms; bench/README.md, session 9). The instances'
 * prototype is this function's; they are plain data otherwise (own enumerable fields only).
 */
const LoggedEventObject = function (
  this: { seq: number; at: number; handNumber: number },
  event: GameEvent,
  seq: number,
  at: number,
  handNumber: number,
) {
  Object.assign(this, event);
  this.seq = seq;
  this.at = at;
  this.handNumber = handNumber;
} as unknown as new (
  event: GameEvent,
  seq: number,
  at: number,
  handNumber: number,
) => LoggedEvent;

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
    old.push(new LoggedEventObject(events[i] as GameEvent, seq++, now, handNumber));
  }
  return { log: old, nextEventSeq: room.nextEventSeq + events.length };
}
