/**
 * Broadcasts carry only the new part of a room's hand log (RoomSnapshot.logFrom); phones keep the rest.
 * Both halves of that rule live here: `logDelta` (server: what a broadcast carries) and `mergeSnapshot`
 * (web: how a phone folds an incoming snapshot into the one it holds). Pure functions; no I/O.
 *
 * Why it is safe: every (re)connection starts with a full snapshot (the create, join or resume
 * acknowledgement), and Socket.IO delivers one connection's messages in order. The merge is a union of
 * events by `seq`, so a snapshot arriving late or twice changes nothing. When a broadcast's first
 * event is beyond the last one the phone knows (a broadcast was lost, or two processes' broadcasts
 * crossed on the way), the merge says so and the phone asks for a full snapshot again.
 */
import { LOG_LIMIT } from '../engine/log-limit';
import type { LoggedEvent } from '../engine/types';
import type { RoomSnapshot } from './protocol';

/** The snapshot to broadcast: `room.log` cut to the events with seq >= `logFrom`, and `logFrom` set. */
export function logDelta(snapshot: RoomSnapshot, logFrom: number): RoomSnapshot {
  const { log } = snapshot.room;
  let start = log.length;
  while (start > 0 && log[start - 1]!.seq >= logFrom) start--;
  return {
    version: snapshot.version,
    room: { ...snapshot.room, log: log.slice(start) },
    presence: snapshot.presence,
    logFrom,
  };
}

/** The result of folding a snapshot into the one a phone holds. */
export interface Merged {
  /** The newest state with the union of both logs (the last LOG_LIMIT events); never has logFrom. */
  snapshot: RoomSnapshot;
  /** True when events may be missing from the log: ask the server for a full snapshot. */
  missing: boolean;
}

/**
 * Folds `next` (a broadcast or an acknowledgement) into `prev` (what the phone holds, or null). The
 * newer version wins the state (at the same version, `next`'s presence: presence changes keep the
 * version); the log is the union of both by seq. Returns `prev` itself when nothing changed.
 */
export function mergeSnapshot(prev: RoomSnapshot | null, next: RoomSnapshot): Merged {
  if (prev === null || prev.room.roomCode !== next.room.roomCode) {
    return { snapshot: whole(next, next.room.log), missing: next.logFrom !== undefined };
  }
  const newest =
    next.version > prev.version || (next.version === prev.version && !samePresence(prev, next)) ? next : prev;
  const log = unionBySeq(prev.room.log, next.room.log);
  const missing = next.logFrom !== undefined && next.logFrom > prev.room.nextEventSeq;
  if (newest === prev && log === prev.room.log) return { snapshot: prev, missing };
  return { snapshot: whole(newest, log), missing };
}

/**
 * Whether `log` holds every event with seq in [from, to) that it could hold: when the log is full
 * (LOG_LIMIT), those older than its first event have left the window and are not wanted; a log that is
 * not full holds every event since the room began. A broadcast that ran ahead of another
 * (two processes' broadcasts crossing, Redis mode) leaves a hole the late one fills: the phone waits a
 * moment and checks this before asking for the whole room (use-room.ts).
 */
export function logCovers(log: readonly LoggedEvent[], from: number, to: number): boolean {
  const start = log.length >= LOG_LIMIT ? Math.max(from, (log[0] as LoggedEvent).seq) : from;
  const seqs = new Set(log.map((e) => e.seq));
  for (let seq = start; seq < to; seq++) if (!seqs.has(seq)) return false;
  return true;
}

function samePresence(a: RoomSnapshot, b: RoomSnapshot): boolean {
  const keys = Object.keys(a.presence);
  return keys.length === Object.keys(b.presence).length && keys.every((k) => a.presence[k] === b.presence[k]);
}

/** `snapshot` with `log` and without logFrom; `snapshot` itself when that is what it already is. */
function whole(snapshot: RoomSnapshot, log: LoggedEvent[]): RoomSnapshot {
  if (snapshot.room.log === log && snapshot.logFrom === undefined) return snapshot;
  const room = snapshot.room.log === log ? snapshot.room : { ...snapshot.room, log };
  // An acknowledgement's idle describes its own state, which won: kept (a resume after a phone woke,
  // its held log older than the acknowledgement's window; session 38's review). A broadcast has none.
  const { version, presence, idle } = snapshot;
  return idle === undefined ? { version, room, presence } : { version, room, presence, idle };
}

/**
 * Both logs' events once each, by seq ascending, the last LOG_LIMIT. Returns `b` itself when `a` adds
 * nothing to it, else `a` itself when `b` adds nothing.
 */
function unionBySeq(a: LoggedEvent[], b: LoggedEvent[]): LoggedEvent[] {
  const inB = new Set(b.map((e) => e.seq));
  const onlyInA = a.filter((e) => !inB.has(e.seq));
  if (onlyInA.length === 0) return b;
  // Every event of b is in a (seqs are unique within a log).
  if (onlyInA.length === a.length - b.length) return a;
  const all = [...onlyInA, ...b].sort((x, y) => x.seq - y.seq);
  return all.length > LOG_LIMIT ? all.slice(all.length - LOG_LIMIT) : all;
}
