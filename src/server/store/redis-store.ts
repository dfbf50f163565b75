/**
 * The Redis room store (STORE=redis): lets several server processes share rooms.
 *
 * Key layout (all under `keyPrefix`, default `chipless:`):
 * - `room:{CODE}`       hash { v: version, room: JSON of the room, applied: JSON of the applied command
 *                       list }, with a TTL (roomTtlMs) refreshed by every create/save/touch, so a room
 *                       nobody uses disappears even when no process sweeps. The room JSON is roomJson(room)
 *                       (its log events' JSON is computed once per event, room-json.ts).
 *                       Older versions wrote { v, data: JSON of the whole StoredRoom }: load still reads
 *                       that (a `data` field wins, since every write in this format deletes it) and the
 *                       next save rewrites the key in this format.
 * - `rooms:activity`    sorted set, member = room code, score = last activity (ms); what listIdle reads.
 * - `counters`          hash of analytics counters (HINCRBY / HINCRBYFLOAT).
 * - `session-secret`    the shared SESSION_SECRET when none is configured (see sharedSessionSecret).
 *
 * Every write that depends on the version is one Lua script (run with EVALSHA, falling back to EVAL),
 * so compare-and-set is atomic in Redis: of two processes saving over the same version exactly one wins.
 * The scripts build room keys from the prefix, so this targets a single Redis (or a Sentinel group),
 * not Redis Cluster.
 */
import { createHash } from 'node:crypto';
import { createClient } from 'redis';
import type { Room } from '../../engine/types';
import { immutableListJson, roomJson } from '../room-json';
import type { AppliedCommand, RoomStore, StoredRoom } from './room-store';

type RedisClient = ReturnType<typeof newClient>;

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

/** Options of the Redis store. */
export interface RedisStoreOptions {
  /** Prepended to every key (default 'chipless:'); tests use a random one to isolate themselves. */
  keyPrefix?: string;
  /** TTL of a room key after its last save or touch, in ms (0 = no TTL). Default 10 minutes. */
  roomTtlMs?: number;
  /** Gives up connecting after this many ms (default 5000). */
  connectTimeoutMs?: number;
  /** A command fails after waiting this long for Redis, reconnection included (default 5000). */
  commandTimeoutMs?: number;
  /** Connection errors after the first connect (the client keeps reconnecting). Default: ignored. */
  onError?: (err: Error) => void;
}

/** How to connect: RedisStoreOptions without the store's own settings. */
export type RedisConnectOptions = Pick<
  RedisStoreOptions,
  'connectTimeoutMs' | 'commandTimeoutMs' | 'onError'
>;

/** A Lua script with its SHA1, run with EVALSHA and re-sent with EVAL when Redis does not know it yet. */
interface Script {
  source: string;
  sha: string;
}

function script(source: string): Script {
  return { source, sha: createHash('sha1').update(source).digest('hex') };
}

// KEYS[1] room hash, KEYS[2] activity zset. ARGV: version, room, applied, ttlMs, lastActivity, code.
const CREATE = script(`
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'v', ARGV[1], 'room', ARGV[2], 'applied', ARGV[3])
if tonumber(ARGV[4]) > 0 then redis.call('PEXPIRE', KEYS[1], ARGV[4]) end
redis.call('ZADD', KEYS[2], ARGV[5], ARGV[6])
return 1
`);

// KEYS[1] room hash, KEYS[2] activity zset.
// ARGV: expectedVersion, version, room, applied, ttlMs, lastActivity, code.
// HDEL drops the old format's `data` field (a no-op once the key is in this format).
const SAVE = script(`
local v = redis.call('HGET', KEYS[1], 'v')
if not v or tonumber(v) ~= tonumber(ARGV[1]) then return 0 end
redis.call('HSET', KEYS[1], 'v', ARGV[2], 'room', ARGV[3], 'applied', ARGV[4])
redis.call('HDEL', KEYS[1], 'data')
if tonumber(ARGV[5]) > 0 then redis.call('PEXPIRE', KEYS[1], ARGV[5]) end
redis.call('ZADD', KEYS[2], ARGV[6], ARGV[7])
return 1
`);

// KEYS[1] room hash, KEYS[2] activity zset. ARGV: expectedVersion, code.
const DELETE = script(`
local v = redis.call('HGET', KEYS[1], 'v')
if not v or tonumber(v) ~= tonumber(ARGV[1]) then return 0 end
redis.call('DEL', KEYS[1])
redis.call('ZREM', KEYS[2], ARGV[2])
return 1
`);

// KEYS[1] room hash, KEYS[2] activity zset. ARGV: ttlMs, now, code.
const TOUCH = script(`
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
if tonumber(ARGV[1]) > 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
redis.call('ZADD', KEYS[2], ARGV[2], ARGV[3])
return 1
`);

// KEYS[1] activity zset. ARGV: before (exclusive), room key prefix.
// Members whose room key has expired (TTL) are dropped from the set on the way.
const LIST_IDLE = script(`
local codes = redis.call('ZRANGE', KEYS[1], '-inf', '(' .. ARGV[1], 'BYSCORE')
local idle = {}
for _, code in ipairs(codes) do
  if redis.call('EXISTS', ARGV[2] .. code) == 1 then
    idle[#idle + 1] = code
  else
    redis.call('ZREM', KEYS[1], code)
  end
end
return idle
`);

/** Default room TTL: the server's default idle time (ROOM_IDLE_MS, 10 minutes). */
export const DEFAULT_ROOM_TTL_MS = 10 * 60 * 1000;

/**
 * Connects a node-redis client, failing with a clear error (instead of retrying forever) when Redis
 * cannot be reached within `connectTimeoutMs`. Once connected, the client reconnects on its own.
 */
export async function connectRedis(url: string, opts: RedisConnectOptions = {}): Promise<RedisClient> {
  let connected = false;
  const client = newClient(
    url,
    opts.connectTimeoutMs ?? 5000,
    opts.commandTimeoutMs ?? 5000,
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

/** Opens the Redis room store on `url` (e.g. redis://127.0.0.1:6379). */
export async function createRedisStore(url: string, opts: RedisStoreOptions = {}): Promise<RoomStore> {
  const prefix = opts.keyPrefix ?? 'chipless:';
  const ttlMs = String(Math.max(0, Math.floor(opts.roomTtlMs ?? DEFAULT_ROOM_TTL_MS)));
  const client = await connectRedis(url, opts);

  const roomKeyPrefix = `${prefix}room:`;
  const roomKey = (code: string) => `${roomKeyPrefix}${code}`;
  const activityKey = `${prefix}rooms:activity`;
  const countersKey = `${prefix}counters`;

  async function run(s: Script, keys: string[], args: string[]): Promise<unknown> {
    try {
      return await client.evalSha(s.sha, { keys, arguments: args });
    } catch (err) {
      if (!(err instanceof Error) || !err.message.startsWith('NOSCRIPT')) throw err;
      return client.eval(s.source, { keys, arguments: args });
    }
  }

  /** The ARGV a write shares between CREATE and SAVE: version, room, applied, ttlMs, lastActivity, code. */
  const writeArgs = ({ room, version, appliedCommands }: StoredRoom): string[] => [
    String(version),
    roomJson(room),
    immutableListJson(appliedCommands),
    ttlMs,
    String(room.lastActivity),
    room.roomCode,
  ];

  return {
    async load(roomCode) {
      const [v, room, applied, data] = await client.hmGet(roomKey(roomCode), [
        'v',
        'room',
        'applied',
        'data',
      ]);
      if (v == null) return null;
      if (data != null) {
        // Written by an older version (the whole StoredRoom in one field).
        const record = JSON.parse(data) as StoredRoom;
        return { ...record, version: Number(v) };
      }
      if (room == null || applied == null) return null;
      return {
        room: JSON.parse(room) as Room,
        version: Number(v),
        appliedCommands: JSON.parse(applied) as AppliedCommand[],
      };
    },

    async create(record) {
      const code = record.room.roomCode;
      return (await run(CREATE, [roomKey(code), activityKey], writeArgs(record))) === 1;
    },

    async save(record, expectedVersion) {
      const code = record.room.roomCode;
      const args = [String(expectedVersion), ...writeArgs(record)];
      return (await run(SAVE, [roomKey(code), activityKey], args)) === 1;
    },

    async delete(roomCode, expectedVersion) {
      const deleted = await run(
        DELETE,
        [roomKey(roomCode), activityKey],
        [String(expectedVersion), roomCode],
      );
      return deleted === 1;
    },

    async touch(roomCodes, now) {
      // Sent together: the client pipelines them on one connection.
      await Promise.all(
        roomCodes.map((code) => run(TOUCH, [roomKey(code), activityKey], [ttlMs, String(now), code])),
      );
    },

    async listIdle(before) {
      return (await run(LIST_IDLE, [activityKey], [String(before), roomKeyPrefix])) as string[];
    },

    async increment(counters) {
      const entries = Object.entries(counters).filter(([, by]) => by !== 0);
      if (entries.length === 0) return;
      // One MULTI: either every counter moves or none does.
      const multi = client.multi();
      for (const [key, by] of entries) {
        if (Number.isInteger(by)) multi.hIncrBy(countersKey, key, by);
        else multi.hIncrByFloat(countersKey, key, by);
      }
      await multi.exec();
    },

    async readCounters(keys) {
      if (keys.length === 0) return {};
      const values = await client.hmGet(countersKey, keys);
      const out: Record<string, number> = {};
      keys.forEach((key, i) => {
        const value = values[i];
        out[key] = value == null ? 0 : Number(value);
      });
      return out;
    },

    async close() {
      if (client.isOpen) await client.close();
    },
  };
}

/**
 * The session secret every process must share so a token issued by one is accepted by the others.
 * Stores `candidate` under `{keyPrefix}session-secret` unless one is there already (SET NX), and
 * returns whichever is stored: the first process to start picks the secret for all.
 */
export async function sharedSessionSecret(
  url: string,
  candidate: string,
  opts: { keyPrefix?: string; connectTimeoutMs?: number } = {},
): Promise<string> {
  const client = await connectRedis(url, { connectTimeoutMs: opts.connectTimeoutMs });
  try {
    const key = `${opts.keyPrefix ?? 'chipless:'}session-secret`;
    await client.set(key, candidate, { condition: 'NX' });
    const stored = await client.get(key);
    if (stored == null) throw new Error('session secret vanished from Redis');
    return stored;
  } finally {
    await client.close();
  }
}
