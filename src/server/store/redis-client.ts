/**
 * The project's node-redis client, as every Redis user here makes it (the room store, the Socket.IO
 * adapter, the durability check, the shared session secret): connecting with a clear error instead of
 * retrying forever, and the per-command path bounded without an AbortSignal per command.
 */
import { createClient } from 'redis';

/** A connected node-redis client. */
export type RedisClient = ReturnType<typeof newClient>;

function newClient(url: string, connectTimeout: number, commandTimeout: number, reconnect: () => boolean) {
  return createClient({
    url,
    // A command waits (queued while reconnecting) at most this long, so a Redis outage turns into
    // failed commands ('Something went wrong', the client retries) instead of a room queue stuck forever.
    commandOptions: { timeout: commandTimeout },
    socket: {
      connectTimeout,
      // Before the first connection: give up at once (the caller reports it). After: back off up to 2 s.
      reconnectStrategy: (retries) => (reconnect() ? Math.min(50 * 2 ** retries, 2000) : false),
    },
  });
}

/** How long a command waits for Redis by default, reconnection included (ms). */
export const DEFAULT_COMMAND_TIMEOUT_MS = 5000;

/** How to connect to Redis. */
export interface RedisConnectOptions {
  /** Gives up connecting after this many ms (default 5000). */
  connectTimeoutMs?: number;
  /** A command fails after waiting this long for Redis, reconnection included (default 5000). */
  commandTimeoutMs?: number;
  /** Connection errors after the first connect (the client keeps reconnecting). Default: ignored. */
  onError?: (err: Error) => void;
}

/**
 * Connects a node-redis client, failing with a clear error (instead of retrying forever) when Redis
 * cannot be reached within `connectTimeoutMs`. Once connected, the client reconnects on its own.
 */
export async function connectRedis(url: string, opts: RedisConnectOptions = {}): Promise<RedisClient> {
  let connected = false;
  const client = newClient(
    url,
    opts.connectTimeoutMs ?? 5000,
    opts.commandTimeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS,
    () => connected,
  );
  client.on('error', (err: Error) => {
    if (connected) opts.onError?.(err);
  });
  try {
    await client.connect();
    connected = true;
    return client;
  } catch (err) {
    client.destroy();
    throw new Error(`Redis unreachable at ${redactUrl(url)}: ${(err as Error).message}`);
  }
}

/** The URL without its password, for messages and logs. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '<invalid url>';
  }
}

/** Fails a command that waited for Redis longer than its deadline (see boundedCommands). */
export class RedisDeadlineError extends Error {
  constructor(ms: number) {
    super(`Redis did not answer within ${ms} ms`);
    this.name = 'RedisDeadlineError';
  }
}

/** Fails a command at once because the client is not connected (see boundedCommands). */
export class RedisNotReadyError extends Error {
  constructor() {
    super('Redis is not connected');
    this.name = 'RedisNotReadyError';
  }
}

/**
 * The client's commands for the per-command path (a save's script, a load, a broadcast's publish),
 * bounded without node-redis's own command timeout. That timeout makes an `AbortSignal.timeout` per
 * command: a signal, its listener and a timer that live the whole timeout (5 s) after the command is
 * answered, then a `DOMException` with its stack when the timer fires anyway. At 1,000 commands a
 * second that was ~10 µs a command on the main thread and much of Redis mode's old-generation
 * garbage (bench/README.md, session 10). Here instead:
 *
 * - a command sent while the client is not connected fails at once (RedisNotReadyError), so nothing
 *   waits in node-redis's offline queue through an outage (node-redis's timeout took it out of the
 *   queue when it fired; this never puts it there, except in the instant the connection drops);
 * - a command on a connection that does not answer (Redis frozen) fails after `timeoutMs`
 *   (RedisDeadlineError), with one plain timer, cleared when it is answered.
 *
 * As with node-redis's timeout, a command that timed out may still run on Redis later (it was sent).
 * A save carries the version it expects, and a command's answer given without a write is decided on a
 * fresh load (room-service.ts), so a late one can only take effect once and never over a newer room;
 * its retry is answered as the duplicate it is.
 */
export function boundedCommands(client: RedisClient, timeoutMs: number) {
  const untimed = client.withCommandOptions({ timeout: 0 });
  return <T>(send: (c: typeof untimed) => Promise<T>): Promise<T> => {
    if (!client.isReady) return Promise.reject(new RedisNotReadyError());
    let pending: Promise<T>;
    try {
      pending = send(untimed);
    } catch (err) {
      // Thrown before anything was sent (a bad argument): no deadline to keep.
      return Promise.reject(err);
    }
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => reject(new RedisDeadlineError(timeoutMs)), timeoutMs);
      pending.then(
        (value) => {
          clearTimeout(timer);
          resolve(value);
        },
        (err: unknown) => {
          clearTimeout(timer);
          reject(err);
        },
      );
    });
  };
}
