/**
 * The process's helper threads at a lower scheduling priority than its event loop.
 *
 * Besides the main thread (the event loop: every socket and broadcast, and in Redis mode every command)
 * and, in SQLite mode, the room thread (every command, thread-rooms.ts), a Node process runs
 * V8's platform threads (parallel scavenges, concurrent marking, compiling), libuv's pool and, with
 * SQLite, the store's writer thread (which lowers itself, sqlite-writer.ts). On a box with few cores
 * the garbage collector's helpers can take every core at once, and whatever else the commands wait
 * for is then not running: in Redis mode, redis-server, whose answer every commit waits for. With the
 * helpers at nice 10, the event loop and other processes at the default priority take the CPU first;
 * the helpers get what is left, and the garbage collector does the rest on the main thread.
 * Measured at 1,000 rooms on the 2-core box (bench/README.md, session 17): Redis mode's p99 was lower
 * in six pairs of runs of seven, its median about halved.
 *
 * Linux only: a thread's id names it to setpriority (/proc/self/task lists them). Elsewhere, or where
 * a thread cannot be changed, nothing changes. Threads started later (libuv's pool grows on demand, a
 * worker thread) get the priority of the thread that starts them.
 */
import { readdirSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';

/** The default nice value of the helper threads (HELPER_THREADS_NICE; 0 leaves them as they are). */
export const DEFAULT_HELPER_THREADS_NICE = 10;

/**
 * Lowers every thread of this process but the main one and those in `except` (the room thread,
 * thread-rooms.ts: it does the rooms' work every command waits for) to `nice` (never raises one already
 * lower in priority). Call it from the main thread. Returns the ids of the threads it changed.
 */
export function lowerHelperThreads(nice: number, except: readonly number[] = []): number[] {
  if (!Number.isInteger(nice) || nice <= 0 || nice > 19) return [];
  let tids: number[];
  try {
    tids = readdirSync('/proc/self/task').map(Number);
  } catch {
    return [];
  }
  // The main thread's id is the process id.
  return tids.filter((tid) => tid !== process.pid && !except.includes(tid) && lowerThread(tid, nice));
}

/**
 * Lowers thread `tid` (a Linux thread id) to `nice` if it runs at a higher priority; never raises it.
 * True when it changed; false when it was already as low, has ended, or may not be changed.
 */
export function lowerThread(tid: number, nice: number): boolean {
  if (!Number.isInteger(tid) || tid <= 0) return false;
  try {
    if (getPriority(tid) >= nice) return false;
    setPriority(tid, nice);
    return true;
  } catch {
    return false;
  }
}
