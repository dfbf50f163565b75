/**
 * One queue per key (a room code): `run` starts a task after everything queued before it under that
 * key and before everything queued after. Used by the room service (each command of a room alone) and
 * by the room thread's socket side (thread-rooms.ts), which keeps each room's steps on the socket
 * thread (subscribing, 'gone' notices, broadcasts) in the order the room's commits were made.
 */
export class KeyedQueue {
  private readonly tails = new Map<string, Promise<void>>();

  /** Runs `fn` alone for `key`. A failing `fn` rejects its own promise only. */
  run<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const prev = this.tails.get(key) ?? Promise.resolve();
    const result = prev.then(fn);
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return result;
  }

  /** Resolves when every queued task has finished (tasks queued meanwhile included). */
  async drain(): Promise<void> {
    while (this.tails.size > 0) await Promise.all([...this.tails.values()]);
  }
}
