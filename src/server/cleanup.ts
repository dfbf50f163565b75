/**
 * Idle-room housekeeping (SPEC section 9, issue 3): every CLEANUP_INTERVAL_MS, rooms with a connected
 * player are touched (a connected player counts as activity), then rooms idle for longer than
 * ROOM_IDLE_MS are deleted through their queue and their sockets told 'gone' {reason: 'expired'}.
 * A game in progress (PLAYING) is kept until PLAYING_IDLE_MS (12 hours) after its last command instead:
 * a break with every phone locked (their sockets close within a minute) must not cost the table its
 * game, chips and all. So is a game that is over (ENDED), from End Game on: its results say who owes
 * whom, and the phones put away on them must find them again when someone asks later that night.
 * A lobby goes after the spec's 10 minutes.
 * With several processes each touches the rooms its own sockets watch, so the store sees every one,
 * and an idle room is deleted only when no process has a socket in it.
 */
import type { Config } from './config';
import type { Logger } from './logger';
import type { Rooms } from './rooms';
import { type ChiplessServer, isRoomCode } from './socket-gateway';

/** Rooms touched per store write by the sweep. */
export const TOUCH_BATCH = 200;

export interface CleanupDeps {
  io: ChiplessServer;
  rooms: Rooms;
  config: Pick<Config, 'roomIdleMs' | 'playingIdleMs' | 'cleanupIntervalMs'>;
  logger: Logger;
  now: () => number;
}

/** The periodic sweep. `runOnce` is exposed for tests and shutdown-free manual runs. */
export interface Cleanup {
  runOnce(): Promise<{ touched: number; deleted: number }>;
  stop(): void;
}

/** Starts the periodic sweep (the timer does not keep the process alive). */
export function startCleanup(deps: CleanupDeps): Cleanup {
  const { io, rooms, config, logger, now } = deps;
  const localRooms = () => io.of('/').adapter.rooms;
  const hasLocalSockets = (code: string) => (localRooms().get(code)?.size ?? 0) > 0;
  let running: Promise<{ touched: number; deleted: number }> | null = null;

  const sweep = async () => {
    const t = now();
    const watched: string[] = [];
    for (const [code, sockets] of localRooms()) {
      if (isRoomCode(code) && sockets.size > 0) watched.push(code);
    }
    // A few hundred rooms per write, with a turn of the event loop between: commands waiting meanwhile
    // run in between instead of behind one write of every room (~30 µs a room on SQLite).
    for (let i = 0; i < watched.length; i += TOUCH_BATCH) {
      if (i > 0) await new Promise<void>((resolve) => setImmediate(resolve));
      await rooms.touch(watched.slice(i, i + TOUCH_BATCH), t);
    }
    const touched = watched.length;
    let deleted = 0;
    // Once a process did not answer, the rest of this sweep's rooms are kept (the next sweep asks again).
    let othersAnswer = true;
    /**
     * Whether a socket on another process watches the room. The other processes touch the rooms they
     * watch only at their own sweeps: a phone that came back on one of them to a room idle past
     * ROOM_IDLE_MS (every phone asleep meanwhile) would otherwise have its room deleted under it by
     * this process's sweep. True when it cannot be told (a process not answering): keep the room.
     */
    const watchedElsewhere = async (code: string): Promise<boolean> => {
      if (!othersAnswer) return true;
      try {
        return (await io.in(code).fetchSockets()).length > 0;
      } catch (err) {
        othersAnswer = false;
        logger.warn({ err, room: code }, 'cleanup: other processes did not answer; idle rooms kept');
        return true;
      }
    };
    for (const code of await rooms.listIdle(t - config.roomIdleMs)) {
      if (hasLocalSockets(code) || (await watchedElsewhere(code))) continue;
      if (await rooms.expire(code, () => hasLocalSockets(code), t - config.playingIdleMs)) deleted++;
    }
    if (touched > 0 || deleted > 0) logger.info({ touched, deleted }, 'cleanup');
    return { touched, deleted };
  };

  const runOnce = () => {
    running ??= sweep().finally(() => {
      running = null;
    });
    return running;
  };

  const timer = setInterval(() => {
    runOnce().catch((err: unknown) => logger.warn({ err }, 'cleanup failed'));
  }, config.cleanupIntervalMs);
  timer.unref();

  return { runOnce, stop: () => clearInterval(timer) };
}
