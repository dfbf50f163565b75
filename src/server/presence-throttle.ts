/**
 * How often a room's phones are told that someone came or went (presence): at once, then at most once
 * a `intervalMs` window, the last change always told when its window ends.
 *
 * Why (the session-33 security audit): a stranger with the room code, never approved, connected,
 * resumed the room and disconnected in a loop, ~1,200 times in 5 s from one script; each came and went
 * was a snapshot to every phone at the table (~470 a second, ~0.9 MB/s), and a phone on a weak link
 * fell behind and was dropped as a slow consumer. A limit per connection does not hold it, and the
 * handshakes an IP may make (connection-limit.ts, 600 a minute) still allow ten changes a second, as
 * would several IPs. A real phone's presence changes a few times a minute at most.
 *
 * Its own clock (performance.now): the server's injectable clock is frozen in tests.
 */
export interface PresenceThrottle {
  /**
   * True when the caller may tell the room now (and it counts as told); false when the room was told
   * within the window: then a telling is scheduled for the window's end (once), by `announce`.
   */
  take(roomCode: string): boolean;
  /** Forgets rooms not told for a window (called now and then). */
  sweep(): void;
  /** Cancels the scheduled tellings (shutdown). */
  close(): void;
}

export function presenceThrottle(intervalMs: number, announce: (roomCode: string) => void): PresenceThrottle {
  const toldAt = new Map<string, number>();
  const scheduled = new Map<string, NodeJS.Timeout>();
  return {
    take(roomCode) {
      const t = performance.now();
      const at = toldAt.get(roomCode);
      if (at === undefined || t - at >= intervalMs) {
        toldAt.set(roomCode, t);
        return true;
      }
      if (!scheduled.has(roomCode)) {
        const timer = setTimeout(
          () => {
            scheduled.delete(roomCode);
            toldAt.set(roomCode, performance.now());
            announce(roomCode);
          },
          Math.max(0, at + intervalMs - t),
        );
        timer.unref();
        scheduled.set(roomCode, timer);
      }
      return false;
    },
    sweep() {
      const t = performance.now();
      for (const [roomCode, at] of toldAt)
        if (t - at >= intervalMs && !scheduled.has(roomCode)) toldAt.delete(roomCode);
    },
    close() {
      for (const timer of scheduled.values()) clearTimeout(timer);
      scheduled.clear();
      toldAt.clear();
    },
  };
}
