/**
 * Socket.IO's Redis adapter (STORE=redis): a broadcast to a room made by one server process reaches the
 * sockets of that room connected to every other process, through Redis pub/sub. Two node-redis
 * connections: one publishes, one is held in subscribed mode.
 *
 * Two changes to the stock adapter:
 * - Messages are JSON (jsonParser), not msgpack. Every broadcast is published, and msgpack-encoding a
 *   room snapshot in JavaScript cost ~27 µs of the main thread a command at 1,000 rooms, with its
 *   buffers; V8's JSON.stringify does the same in a fraction of that. Chipless sends no binary data
 *   (every event is JSON by its schema), so JSON carries every message exactly. The channels are
 *   named for the format (CHANNEL_FORMAT), so a process still on msgpack (during a deploy) and one on
 *   JSON never try to decode each other's messages.
 * - A process receives its own broadcasts back from Redis (it is subscribed to the channels it
 *   publishes on), and the stock adapter decodes each one in full (a whole room snapshot) only to
 *   drop it because the sender uid is its own. Here such a message is recognised from its first
 *   bytes and dropped without decoding (skipOwnPublications).
 */
import { RedisAdapter } from '@socket.io/redis-adapter';
import type { Namespace, ServerOptions } from 'socket.io';
import { PacketType } from 'socket.io-parser';
import type { RoomBroadcastEncoder } from './broadcaster';
import { keptSnapshotEventParts, snapshotEventJson } from './snapshot-encoder';
import { boundedCommands, connectRedis, DEFAULT_COMMAND_TIMEOUT_MS } from './store/redis-client';
import type { Publication } from './store/room-store';

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
    key: adapterKey(opts.keyPrefix ?? 'chipless:'),
    requestsTimeout: opts.requestsTimeoutMs ?? 5000,
    parser: jsonParser,
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
    adapter: class extends RedisAdapter implements RoomBroadcastEncoder {
      constructor(nsp: Namespace) {
        super(nsp, pub, sub, adapterOptions);
        skipOwnPublications(this);
      }

      encodeRoomBroadcast(room: string, event: string, ...args: unknown[]): Publication {
        return encodeRoomBroadcast(this, room, event, args);
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      await Promise.allSettled([pub.close(), sub.close()]);
    },
  };
}

/** The wire format of the adapter's messages, part of the channel names (see the file comment). */
const CHANNEL_FORMAT = 'json';

/**
 * The adapter's key: its channels are `<key>#<nsp>#` (broadcasts, `<key>#<nsp>#<room>#` for one room),
 * `<key>-request#<nsp>#` and `<key>-response#<nsp>#`.
 */
export const adapterKey = (keyPrefix: string) => `${keyPrefix}socket.io:${CHANNEL_FORMAT}`;

/**
 * The JSON of a broadcast `[uid, { type, data, nsp }, opts]` of a 'room' snapshot, as the text before
 * the event's data, the data (snapshotEventJson: the room's JSON from roomJson) and the text after it;
 * null for any other value.
 */
function broadcastJson(value: unknown): { head: string; data: string; tail: string } | null {
  if (!Array.isArray(value) || value.length !== 3 || typeof value[0] !== 'string') return null;
  const packet = value[1] as { type?: unknown; data?: unknown; nsp?: unknown } | null;
  if (typeof packet !== 'object' || packet === null) return null;
  const keys = Object.keys(packet);
  if (keys.length !== 3 || keys[0] !== 'type' || keys[1] !== 'data' || keys[2] !== 'nsp') return null;
  const data = snapshotEventJson(packet.data);
  if (data === null) return null;
  return {
    head: `[${JSON.stringify(value[0])},{"type":${JSON.stringify(packet.type)},"data":`,
    data,
    tail: `,"nsp":${JSON.stringify(packet.nsp)}},${JSON.stringify(value[2])}]`,
  };
}

/**
 * JSON.stringify(value), except that a broadcast of a 'room' snapshot takes the room's JSON from
 * roomJson (broadcastJson): the save, the publication and the local sockets' frame then stringify each
 * room once.
 */
function encodeJson(value: unknown): string {
  return textOf(value, broadcastJson(value));
}

/** `value`'s JSON, from its broadcastJson when it has one. */
function textOf(value: unknown, broadcast: ReturnType<typeof broadcastJson>): string {
  return broadcast === null ? JSON.stringify(value) : `${broadcast.head}${broadcast.data}${broadcast.tail}`;
}

/**
 * The adapter's parser: JSON. Encodes to a string (published as is); decodes what Redis delivers (a
 * Buffer, the subscriptions being in buffer mode) or a string.
 */
export const jsonParser = {
  encode: encodeJson,
  decode: (msg: unknown): unknown => JSON.parse(Buffer.isBuffer(msg) ? msg.toString('utf8') : String(msg)),
};

/**
 * The channel and message RedisAdapter.broadcast publishes for an event to one room with no flags
 * (socket.io 4.8's BroadcastOperator.emit builds `{ type: EVENT, data: [event, ...args] }` and the
 * adapter publishes `[uid, packet, { rooms, except, flags }]` on `<key>#<nsp>#<room>#`). Other
 * processes' adapters take it as that broadcast; this process's own adapter drops it
 * (skipOwnPublications) as it drops its own broadcasts.
 */
function encodeRoomBroadcast(
  adapter: RedisAdapter,
  room: string,
  event: string,
  args: unknown[],
): Publication {
  const internals = adapter as unknown as AdapterInternals;
  const packet = { type: PacketType.EVENT, data: [event, ...args], nsp: adapter.nsp.name };
  const opts = { rooms: [room], except: [], flags: {} };
  const channel = `${internals.channel}${room}#`;
  const value = [internals.uid, packet, opts];
  const broadcast = broadcastJson(value);
  // A snapshot whose event JSON was kept with its parts (keepSnapshotEventJson, as broadcaster.ts
  // does): the message's parts around its room JSON come with it (PublicationParts).
  const kept = event === 'room' && args.length === 1 ? keptSnapshotEventParts(args[0]) : undefined;
  const message = textOf(value, broadcast);
  if (broadcast === null || kept === undefined) return { channel, message };
  return {
    channel,
    message,
    parts: {
      head: `${broadcast.head}${kept.head}`,
      before: kept.before,
      mid: kept.log,
      after: kept.after,
      tail: `${kept.tail}${broadcast.tail}`,
    },
  };
}

/** What skipOwnPublications and encodeRoomBroadcast use of the adapter (private in its typings). */
interface AdapterInternals {
  uid: string;
  channel: string;
  onmessage(pattern: unknown, channel: unknown, msg: unknown): void;
}

/**
 * Makes the adapter (on jsonParser) drop its own broadcasts before decoding them. The adapter publishes
 * a broadcast as `[uid, packet, opts]` and, on receiving one, decodes it whole and then ignores it when
 * `uid` is its own. In JSON such a message starts with `["<uid>",`, so it is found by comparing a few
 * bytes. Anything else (other processes' broadcasts, requests) goes to the adapter as before.
 */
function skipOwnPublications(adapter: RedisAdapter): void {
  const internals = adapter as unknown as AdapterInternals;
  const prefix = Buffer.from(`[${JSON.stringify(internals.uid)},`, 'utf8');
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
}
