/**
 * The rings both stores keep a room's applied command ids and hand log in (sqlite-store.ts,
 * redis-store.ts): an applied entry lives in slot `version % APPLIED_SLOTS`, a log event in slot
 * `seq % LOG_SLOTS`, so a save overwrites one slot of each in place. The engine's log is the last at
 * most LOG_LIMIT events, consecutive by seq, and only grows at its end (dropping from its start once
 * full), so its events fill distinct slots; a log that does not fit (not increasing, or spanning
 * LOG_SLOTS seqs or more: never the engine's) stays in the room JSON instead.
 */
import { LOG_LIMIT } from '../../engine/room';
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
