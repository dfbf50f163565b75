/**
 * The rings both stores keep a room's applied command ids and hand log in (sqlite-store.ts,
 * redis-store.ts): an applied entry lives in slot `version % APPLIED_SLOTS`, a log event in slot
 * `seq % LOG_SLOTS`, so a save overwrites one slot of each in place. The engine's log is the last at
 * most LOG_LIMIT events, consecutive by seq, and only grows at its end (dropping from its start once
 * full), so its events fill distinct slots; a log that does not fit (not increasing, or spanning
 * LOG_SLOTS seqs or more: never the engine's) stays in the room JSON instead.
 */
import { LOG_LIMIT } from '../../engine/log-limit';
import type { LoggedEvent } from '../../engine/types';
import { APPLIED_COMMANDS_KEPT } from './room-store';

/** Slots of the applied command ring. */
export const APPLIED_SLOTS = APPLIED_COMMANDS_KEPT;
/** Slots of the log ring. */
export const LOG_SLOTS = LOG_LIMIT;

/** True when `log` fits the log ring: seqs increasing, fewer than LOG_SLOTS apart from first to last. */
export function fitsRing(log: readonly LoggedEvent[]): boolean {
  if (log.length === 0) return true;
  for (let i = 1; i < log.length; i++) if (log[i]!.seq <= log[i - 1]!.seq) return false;
  return log[log.length - 1]!.seq - log[0]!.seq < LOG_SLOTS;
}

/** The highest seq the log slots hold after storing `log`: null when they hold none. */
export function logLast(log: readonly LoggedEvent[], inRing: boolean): number | null {
  return inRing && log.length > 0 ? log[log.length - 1]!.seq : null;
}

/** What a save of a room's log does to its ring: see ringUpdate. */
export interface RingUpdate {
  /** fitsRing(log). */
  fits: boolean;
  /** When `fits`: the index of `log`'s first event with a seq above the one given (log.length: none). */
  from: number;
  /**
   * True when the short way applied (below): log[0..from) are the last `from` events of `previous`,
   * the very same objects, so `previous` dropped exactly its first `previous.length - from` events.
   */
  tail: boolean;
}

/**
 * fitsRing(log), and where the events newer than `logLastBefore` start, without reading every event
 * when it can: a save at 1,000 rooms read all 50 (each in its own place in the heap, so most reads
 * missed the CPU cache: ~6–8 µs a save in bench/hot-path.ts, twice that in the loaded server).
 *
 * `previous`, when given, must be a log that fits (the room's log as last stored). The short way
 * applies when `log` is what the engine makes of it: the end of `previous` (the very same event
 * objects, compared as references without reading them; the last of them at or below
 * `logLastBefore`) followed by new events with increasing seqs above `logLastBefore`, spanning fewer
 * than LOG_SLOTS seqs in all. Then `log` increases, so it fits, and only its new events, the last
 * old one and its first one are read. Anything else takes the whole walk.
 */
export function ringUpdate(
  log: readonly LoggedEvent[],
  logLastBefore: number,
  previous: readonly LoggedEvent[] | undefined,
): RingUpdate {
  // The new events, walked back from the end while they are above logLastBefore and decreasing.
  let from = log.length;
  let above = Number.POSITIVE_INFINITY;
  let increasing = true;
  while (from > 0) {
    const seq = log[from - 1]!.seq;
    if (seq <= logLastBefore) break;
    if (seq >= above) {
      increasing = false;
      break;
    }
    above = seq;
    from--;
  }
  if (increasing && previous !== undefined && from <= previous.length && sameTail(log, from, previous)) {
    const fits = log.length === 0 || log[log.length - 1]!.seq - log[0]!.seq < LOG_SLOTS;
    if (fits) return { fits, from, tail: true };
  }
  // A fitting log increases, so the walk back above found exactly its events above logLastBefore.
  const fits = fitsRing(log);
  return { fits, from: fits ? from : log.length, tail: false };
}

/** True when log[0..count) are the last `count` events of `previous`, the same objects in order. */
function sameTail(log: readonly LoggedEvent[], count: number, previous: readonly LoggedEvent[]): boolean {
  const offset = previous.length - count;
  for (let i = 0; i < count; i++) if (log[i] !== previous[offset + i]) return false;
  return true;
}
