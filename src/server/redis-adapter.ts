/**
 * Socket.IO's Redis adapter (STORE=redis): a broadcast to a room made by one server process reaches the
 * sockets of that room connected to every other process, through Redis pub/sub. Two node-redis
 * connections: one publishes, one is held in subscribed mode.
 */
import { createAdapter } from '@socket.io/redis-adapter';
import { connectRedis } from './store/redis-store';

/** The adapter factory to hand to Socket.IO (`new Server(http, { adapter })`) and how to release it. */
export interface RedisAdapterHandle {
  adapter: ReturnType<typeof createAdapter>;
  /** Closes both Redis connections (after the Socket.IO server is closed). */
  close: () => Promise<void>;
}

/** Options of the Redis adapter. */
export interface RedisAdapterOptions {
  /** Prefix of the pub/sub channels (default 'chipless:'); processes that share rooms must share it. */
  keyPrefix?: string;
  /** Gives up connecting after this many ms (default 5000). */
  connectTimeoutMs?: number;
  /**
   * How long a cross-process request (fetchSockets: presence) waits for every process (default 5000).
   * An unresponsive process makes each such request wait this long.
   */
  requestsTimeoutMs?: number;
  /** Connection errors after the first connect (the clients keep reconnecting). */
  onError?: (err: Error) => void;
}

/** Connects the pub and sub clients to `url` and builds the Socket.IO Redis adapter over them. */
export async function createRedisAdapter(
  url: string,
  opts: RedisAdapterOptions = {},
): Promise<RedisAdapterHandle> {
  const pub = await connectRedis(url, opts);
  let sub: typeof pub;
  try {
    sub = await connectRedis(url, opts);
  } catch (err) {
    pub.destroy();
    throw err;
  }
  const adapter = createAdapter(pub, sub, {
    key: `${opts.keyPrefix ?? 'chipless:'}socket.io`,
    requestsTimeout: opts.requestsTimeoutMs ?? 5000,
  });
  let closed = false;
  return {
    adapter,
    async close() {
      if (closed) return;
      closed = true;
      await Promise.allSettled([pub.close(), sub.close()]);
    },
  };
}
