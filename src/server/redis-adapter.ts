/**
 * Socket.IO's Redis adapter (STORE=redis): a broadcast to a room made by one server process reaches the
 * sockets of that room connected to every other process, through Redis pub/sub. Two node-redis
 * connections: one publishes, one is held in subscribed mode.
 *
 * One change to the stock adapter: a process receives its own broadcasts back from Redis (it is
 * subscribed to the channels it publishes on), and the stock adapter msgpack-decodes each one in full
 * (a whole room snapshot) only to drop it because the sender uid is its own. Here such a message is
 * recognised from its first bytes and dropped without decoding (skipOwnPublications).
 */
import { RedisAdapter } from '@socket.io/redis-adapter';
import type { Namespace, ServerOptions } from 'socket.io';
import { boundedCommands, connectRedis, DEFAULT_COMMAND_TIMEOUT_MS } from './store/redis-store';

/** The adapter factory to hand to Socket.IO (`new Server(http, { adapter })`) and how to release it. */
export interface RedisAdapterHandle {
  adapter: NonNullable<ServerOptions['adapter']>;
  /** Closes both Redis connections (after the Socket.IO server is closed). */
  close: () => Promise<void>;
}

/** Options of the Redis adapter. */
export interface RedisAdapterOptions {
  /** Prefix of the pub/sub channels (default 'chipless:'); processes that share rooms must share it. */
  keyPrefix?: string;
  /** Gives up connecting after this many ms (default 5000). */
  connectTimeoutMs?: number;
  /** A publish or other command fails after waiting this long for Redis (default 5000). */
  commandTimeoutMs?: number;
  /**
   * How long a cross-process request (fetchSockets: presence) waits for every process (default 5000).
   * An unresponsive process makes each such request wait this long.
   */
  requestsTimeoutMs?: number;
  /** Connection errors after the first connect (the clients keep reconnecting), and failed publishes. */
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
  const adapterOptions = {
    key: `${opts.keyPrefix ?? 'chipless:'}socket.io`,
    requestsTimeout: opts.requestsTimeoutMs ?? 5000,
  };
  let closed = false;
  // The adapter publishes (broadcasts, requests, announcements) without looking at the result. A
  // publish that fails (Redis down or not answering, or a broadcast finishing after close) would be
  // an unhandled rejection, which ends the process: report it instead (not after close). That
  // message is lost; phones catch up on their next snapshot or resume. Every broadcast publishes, so
  // publishes are bounded the cheap way (boundedCommands: no AbortSignal per publish); while Redis is
  // down they fail at once instead of queueing (this process's own sockets get the broadcast anyway).
  // The client's own publish, taken before it is replaced below: the bounded view's lookups reach
  // the client, and would find the replacement.
  type Publish = (this: unknown, ...args: unknown[]) => Promise<unknown>;
  const publish = pub.publish as unknown as Publish;
  const bounded = boundedCommands(pub, opts.commandTimeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS);
  (pub as unknown as { publish: Publish }).publish = (...args) =>
    bounded((c) => publish.apply(c, args)).catch((err: unknown) => {
      if (!closed) opts.onError?.(err instanceof Error ? err : new Error(String(err)));
      return 0;
    });
  return {
    adapter: class extends RedisAdapter {
      constructor(nsp: Namespace) {
        super(nsp, pub, sub, adapterOptions);
        skipOwnPublications(this);
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      await Promise.allSettled([pub.close(), sub.close()]);
    },
  };
}

/** What skipOwnPublications uses of the adapter (`onmessage` is private in its typings). */
interface AdapterInternals {
  uid: string;
  parser: { encode(value: unknown): Uint8Array };
  onmessage(pattern: unknown, channel: unknown, msg: unknown): void;
}

/** msgpack: a fixarray of 3 elements (a broadcast is `[uid, packet, opts]`), and the integer 0. */
const FIXARRAY_3 = 0x93;
const ZERO = 0x00;

/**
 * Makes the adapter drop its own broadcasts before decoding them. The adapter publishes a broadcast as
 * msgpack `[uid, packet, opts]` and, on receiving one, decodes it whole and then ignores it when `uid` is
 * its own. The encoding of `[own uid, …]` always starts with the same bytes (fixarray header, then the
 * uid string), so a message starting with them is one the adapter would ignore, found by comparing a
 * few bytes. Anything else (other processes' broadcasts, another encoding) goes to the adapter as before.
 * Returns the adapter.
 */
export function skipOwnPublications(adapter: RedisAdapter): RedisAdapter {
  const internals = adapter as unknown as AdapterInternals;
  // `[uid, 0, 0]` encodes as header, uid, 0x00, 0x00: the prefix is all but the last two bytes.
  const probe = Buffer.from(internals.parser.encode([internals.uid, 0, 0]));
  if (probe[0] !== FIXARRAY_3 || probe.at(-1) !== ZERO || probe.at(-2) !== ZERO) return adapter;
  const prefix = probe.subarray(0, probe.length - 2);
  const onmessage = internals.onmessage;
  // The adapter's Redis listener calls `this.onmessage(...)`, so an own property takes precedence.
  internals.onmessage = (pattern, channel, msg) => {
    if (
      Buffer.isBuffer(msg) &&
      msg.length > prefix.length &&
      msg.compare(prefix, 0, prefix.length, 0, prefix.length) === 0
    ) {
      return;
    }
    onmessage.call(internals, pattern, channel, msg);
  };
  return adapter;
}
