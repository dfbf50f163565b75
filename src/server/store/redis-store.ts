/**
 * The Redis room store (STORE=redis): lets several server processes share rooms.
 *
 * Key layout (all under `keyPrefix`, default `chipless:`):
 * - `room:{CODE}`       hash with a TTL (roomTtlMs) refreshed by every create/save/touch, so a room nobody
 *                       uses disappears even when no process sweeps. Fields:
 *                       `v` the version; `room` the room's JSON (roomJson), its log empty when the log
 *                       is in slots, or instead `pub` and `po`: the commit's publication, which holds the
 *                       room's JSON around its log, and where (storedPublication); `a:<slot>` the
 *                       applied command ids in a ring of APPLIED_SLOTS
 *                       (slot = version % APPLIED_SLOTS; load keeps those above the version minus
 *                       APPLIED_SLOTS); `e:<slot>` the log events in a ring of LOG_SLOTS (slot = seq %
 *                       LOG_SLOTS); `ll` the highest seq in the log slots (absent: none). See slots.ts.
 *                       A save sends the room, its one new applied entry and its new events (~4 KB)
 *                       instead of the room with its whole log and the whole applied list (~20 KB):
 *                       the process remembers each room's version and `ll` as it last wrote or read
 *                       them, and the script applies such a delta only when the key still has both
 *                       (else it answers -1 and the process sends everything the record holds: every
 *                       event, and the applied entries given, the whole loaded list when the record
 *                       was made from a load, as the first save after another process's write is;
 *                       the older entries' slots stay as they are, each at its own version).
 *                       Older formats, read by load and rewritten by the next save (which then sends
 *                       everything and deletes their fields): { v, room: JSON with its log, applied:
 *                       JSON of the applied list }, and before it { v, data: JSON of the whole
 *                       StoredRoom } (a `data` field wins, since every newer write deletes it).
 *                       The other way round does not hold: a process from before `pub` (session 16)
 *                       reads a key saved with one as no room, as one from before the slots reads a
 *                       slotted key's log as empty; so an upgrade stops the old processes first.
 * - `rooms:activity`    sorted set, member = room code, score = last activity (ms); what listIdle reads.
 * - `counters`          hash of analytics counters (HINCRBY / HINCRBYFLOAT).
 * - `session-secret`    the shared SESSION_SECRET when none is configured (see sharedSessionSecret).
 *
 * Every write that depends on the version is one Lua script (run with EVALSHA, falling back to EVAL),
 * so compare-and-set is atomic in Redis: of two processes saving over the same version exactly one wins.
 * A save may carry a publication (the commit's broadcast to the other processes, redis-adapter.ts),
 * which its script publishes after the write: published exactly when stored, in one round trip. The
 * message holds the room's JSON, so it is stored in place of the room field (storedPublication) and the
 * room is sent once.
 * The scripts build room keys from the prefix, so this targets a single Redis (or a Sentinel group),
 * not Redis Cluster.
 */
import { createHash } from 'node:crypto';
import type { LoggedEvent, Room } from '../../engine/types';
import { immutableJson, roomJsonParts } from '../room-json';
import {
  boundedCommands,
  connectRedis,
  DEFAULT_COMMAND_TIMEOUT_MS,
  type RedisConnectOptions,
} from './redis-client';
import type { AppliedCommand, Publication, RoomStore, StoredRoom } from './room-store';
import { APPLIED_SLOTS, fitsRing, LOG_SLOTS, logLast, ringUpdate } from './slots';

/** Options of the Redis store: how to connect (redis-client.ts), and the store's own settings. */
export interface RedisStoreOptions extends RedisConnectOptions {
  /** Prepended to every key (default 'chipless:'); tests use a random one to isolate themselves. */
  keyPrefix?: string;
  /** TTL of a room key after its last save or touch, in ms (0 = no TTL). Default 10 minutes. */
  roomTtlMs?: number;
  /** How many rooms' keys the store remembers at most (default KNOWN_ROOMS_MAX). For tests. */
  knownRoomsMax?: number;
}

/** A Lua script with its SHA1, run with EVALSHA and re-sent with EVAL when Redis does not know it yet. */
interface Script {
  source: string;
  sha: string;
}

function script(source: string): Script {
  return { source, sha: createHash('sha1').update(source).digest('hex') };
}

// KEYS[1] room hash, KEYS[2] activity zset.
// ARGV: version, ttlMs, lastActivity, code, then field/value pairs (room, slots, ll).
const CREATE = script(`
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
local set = {'v', ARGV[1]}
for i = 5, #ARGV do set[#set + 1] = ARGV[i] end
redis.call('HSET', KEYS[1], unpack(set))
if tonumber(ARGV[2]) > 0 then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
redis.call('ZADD', KEYS[2], ARGV[3], ARGV[4])
return 1
`);

// KEYS[1] room hash, KEYS[2] activity zset.
// ARGV: expectedVersion, version, ttlMs, lastActivity, code, base, channel, message, po, n, then n
// fields to delete, then field/value pairs to set. `base` is the `ll` the delta was computed from (''
// for none), or '*' for a write of everything. A delta over a key whose `ll` differs, or in an older
// format, answers -1. The older formats' fields (applied, data) always go. The message is published
// on `channel` after the write (none when `channel` is ''): only by a save that writes. When `po` is
// not '', the message also holds the room (see storedPublication): it is stored as `pub` with `po`,
// and the `room` field goes; otherwise the pairs hold `room`, and `pub` and `po` go. The script only
// passes the message on: every string a script gets or makes goes through Lua's string table, whose
// hash (Redis's bundled Lua) reads every byte, ~1.2 µs a KB on an idle box (bench/README.md, session 16).
const SAVE = script(`
local v = redis.call('HGET', KEYS[1], 'v')
if not v or tonumber(v) ~= tonumber(ARGV[1]) then return 0 end
if ARGV[6] ~= '*' then
  local ll = redis.call('HGET', KEYS[1], 'll') or ''
  if ll ~= ARGV[6] or redis.call('HEXISTS', KEYS[1], 'applied') == 1 or redis.call('HEXISTS', KEYS[1], 'data') == 1 then
    return -1
  end
end
local n = tonumber(ARGV[10])
local del = {'applied', 'data'}
local set = {'v', ARGV[2]}
if ARGV[9] == '' then
  if ARGV[11 + n] ~= 'room' then return redis.error_reply('SAVE: without pub, the room field must come first') end
  del[3] = 'pub'
  del[4] = 'po'
else
  del[3] = 'room'
  set[3] = 'pub'
  set[4] = ARGV[8]
  set[5] = 'po'
  set[6] = ARGV[9]
end
for i = 11, 10 + n do del[#del + 1] = ARGV[i] end
redis.call('HDEL', KEYS[1], unpack(del))
for i = 11 + n, #ARGV do set[#set + 1] = ARGV[i] end
redis.call('HSET', KEYS[1], unpack(set))
if tonumber(ARGV[3]) > 0 then redis.call('PEXPIRE', KEYS[1], ARGV[3]) end
redis.call('ZADD', KEYS[2], ARGV[4], ARGV[5])
if ARGV[7] ~= '' then redis.call('PUBLISH', ARGV[7], ARGV[8]) end
return 1
`);

/** The SAVE script's source, for the tests that call it with arguments the store never sends. */
export const SAVE_SCRIPT_SOURCE = SAVE.source;

/**
 * `parts` joined, as UTF-8 bytes. node-redis concatenates every string argument of a command into one
 * string and flattens it to write it, so ~4 KB went into the young heap twice a save (the join, then
 * the command's text); a Buffer argument is written as it is, beside the command's text, from memory
 * outside the JS heap.
 */
function utf8Of(parts: readonly string[]): Buffer {
  let size = 0;
  for (const part of parts) size += Buffer.byteLength(part);
  const bytes = Buffer.allocUnsafe(size);
  let at = 0;
  for (const part of parts) at += bytes.write(part, at);
  return bytes;
}

/** A publication's message cut around a room JSON's parts (splitPublication). */
export interface SplitPublication {
  /** The message up to the room JSON's first part (before its log). */
  head: string;
  /** The message between the room JSON's first and last parts (the broadcast's log). */
  mid: string;
  /** The message after the room JSON's last part (after its log). */
  tail: string;
}

/**
 * `message` cut where it holds a room JSON's parts (roomJsonParts: before the log, the log, after it):
 * `head + parts[0] + mid + parts[2] + tail === message`. Null when the room JSON has no parts or the
 * message does not hold them in order. The parts are found as text, so this holds whatever the message
 * is.
 */
export function splitPublication(message: string, roomParts: readonly string[]): SplitPublication | null {
  if (roomParts.length !== 3) return null;
  const before = roomParts[0]!;
  const after = roomParts[2]!;
  const at = message.indexOf(before);
  if (at < 0) return null;
  const afterAt = message.indexOf(after, at + before.length);
  if (afterAt < 0) return null;
  return {
    head: message.slice(0, at),
    mid: message.slice(at + before.length, afterAt),
    tail: message.slice(afterAt + after.length),
  };
}

/**
 * The split of `publication` around the room JSON's parts `roomParts` (SplitPublication): taken from the
 * publication's own parts when they are cut around those very parts (compared as strings: the same
 * skeleton's, usually the same objects, so no search and no flattening of the ~4 KB message), else
 * found in its message (splitPublication).
 */
export function publicationSplit(
  publication: Publication,
  roomParts: readonly string[],
): SplitPublication | null {
  const { parts } = publication;
  if (
    parts !== undefined &&
    roomParts.length === 3 &&
    parts.before === roomParts[0] &&
    parts.after === roomParts[2]
  )
    return { head: parts.head, mid: parts.mid, tail: parts.tail };
  return splitPublication(publication.message, roomParts);
}

/**
 * The `pub` and `po` fields of a save whose publication holds the room it stores: a commit's broadcast
 * carries the same room as the stored one but for the log (log-delta.ts), ~3.3 KB of a ~3.9 KB
 * message at 1,000 rooms, so the message is stored in place of the room field. `po` is where the room
 * JSON's parts are in it, in UTF-16 code units as load reads the message back ('head,before,mid,after'
 * lengths); the stored room is those parts around an empty log. Null when the stored room's log is not
 * empty (a log the slots cannot hold stays in the room field) or the message does not hold its parts.
 *
 * Why not the room field beside the message: the save's script would take ~7.2 KB of arguments into
 * Lua (both), or rebuild the message from the room field in Lua (session 13 to 15's way, ~11 KB of
 * strings), and Redis's Lua hashes every byte of each; this takes ~3.9 KB (bench/README.md, session 16).
 */
export function storedPublication(
  publication: Publication,
  roomParts: readonly string[],
): { pub: Buffer; po: string } | null {
  if (roomParts.length !== 3 || roomParts[1] !== '[]') return null;
  const split = publicationSplit(publication, roomParts);
  if (split === null) return null;
  const [before, , after] = roomParts as [string, string, string];
  const { head, mid, tail } = split;
  return {
    pub: utf8Of([head, before, mid, after, tail]),
    po: `${head.length},${before.length},${mid.length},${after.length}`,
  };
}

/**
 * The room JSON a `pub` field holds at `po` (storedPublication), or an error naming what is wrong: the
 * offsets are checked against the message, so a damaged field is not read as some other JSON.
 */
export function roomFromPublication(pub: string, po: string): string {
  const lengths = po.split(',').map(Number);
  if (
    lengths.length !== 4 ||
    !lengths.every((n) => Number.isSafeInteger(n) && n >= 0) ||
    lengths.reduce((a, b) => a + b, 0) > pub.length
  ) {
    throw new Error(`stored publication offsets do not fit its message: "${po}"`);
  }
  const [head, before, mid, after] = lengths as [number, number, number, number];
  const afterAt = head + before + mid;
  return `${pub.slice(head, head + before)}[]${pub.slice(afterAt, afterAt + after)}`;
}

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

/** Rooms whose version and `ll` a store remembers (see `known`); past this the earliest remembered goes. */
const KNOWN_ROOMS_MAX = 10_000;

/** What a store knows of a room's key: see `known` in createRedisStore. */
interface KnownKey {
  version: number;
  ll: string;
  log?: WeakRef<readonly LoggedEvent[]>;
}

/** How long `ping` (GET /readyz) waits for Redis: a load balancer's probe must get its answer in time. */
export const PING_TIMEOUT_MS = 1000;

/** Default room TTL: the server's default idle time (ROOM_IDLE_MS, 10 minutes). */
const DEFAULT_ROOM_TTL_MS = 10 * 60 * 1000;

/** The Redis store: a RoomStore with its readiness probe, and how many rooms' keys it remembers (for tests). */
export interface RedisStore extends RoomStore {
  ping(): Promise<void>;
  knownRooms(): number;
}

/** Opens the Redis room store on `url` (e.g. redis://127.0.0.1:6379). */
export async function createRedisStore(url: string, opts: RedisStoreOptions = {}): Promise<RedisStore> {
  const prefix = opts.keyPrefix ?? 'chipless:';
  const ttlMs = String(Math.max(0, Math.floor(opts.roomTtlMs ?? DEFAULT_ROOM_TTL_MS)));
  const client = await connectRedis(url, opts);
  const bounded = boundedCommands(client, opts.commandTimeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS);
  const probe = boundedCommands(client, Math.min(PING_TIMEOUT_MS, opts.commandTimeoutMs ?? PING_TIMEOUT_MS));

  const roomKeyPrefix = `${prefix}room:`;
  const roomKey = (code: string) => `${roomKeyPrefix}${code}`;
  const activityKey = `${prefix}rooms:activity`;
  const countersKey = `${prefix}counters`;

  async function run(s: Script, keys: string[], args: (string | Buffer)[]): Promise<unknown> {
    try {
      return await bounded((c) => c.evalSha(s.sha, { keys, arguments: args }));
    } catch (err) {
      if (!(err instanceof Error) || !err.message.startsWith('NOSCRIPT')) throw err;
      return bounded((c) => c.eval(s.source, { keys, arguments: args }));
    }
  }

  /**
   * Per room, the key as this process last wrote or read it (see the file comment): its version, its
   * `ll`, and the log its slots hold (only a log that fits the ring; weak, as the SQLite store keeps
   * it: the room service's cache holds a room it is playing). A save from the same version sends a
   * delta. A room deleted here is forgotten; past KNOWN_ROOMS_MAX the earliest remembered room goes
   * (rooms deleted by other processes, or gone with their TTL). It used to be cleared whole there, the
   * rooms in play with it, and kept every room this process deleted until then (the session-31 audit).
   */
  const known = new Map<string, KnownKey>();
  const knownMax = opts.knownRoomsMax ?? KNOWN_ROOMS_MAX;
  const remember = (code: string, version: number, ll: string, log: readonly LoggedEvent[] | null) => {
    if (known.size >= knownMax && !known.has(code)) {
      const earliest = known.keys().next().value;
      if (earliest !== undefined) known.delete(earliest);
    }
    known.set(code, { version, ll, ...(log === null ? {} : { log: new WeakRef(log) }) });
  };

  /**
   * The fields a write deletes and sets: the room (its log out when it goes into the slots), the
   * applied entries and the events, each into its slot (only those newer than `base` when given: a
   * delta from what the key holds), `ll`, and the log slots that would hold no event of the log.
   *
   * Which slots to delete: over a key whose slots are known to hold `base.log` (a delta, and the log
   * its end plus new events: ringUpdate's `tail`), only the slots of the events it dropped from its
   * start that no new event takes; none while a room's log is still filling up, and none once it is
   * full (each new event takes the slot of the one it pushes out). Otherwise every slot the log does
   * not fill (a log shorter than the ring, or one that stays in the room JSON): before this rule that
   * was every save of a room's first 50 events, ~45 absent fields and a Set a save in the load bench.
   */
  const fieldsOf = (record: StoredRoom, base: KnownKey | null) => {
    const { room } = record;
    const { log } = room;
    const after = base === null || base.ll === '' ? Number.NEGATIVE_INFINITY : Number(base.ll);
    const previous = base?.log?.deref();
    const { fits: inRing, from, tail } = ringUpdate(log, after, previous);
    const roomParts = roomJsonParts(inRing && log.length > 0 ? { ...room, log: [] } : room);
    const set: (string | Buffer)[] = [];
    for (const c of record.appliedCommands) {
      if (base === null || c.version > base.version)
        set.push(`a:${c.version % APPLIED_SLOTS}`, immutableJson(c));
    }
    const del: string[] = [];
    const last = logLast(log, inRing);
    if (inRing) {
      for (let i = from; i < log.length; i++)
        set.push(`e:${log[i]!.seq % LOG_SLOTS}`, immutableJson(log[i]!));
    }
    if (tail && previous !== undefined) {
      for (let i = 0; i < previous.length - from; i++) {
        const slot = previous[i]!.seq % LOG_SLOTS;
        let taken = false;
        for (let j = from; j < log.length && !taken; j++) taken = log[j]!.seq % LOG_SLOTS === slot;
        if (!taken) del.push(`e:${slot}`);
      }
    } else if (log.length < LOG_SLOTS || !inRing) {
      const filled = new Set(inRing ? log.map((e) => e.seq % LOG_SLOTS) : []);
      for (let slot = 0; slot < LOG_SLOTS; slot++) if (!filled.has(slot)) del.push(`e:${slot}`);
    }
    if (last === null) del.push('ll');
    else set.push('ll', String(last));
    const slotted = inRing ? log : null;
    return {
      del,
      set,
      ll: last === null ? '' : String(last),
      slotted,
      roomParts,
    };
  };

  return {
    async load(roomCode) {
      const hash = await bounded((c) => c.hGetAll(roomKey(roomCode)));
      const v = hash.v;
      if (v === undefined) {
        known.delete(roomCode);
        return null;
      }
      const version = Number(v);
      if (hash.data !== undefined) {
        // Written by an older version (the whole StoredRoom in one field).
        known.delete(roomCode);
        const record = JSON.parse(hash.data) as StoredRoom;
        return { ...record, version };
      }
      // The room field, or the commit's publication that holds it (storedPublication). A room field
      // wins: every save deletes the other, and an older process that knows no `pub` writes a room.
      let roomText = hash.room;
      if (roomText === undefined && hash.pub !== undefined && hash.po !== undefined)
        roomText = roomFromPublication(hash.pub, hash.po);
      if (roomText === undefined) return null;
      const room = JSON.parse(roomText) as Room;
      let appliedCommands: AppliedCommand[];
      if (hash.applied !== undefined) {
        // The format before the slots: the whole list in one field, the log in the room JSON.
        known.delete(roomCode);
        appliedCommands = JSON.parse(hash.applied) as AppliedCommand[];
      } else {
        appliedCommands = [];
        const events: LoggedEvent[] = [];
        for (const [field, json] of Object.entries(hash)) {
          if (field.startsWith('a:')) appliedCommands.push(JSON.parse(json) as AppliedCommand);
          else if (field.startsWith('e:')) events.push(JSON.parse(json) as LoggedEvent);
        }
        appliedCommands = appliedCommands
          .filter((c) => c.version > version - APPLIED_SLOTS)
          .sort((a, b) => a.version - b.version);
        // No slots: the log is in the JSON (one that does not fit the ring), or empty.
        if (events.length > 0) room.log = events.sort((a, b) => a.seq - b.seq);
        // The log the slots hold, for the next save's delta (only one that fits: ringUpdate's rule).
        remember(roomCode, version, hash.ll ?? '', events.length > 0 && fitsRing(room.log) ? room.log : null);
      }
      return { room, version, appliedCommands };
    },

    async create(record) {
      const { room, version } = record;
      const { set, ll, slotted, roomParts } = fieldsOf(record, null);
      const args = [
        String(version),
        ttlMs,
        String(room.lastActivity),
        room.roomCode,
        'room',
        utf8Of(roomParts),
        ...set,
      ];
      if ((await run(CREATE, [roomKey(room.roomCode), activityKey], args)) !== 1) return false;
      remember(room.roomCode, version, ll, slotted);
      return true;
    },

    publishesOnSave: true,

    async save(record, expectedVersion, publication) {
      const { room, version } = record;
      const code = room.roomCode;
      const write = async (base: KnownKey | null) => {
        const { del, set, ll, slotted, roomParts } = fieldsOf(record, base);
        const stored = publication === undefined ? null : storedPublication(publication, roomParts);
        const args = [
          String(expectedVersion),
          String(version),
          ttlMs,
          String(room.lastActivity),
          code,
          base === null ? '*' : base.ll,
          publication?.channel ?? '',
          stored?.pub ?? publication?.message ?? '',
          stored?.po ?? '',
          String(del.length),
          ...del,
          ...(stored === null ? ['room', utf8Of(roomParts)] : []),
          ...set,
        ];
        return { result: await run(SAVE, [roomKey(code), activityKey], args), ll, slotted };
      };
      const guess = known.get(code);
      known.delete(code);
      let attempt = await write(guess?.version === expectedVersion ? guess : null);
      // The key is not what this process last saw (another process wrote it, or an older format).
      if (attempt.result === -1) attempt = await write(null);
      if (attempt.result !== 1) return false;
      remember(code, version, attempt.ll, attempt.slotted);
      return true;
    },

    async delete(roomCode, expectedVersion) {
      known.delete(roomCode);
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
      // One MULTI: either every counter moves or none does. Bounded as the room path is: the visit
      // beacon and the analytics of a command wait on it, and must not wait as long as a frozen Redis.
      await bounded((c) => {
        const multi = c.multi();
        for (const [key, by] of entries) {
          if (Number.isInteger(by)) multi.hIncrBy(countersKey, key, by);
          else multi.hIncrByFloat(countersKey, key, by);
        }
        return multi.exec();
      });
    },

    async readCounters(keys) {
      if (keys.length === 0) return {};
      // Bounded: GET /api/stats answers 503 after the deadline instead of hanging with a frozen Redis.
      const values = await bounded((c) => c.hmGet(countersKey, keys));
      const out: Record<string, number> = {};
      keys.forEach((key, i) => {
        const value = values[i];
        out[key] = value == null ? 0 : Number(value);
      });
      return out;
    },

    async ping() {
      await probe((c) => c.ping());
    },

    async close() {
      if (client.isOpen) await client.close();
    },

    knownRooms: () => known.size,
  };
}
