import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { LoggedEvent } from '../../engine/types';
import { roomJson, roomJsonParts } from '../room-json';
import { hasRedisServer, PrivateRedis } from '../scale-out/private-redis';
import { sleep } from '../scale-out/process-harness';
import { deleteKeysWithPrefix, REDIS_URL, redisGate, uniqueKeyPrefix } from '../scale-out/redis-available';
import { runRoomStoreContract, sampleRoom } from './contract';
import { connectRedis } from './redis-client';
import {
  createRedisStore,
  PING_TIMEOUT_MS,
  publicationSplit,
  type RedisStore,
  roomFromPublication,
  SAVE_SCRIPT_SOURCE,
  splitPublication,
  storedPublication,
} from './redis-store';
import type { RoomStore, StoredRoom } from './room-store';
import { APPLIED_SLOTS, LOG_SLOTS } from './slots';

const gate = await redisGate('redis-store');
const prefix = uniqueKeyPrefix('store');

function record(code: string, version = 1, lastActivity = Date.now()): StoredRoom {
  return { room: sampleRoom(code, lastActivity), version, appliedCommands: [] };
}

function next(prev: StoredRoom, tag: string): StoredRoom {
  return {
    room: { ...prev.room, lastActivity: prev.room.lastActivity + 1 },
    version: prev.version + 1,
    appliedCommands: [...prev.appliedCommands, { commandId: tag, actorId: tag, version: prev.version + 1 }],
  };
}

/** The hash a record is stored as when written whole: the room without its log, every entry and event in its slot. */
function slotHash(rec: StoredRoom): Record<string, string> {
  const { room } = rec;
  const hash: Record<string, string> = {
    v: String(rec.version),
    room: roomJson(room.log.length > 0 ? { ...room, log: [] } : room),
  };
  for (const c of rec.appliedCommands) hash[`a:${c.version % APPLIED_SLOTS}`] = JSON.stringify(c);
  for (const e of room.log) hash[`e:${e.seq % LOG_SLOTS}`] = JSON.stringify(e);
  if (room.log.length > 0) hash.ll = String(room.log.at(-1)!.seq);
  return hash;
}

/** Runs `fn` with a Redis connection of its own (to see or set exactly what is stored), closed after. */
async function withRedis<T>(
  fn: (client: Awaited<ReturnType<typeof connectRedis>>) => Promise<T>,
): Promise<T> {
  const client = await connectRedis(REDIS_URL);
  try {
    return await fn(client);
  } finally {
    client.destroy();
  }
}

function code(): string {
  return randomUUID().slice(0, 5).toUpperCase();
}

describe.skipIf(gate.skip)('redis store', () => {
  beforeAll(() => gate.check());
  afterAll(async () => {
    if (gate.available) await deleteKeysWithPrefix(prefix);
  });

  runRoomStoreContract('redis', async () => {
    const store = await createRedisStore(REDIS_URL, { keyPrefix: prefix });
    return {
      store,
      openAnother: () => createRedisStore(REDIS_URL, { keyPrefix: prefix }),
      cleanup: () => store.close(),
    };
  });

  describe('the per-command path is bounded without an AbortSignal per command', () => {
    it('save, load, create and the counters make no AbortSignal.timeout; a default command does (the spy sees them)', async () => {
      const store = await createRedisStore(REDIS_URL, { keyPrefix: prefix });
      const spy = vi.spyOn(AbortSignal, 'timeout');
      try {
        const rec = record(code());
        expect(await store.create(rec)).toBe(true);
        expect(await store.save(next(rec, 'bounded'), 1)).toBe(true);
        expect((await store.load(rec.room.roomCode))?.version).toBe(2);
        await store.increment({ bounded: 1 });
        expect(await store.readCounters(['bounded'])).toEqual({ bounded: 1 });
        expect(spy).not.toHaveBeenCalled();
        await withRedis((client) => client.get(`${prefix}nothing`));
        expect(spy).toHaveBeenCalled();
      } finally {
        spy.mockRestore();
        await store.close();
      }
    });
  });

  describe('beyond the contract', () => {
    const opened: RoomStore[] = [];
    async function open(opts: { roomTtlMs?: number; knownRoomsMax?: number } = {}): Promise<RedisStore> {
      const store = await createRedisStore(REDIS_URL, { keyPrefix: prefix, ...opts });
      opened.push(store);
      return store;
    }
    afterAll(async () => {
      await Promise.all(opened.map((s) => s.close()));
    });
    /** A new store with a room created in it at version 1, and the room's key. */
    async function openWithRoom(): Promise<{ store: RoomStore; first: StoredRoom; key: string }> {
      const store = await open();
      const first = record(code());
      await store.create(first);
      return { store, first, key: `${prefix}room:${first.room.roomCode}` };
    }

    it('two connections racing saves version after version: exactly one wins each round', async () => {
      const [a, b] = [await open(), await open()];
      let current = record(code());
      expect(await a.create(current)).toBe(true);
      for (let round = 0; round < 50; round++) {
        const fromA = next(current, `a${round}`);
        const fromB = next(current, `b${round}`);
        const [okA, okB] = await Promise.all([
          a.save(fromA, current.version),
          b.save(fromB, current.version),
        ]);
        expect(Number(okA) + Number(okB)).toBe(1);
        current = okA ? fromA : fromB;
        expect(await b.load(current.room.roomCode)).toEqual(current);
      }
      expect(current.version).toBe(51);
      expect(current.appliedCommands).toHaveLength(50);
    });

    it('a room deleted here is forgotten: the store does not keep what it knew of its key', async () => {
      const store = await open();
      const codes = [code(), code(), code()];
      for (const c of codes) expect(await store.create(record(c))).toBe(true);
      expect(store.knownRooms()).toBe(3);
      expect(await store.delete(codes[0]!, 1)).toBe(true);
      expect(await store.delete(codes[1]!, 5)).toBe(false); // a stale delete: forgotten all the same
      expect(store.knownRooms()).toBe(1);
      expect(await store.save(next(record(codes[2]!), 'after'), 1)).toBe(true);
    });

    it('past the rooms it may remember, it forgets the earliest, not every room in play', async () => {
      const store = await open({ knownRoomsMax: 2 });
      const codes = [code(), code(), code()];
      for (const c of codes) expect(await store.create(record(c))).toBe(true);
      expect(store.knownRooms()).toBe(2);
      for (const c of codes) expect(await store.save(next(record(c), 'then'), 1)).toBe(true);
      for (const c of codes) expect((await store.load(c))?.version).toBe(2);
    });

    it('a loser that retries from a fresh load commits on the next version (no lost update)', async () => {
      const stores = [await open(), await open(), await open()];
      const c = code();
      await stores[0]!.create(record(c));
      // Each writer appends its own command id, retrying on conflict, as the room service does.
      await Promise.all(
        stores.flatMap((s, i) =>
          Array.from({ length: 10 }, async (_, j) => {
            for (;;) {
              const cur = (await s.load(c))!;
              if (await s.save(next(cur, `w${i}-${j}`), cur.version)) return;
            }
          }),
        ),
      );
      const final = (await stores[0]!.load(c))!;
      expect(final.version).toBe(31);
      expect(new Set(final.appliedCommands.map((a) => a.commandId)).size).toBe(30);
    });

    it('room keys expire after roomTtlMs without activity; touch and save refresh the TTL', async () => {
      // Every wait is 500 ms away from the TTL on either side: with 300 ms and waits of 200 the test
      // failed on a loaded machine (a Chromium suite beside it), the save's refreshed key gone 200 ms on.
      const ttl = 1_200;
      const wait = () => new Promise((r) => setTimeout(r, 700));
      const store = await open({ roomTtlMs: ttl });
      const kept = record(code());
      const dropped = record(code());
      await store.create(kept);
      await store.create(dropped);
      await wait();
      await store.touch([kept.room.roomCode], Date.now());
      await wait();
      expect(await store.load(dropped.room.roomCode)).toBeNull();
      expect(await store.load(kept.room.roomCode)).toEqual(kept);
      expect(await store.save(next(kept, 'x'), 1)).toBe(true);
      await wait();
      expect((await store.load(kept.room.roomCode))?.version).toBe(2);
      // An expired room is no longer listed (and is pruned from the activity set).
      expect(await store.listIdle(Number.MAX_SAFE_INTEGER)).not.toContain(dropped.room.roomCode);
      await withRedis(async (client) => {
        expect(await client.zScore(`${prefix}rooms:activity`, dropped.room.roomCode)).toBeNull();
        const pttl = await client.pTTL(`${prefix}room:${kept.room.roomCode}`);
        expect(pttl).toBeGreaterThan(0);
        expect(pttl).toBeLessThanOrEqual(ttl);
      });
    });

    it('stores the room without its log, each applied entry and each event in its slot, and ll', async () => {
      const store = await open();
      const rec = record(code());
      await store.create(rec);
      const saved = next(rec, 'layout');
      expect(await store.save(saved, 1)).toBe(true);
      await withRedis(async (client) => {
        expect(await client.hGetAll(`${prefix}room:${rec.room.roomCode}`)).toEqual(slotHash(saved));
        expect(slotHash(saved)).toMatchObject({
          'a:2': expect.any(String),
          'e:0': expect.any(String),
          ll: '0',
        });
      });
    });

    it('a save stringifies the room once, through roomJson', async () => {
      const store = await open();
      const rec = record(code());
      await store.create(rec);
      const room = next(rec, 'once').room;
      // Every JSON.stringify of this room reads `ledger` exactly once.
      let reads = 0;
      const ledger = room.ledger;
      Object.defineProperty(room, 'ledger', {
        enumerable: true,
        get: () => {
          reads++;
          return ledger;
        },
      });
      const saved = { ...next(rec, 'once'), room };
      expect(await store.save(saved, 1)).toBe(true);
      expect(reads).toBe(1);
      const loaded = await store.load(rec.room.roomCode);
      expect(loaded?.room).toEqual({ ...saved.room, ledger });
    });

    it('a save from the version this process last saw sends only what is new; otherwise everything', async () => {
      const store = await open();
      let current = record(code());
      await store.create(current);
      const key = `${prefix}room:${current.room.roomCode}`;
      const saveNext = async (tag: string) => {
        const following = next(current, tag);
        following.room = {
          ...following.room,
          log: [...following.room.log, { ...following.room.log[0]!, seq: following.version }],
          nextEventSeq: following.version + 1,
        };
        expect(await store.save(following, current.version)).toBe(true);
        current = following;
      };
      await saveNext('a');
      await saveNext('b');
      await withRedis(async (client) => {
        // Marks on slots written before: a delta leaves them alone.
        await client.hSet(key, { 'a:2': 'mark', 'e:2': 'mark' });
        await saveNext('c');
        expect(await client.hmGet(key, ['a:2', 'e:2', 'a:4', 'll'])).toEqual([
          'mark',
          'mark',
          JSON.stringify(current.appliedCommands.at(-1)),
          '4',
        ]);
        // Another writer's log (a different ll): the delta is refused and everything is written again.
        await client.hSet(key, 'll', '3');
        await saveNext('d');
        expect(await client.hGetAll(key)).toEqual(slotHash(current));
        // Another store that only read the key saves a delta from what it read.
        const other = await open();
        expect(await other.load(current.room.roomCode)).toEqual(current);
        await client.hSet(key, { 'a:2': 'mark' });
        const byOther = next(current, 'e');
        expect(await other.save(byOther, current.version)).toBe(true);
        expect(await client.hGet(key, 'a:2')).toBe('mark');
        await client.hSet(key, { 'a:2': JSON.stringify(byOther.appliedCommands[0]) });
        expect(await store.load(current.room.roomCode)).toEqual(byOther);
      });
    });

    it('a delta deletes only the slots of events its log dropped that no new event took', async () => {
      const store = await open();
      let current = record(code());
      expect(current.room.log.map((e) => e.seq)).toEqual([0]);
      await store.create(current);
      const key = `${prefix}room:${current.room.roomCode}`;
      const ev = (seq: number): LoggedEvent => ({ ...current.room.log[0]!, seq });
      const saveWith = async (tag: string, log: LoggedEvent[]) => {
        const following = next(current, tag);
        following.room = { ...following.room, log, nextEventSeq: log.at(-1)!.seq + 1 };
        expect(await store.save(following, current.version)).toBe(true);
        current = following;
      };
      await withRedis(async (client) => {
        // A mark in a slot the log does not fill: a delta over a log that only grew has nothing to
        // delete, so it stays (every save of a log shorter than the ring used to delete all 49).
        await client.hSet(key, 'e:7', 'mark');
        await saveWith('grow', [...current.room.log, ev(1)]);
        await saveWith('grow more', [...current.room.log, ev(2), ev(3)]);
        expect(await client.hGet(key, 'e:7')).toBe('mark');
        await client.hDel(key, 'e:7');
        expect(await client.hGetAll(key)).toEqual(slotHash(current));
        // Events dropped from the start (the engine does so only when its log is full; a store takes
        // any log): their slots go, and nothing else changes.
        await saveWith('drop', [...current.room.log.slice(2), ev(4)]);
        expect(current.room.log.map((e) => e.seq)).toEqual([2, 3, 4]);
        expect(await client.hGetAll(key)).toEqual(slotHash(current));
        // A full ring: each new event takes the slot of the one it pushes out.
        const fill = Array.from({ length: LOG_SLOTS - 3 }, (_, i) => ev(5 + i));
        await saveWith('fill', [...current.room.log, ...fill]);
        await saveWith('wrap', [...current.room.log.slice(2), ev(LOG_SLOTS + 2), ev(LOG_SLOTS + 3)]);
        expect(current.room.log.length).toBe(LOG_SLOTS);
        expect(await client.hGetAll(key)).toEqual(slotHash(current));
        expect(await store.load(current.room.roomCode)).toEqual(current);
        // The same from a store that only read the key (its slots are the loaded log).
        const other = await open();
        const loaded = (await other.load(current.room.roomCode))!;
        const byOther = next(loaded, 'other');
        byOther.room = { ...byOther.room, log: [...loaded.room.log.slice(5), ev(LOG_SLOTS + 4)] };
        await client.hSet(key, 'e:20', 'mark');
        expect(await other.save(byOther, loaded.version)).toBe(true);
        // Seq 20 was kept, so its slot's mark stays: the delta wrote and deleted only what changed
        // (seqs 4 to 8 dropped; 54 took slot 4, slots 5 to 8 went).
        expect(await client.hGet(key, 'e:20')).toBe('mark');
        expect(await client.hmGet(key, ['e:4', 'e:5', 'e:8', 'e:9'])).toEqual([
          JSON.stringify(ev(LOG_SLOTS + 4)),
          null,
          null,
          JSON.stringify(byOther.room.log[0]),
        ]);
        await client.hSet(key, 'e:20', JSON.stringify(byOther.room.log.find((e) => e.seq === 20)));
        expect(await client.hGetAll(key)).toEqual(slotHash(byOther));
      });
    });

    it('after any run of saves, dropping and adding events, the slots hold exactly the log (property)', async () => {
      const store = await open();
      const template = record('XXXXX').room.log[0]!;
      const step = fc.record({
        drop: fc.integer({ min: 0, max: LOG_SLOTS + 5 }),
        add: fc.integer({ min: 0, max: 6 }),
        // Equal events as other objects: not the previous log's end, so the whole walk and rule.
        copies: fc.boolean(),
      });
      await withRedis(async (client) => {
        await fc.assert(
          fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 12 }), async (steps) => {
            let current = record(code());
            expect(await store.create(current)).toBe(true);
            const key = `${prefix}room:${current.room.roomCode}`;
            let seq = current.room.nextEventSeq;
            for (const [i, { drop, add, copies }] of steps.entries()) {
              const kept = current.room.log.slice(Math.min(drop, current.room.log.length));
              let log = [
                ...(copies ? kept.map((e) => ({ ...e })) : kept),
                ...Array.from({ length: add }, () => ({ ...template, seq: seq++ })),
              ];
              while (log.length > 0 && log.at(-1)!.seq - log[0]!.seq >= LOG_SLOTS) log = log.slice(1);
              const following = next(current, `step ${i}`);
              following.room = { ...following.room, log, nextEventSeq: seq };
              expect(await store.save(following, current.version)).toBe(true);
              current = following;
              expect(await client.hGetAll(key)).toEqual(slotHash(current));
            }
            expect(await store.load(current.room.roomCode)).toEqual(current);
          }),
          { numRuns: 60 },
        );
      });
    });

    it('a publication holding the room JSON is stored in place of the room field and published byte for byte', async () => {
      const store = await open();
      const first = record(code());
      first.room = { ...first.room, roomName: 'Zoë 🃏 night' } as typeof first.room;
      await store.create(first);
      const key = `${prefix}room:${first.room.roomCode}`;
      const channel = `${prefix}published-split`;
      const heard: string[] = [];
      const subscriber = await connectRedis(REDIS_URL);
      await subscriber.subscribe(channel, (message) => heard.push(message));
      try {
        const second = next(first, 'split');
        const message = `["uid",{"data":["room",{"version":2,"room":${roomJson(second.room)},"presence":{"é":true}}]}]`;
        expect(await store.save(second, 1, { channel, message })).toBe(true);
        // The message (found around the room's parts) holds the room: no room field beside it.
        const hash = await withRedis((client) => client.hGetAll(key));
        const { room: _room, ...slots } = slotHash(second);
        const head = message.indexOf(roomJsonParts(second.room)[0]!);
        const [before, log, after] = roomJsonParts(second.room) as [string, string, string];
        expect(hash).toEqual({
          ...slots,
          pub: message,
          po: `${head},${before.length},${log.length},${after.length}`,
        });
        expect(roomFromPublication(hash.pub!, hash.po!)).toBe(slotHash(second).room);
        expect(await store.load(first.room.roomCode)).toEqual(second);

        // A message without the room goes whole, and the room field is written again (pub and po go).
        const third = next(second, 'whole');
        expect(await store.save(third, 2, { channel, message: 'v3' })).toBe(true);
        expect(await withRedis((client) => client.hGetAll(key))).toEqual(slotHash(third));

        // With its parts (the adapter's, for a kept snapshot): stored the same, published the same.
        const fourth = next(third, 'parts');
        const [b4, log4, a4] = roomJsonParts(fourth.room) as [string, string, string];
        const parts = {
          head: '["uid",{"data":["room",{"room":',
          before: b4,
          mid: log4,
          after: a4,
          tail: '}]}]',
        };
        const withParts = `${parts.head}${b4}${log4}${a4}${parts.tail}`;
        expect(await store.save(fourth, 3, { channel, message: withParts, parts })).toBe(true);
        expect((await withRedis((client) => client.hGetAll(key))).pub).toBe(withParts);

        // Then a save with no publication (the announce path): the room field again.
        const fifth = next(fourth, 'quiet');
        expect(await store.save(fifth, 4)).toBe(true);
        expect(await withRedis((client) => client.hGetAll(key))).toEqual(slotHash(fifth));

        await withRedis((client) => client.publish(channel, 'end'));
        for (let i = 0; i < 200 && !heard.includes('end'); i++) await sleep(10);
        expect(heard).toEqual([message, 'v3', withParts, 'end']);
        expect(await store.load(first.room.roomCode)).toEqual(fifth);
      } finally {
        await subscriber.close();
      }
    });

    it('a log the slots cannot hold stays in the room field, with the message published whole', async () => {
      const { store, first, key } = await openWithRoom();
      const second = next(first, 'long');
      // More events than the ring holds: the log stays in the room JSON (fitsRing), so the stored room's
      // log is not the empty one a publication's room is stored around.
      const events = Array.from({ length: LOG_SLOTS + 1 }, (_, i) => ({
        seq: i + 1,
        at: second.room.lastActivity,
        type: 'note',
        text: `e${i}`,
      }));
      second.room = { ...second.room, log: events as unknown as LoggedEvent[], nextEventSeq: LOG_SLOTS + 2 };
      const message = `["uid",${roomJson(second.room)}]`;
      expect(await store.save(second, 1, { channel: '', message })).toBe(true);
      const hash = await withRedis((client) => client.hGetAll(key));
      expect(hash.pub).toBeUndefined();
      expect(hash.room).toBe(roomJson(second.room));
      expect(await store.load(first.room.roomCode)).toEqual(second);
    });

    it('a room field written beside a stored publication (an older process) is what load reads', async () => {
      const { store, first, key } = await openWithRoom();
      const second = next(first, 'pub');
      const message = `[${roomJson(second.room)}]`;
      expect(await store.save(second, 1, { channel: '', message })).toBe(true);
      expect((await withRedis((client) => client.hGetAll(key))).pub).toBe(message);
      // A process from before this format saves with its room field and knows nothing of pub and po.
      const older = { ...second.room, lastActivity: 123 };
      await withRedis((client) => client.hSet(key, { v: '3', room: roomJson(older) }));
      expect((await store.load(first.room.roomCode))?.room.lastActivity).toBe(123);
    });

    it('the save script refuses a write that would leave the key with neither a room field nor pub', async () => {
      const { store, first, key } = await openWithRoom();
      const before = await withRedis((client) => client.hGetAll(key));
      // expectedVersion, version, ttl, lastActivity, code, base '*', no channel, no message, po '' (so
      // the pairs must hold the room), no field to delete, then pairs without the room field.
      const args = ['1', '2', '0', '1', first.room.roomCode, '*', '', '', '', '0', 'a:2', '{}'];
      await expect(
        withRedis((client) =>
          client.eval(SAVE_SCRIPT_SOURCE, { keys: [key, `${prefix}rooms:activity`], arguments: args }),
        ),
      ).rejects.toThrow(/room field must come first/);
      expect(await withRedis((client) => client.hGetAll(key))).toEqual(before);
      expect(await store.load(first.room.roomCode)).toEqual(first);
    });

    it('stored publication offsets that do not fit their message fail the load with a clear error', async () => {
      expect(roomFromPublication('H{"a":1,"log":[9],"b":2}T', '1,13,3,7')).toBe('{"a":1,"log":[],"b":2}');
      for (const po of ['1,2,3', '1,2,3,x', '-1,2,3,4', '1,2,3,400', '1.5,2,3,4', ''])
        expect(() => roomFromPublication('H{"a":1}T', po)).toThrow(/stored publication offsets/);
      const { store, first, key } = await openWithRoom();
      await withRedis(async (client) => {
        await client.hDel(key, 'room');
        await client.hSet(key, { pub: 'short', po: '0,100,0,100' });
      });
      await expect(store.load(first.room.roomCode)).rejects.toThrow(/stored publication offsets/);
    });

    it("a save takes a publication's parts as they are when they are cut around the stored room's JSON", () => {
      const room = record('SPLIT').room;
      const stored = roomJsonParts({ ...room, log: [] });
      const [before, , after] = stored as [string, string, string];
      const parts = { head: 'H', before, mid: '[1]', after, tail: 'T' };
      // The message is not read (not searched, not flattened) when the parts fit.
      const publication = {
        channel: 'c',
        get message(): string {
          throw new Error('message read');
        },
        parts,
      };
      expect(publicationSplit(publication, stored)).toEqual({ head: 'H', mid: '[1]', tail: 'T' });
      // Stored as the message's bytes, with where the room's parts are in it.
      const kept = storedPublication(publication, stored);
      expect(kept?.pub.toString()).toBe(`H${before}[1]${after}T`);
      expect(kept?.po).toBe(`1,${before.length},3,${after.length}`);
      // Parts around another room's JSON: the message is searched instead.
      const other = roomJsonParts({ ...room, hostId: 'other', log: [] });
      const message = `H${before}[1]${after}T`;
      const elsewhere = { channel: 'c', message, parts: { ...parts, before: other[0]!, after: other[2]! } };
      expect(publicationSplit(elsewhere, stored)).toEqual(splitPublication(message, stored));
      expect(publicationSplit(elsewhere, stored)).toEqual({ head: 'H', mid: '[1]', tail: 'T' });
      // No parts: searched; not found: whole (null), as for a room JSON without parts.
      expect(publicationSplit({ channel: 'c', message }, stored)?.mid).toBe('[1]');
      expect(publicationSplit({ channel: 'c', message: 'v3', parts }, [JSON.stringify(room)])).toBeNull();
      expect(storedPublication({ channel: 'c', message: 'v3' }, stored)).toBeNull();
      // A stored room whose log is not empty (not in the slots) is not stored around a publication.
      expect(storedPublication({ channel: 'c', message }, [before, '[1]', after])).toBeNull();
    });

    it('a save publishes its publication once when it writes, never when it does not', async () => {
      const store = await open();
      expect(store.publishesOnSave).toBe(true);
      const first = record(code());
      await store.create(first);
      const key = `${prefix}room:${first.room.roomCode}`;
      const channel = `${prefix}published`;
      const heard: string[] = [];
      const subscriber = await connectRedis(REDIS_URL);
      await subscriber.subscribe(channel, (message) => heard.push(message));
      try {
        const second = next(first, 'a');
        expect(await store.save(second, 1, { channel, message: 'v2' })).toBe(true);
        // A stale save: nothing written, nothing published.
        expect(await store.save(next(first, 'stale'), 1, { channel, message: 'stale' })).toBe(false);
        // Another writer's log on the key: the delta is refused (-1), then written in full: one publish.
        await withRedis((client) => client.hSet(key, 'll', '99'));
        const third = next(second, 'b');
        expect(await store.save(third, 2, { channel, message: 'v3' })).toBe(true);
        expect(await store.load(first.room.roomCode)).toEqual(third);
        // No publication: nothing published.
        expect(await store.save(next(third, 'c'), 3)).toBe(true);
        // Messages on one channel arrive in order: once the marker is here, the rest would be.
        await withRedis((client) => client.publish(channel, 'end'));
        for (let i = 0; i < 200 && !heard.includes('end'); i++) await sleep(10);
        expect(heard).toEqual(['v2', 'v3', 'end']);
      } finally {
        await subscriber.close();
      }
    });

    describe('keys written by older versions ({ v, data: JSON of the whole StoredRoom })', () => {
      /** Writes `rec` the way the old store did: HSET v + data, PEXPIRE, ZADD. */
      async function writeOldFormat(rec: StoredRoom, ttlMs = 60_000): Promise<void> {
        await withRedis(async (client) => {
          const key = `${prefix}room:${rec.room.roomCode}`;
          await client.hSet(key, { v: String(rec.version), data: JSON.stringify(rec) });
          await client.pExpire(key, ttlMs);
          await client.zAdd(`${prefix}rooms:activity`, {
            score: rec.room.lastActivity,
            value: rec.room.roomCode,
          });
        });
      }
      async function rawHash(roomCode: string): Promise<Record<string, string>> {
        return withRedis(async (client) => {
          return { ...(await client.hGetAll(`${prefix}room:${roomCode}`)) };
        });
      }

      it('load reads them; a save over them rewrites the key in the new format and refreshes the TTL', async () => {
        const store = await open({ roomTtlMs: 120_000 });
        const old: StoredRoom = {
          ...record(code(), 7),
          appliedCommands: [{ commandId: 'c7', actorId: 'a', version: 7 }],
        };
        await writeOldFormat(old, 30_000);
        expect(await store.load(old.room.roomCode)).toEqual(old);
        expect(await store.listIdle(Number.MAX_SAFE_INTEGER)).toContain(old.room.roomCode);

        const saved = next(old, 'upgrade');
        expect(await store.save(saved, 7)).toBe(true);
        expect(await rawHash(old.room.roomCode)).toEqual(slotHash(saved));
        expect(await store.load(old.room.roomCode)).toEqual(saved);
        await withRedis(async (client) => {
          const pttl = await client.pTTL(`${prefix}room:${old.room.roomCode}`);
          expect(pttl).toBeGreaterThan(30_000);
          expect(pttl).toBeLessThanOrEqual(120_000);
        });
      });

      it('a save with a stale version changes nothing; delete and touch work on them', async () => {
        const store = await open();
        const old = record(code(), 3);
        await writeOldFormat(old);
        const before = await rawHash(old.room.roomCode);
        expect(await store.save(next(old, 'stale'), 2)).toBe(false);
        expect(await rawHash(old.room.roomCode)).toEqual(before);
        expect(await store.load(old.room.roomCode)).toEqual(old);

        await store.touch([old.room.roomCode], 5);
        expect(await store.listIdle(6)).toContain(old.room.roomCode);
        expect(await store.delete(old.room.roomCode, 2)).toBe(false);
        expect(await store.delete(old.room.roomCode, 3)).toBe(true);
        expect(await store.load(old.room.roomCode)).toBeNull();
      });

      it('an old-format write over a new-format key (a rolling upgrade) is what load returns', async () => {
        const store = await open();
        const rec = record(code());
        await store.create(rec);
        const byOldProcess = next(rec, 'old-process');
        await writeOldFormat(byOldProcess);
        expect(await store.load(rec.room.roomCode)).toEqual(byOldProcess);
        const after = next(byOldProcess, 'new-process');
        expect(await store.save(after, 2)).toBe(true);
        expect(await rawHash(rec.room.roomCode)).toEqual(slotHash(after));
        expect(await store.load(rec.room.roomCode)).toEqual(after);
      });
    });

    it('keys written before the slots ({ v, room with its log, applied }) load, and a save rewrites them in slots', async () => {
      const store = await open();
      const rec: StoredRoom = {
        ...record(code(), 4),
        appliedCommands: [3, 4].map((version) => ({ commandId: `c${version}`, actorId: 'a', version })),
      };
      const key = `${prefix}room:${rec.room.roomCode}`;
      await withRedis(async (client) => {
        await client.hSet(key, {
          v: '4',
          room: JSON.stringify(rec.room),
          applied: JSON.stringify(rec.appliedCommands),
        });
        await client.zAdd(`${prefix}rooms:activity`, {
          score: rec.room.lastActivity,
          value: rec.room.roomCode,
        });
        expect(rec.room.log).toHaveLength(1);
        expect(await store.load(rec.room.roomCode)).toEqual(rec);
        // A stale save changes nothing.
        expect(await store.save(next(rec, 'stale'), 3)).toBe(false);
        expect(await client.hGet(key, 'applied')).toBe(JSON.stringify(rec.appliedCommands));
        const saved = next(rec, 'upgrade');
        expect(await store.save(saved, 4)).toBe(true);
        expect(await client.hGetAll(key)).toEqual(slotHash(saved));
        expect(await store.load(rec.room.roomCode)).toEqual(saved);
        expect(await (await open()).load(rec.room.roomCode)).toEqual(saved);
      });
    });

    it('roomTtlMs 0 keeps rooms without a TTL', async () => {
      const store = await open({ roomTtlMs: 0 });
      const rec = record(code());
      await store.create(rec);
      await withRedis(async (client) => {
        expect(await client.pTTL(`${prefix}room:${rec.room.roomCode}`)).toBe(-1);
      });
    });

    it('keeps working after Redis forgets its scripts (SCRIPT FLUSH, restart): EVAL fallback', async () => {
      const store = await open();
      const rec = record(code());
      await store.create(rec);
      await withRedis(async (client) => {
        await client.scriptFlush();
      });
      expect(await store.save(next(rec, 'after-flush'), 1)).toBe(true);
      expect((await store.load(rec.room.roomCode))?.version).toBe(2);
    });

    it('stores are isolated by key prefix', async () => {
      const mine = await open();
      const other = await createRedisStore(REDIS_URL, { keyPrefix: `${prefix}other:` });
      try {
        const rec = record(code());
        await mine.create(rec);
        expect(await other.load(rec.room.roomCode)).toBeNull();
        expect(await other.listIdle(Number.MAX_SAFE_INTEGER)).toEqual([]);
      } finally {
        await other.close();
      }
    });

    it('an unreachable Redis fails fast with a clear error', async () => {
      const started = Date.now();
      await expect(createRedisStore('redis://127.0.0.1:1', { connectTimeoutMs: 500 })).rejects.toThrow(
        /Redis unreachable at redis:\/\/127\.0\.0\.1:1/,
      );
      expect(Date.now() - started).toBeLessThan(3000);
    });
  });

  describe('a Redis outage (private redis-servers: one with an fsync-always AOF, stopped; one frozen)', () => {
    const hasServer = hasRedisServer();
    if (!hasServer) console.warn('[redis-store] outage test SKIPPED: no redis-server binary on PATH');
    const redis = new PrivateRedis(['--save', '', '--appendonly', 'yes', '--appendfsync', 'always']);

    const frozen = new PrivateRedis(['--save', '', '--appendonly', 'no']);

    afterAll(async () => {
      frozen.signal('SIGCONT');
      await Promise.all([redis.dispose(), frozen.dispose()]);
    });

    // A private redis-server of its own, frozen with SIGSTOP (its AOF plays no part).

    it.skipIf(!hasServer)(
      'the counters fail after the deadline and ping within its second while Redis is frozen (SIGSTOP); both work again once it resumes',
      async () => {
        await frozen.start();
        const store = await createRedisStore(frozen.url, { commandTimeoutMs: 500 });
        // Commands may wait 5 s (the default), the readiness probe never more than PING_TIMEOUT_MS.
        const patient = await createRedisStore(frozen.url);
        try {
          await store.increment({ visits: 1 });
          await patient.ping();
          frozen.signal('SIGSTOP');
          // /api/stats and the visit beacon wait on these: they must not hang as long as Redis does.
          const started = Date.now();
          const outcomes = await Promise.allSettled([
            store.increment({ visits: 1 }),
            store.readCounters(['visits']),
          ]);
          expect(Date.now() - started).toBeLessThan(2000);
          expect(
            outcomes.map((o) => (o.status === 'rejected' ? (o.reason as Error).name : o.status)),
          ).toEqual(['RedisDeadlineError', 'RedisDeadlineError']);
          const pinged = Date.now();
          await expect(patient.ping()).rejects.toThrow(`Redis did not answer within ${PING_TIMEOUT_MS} ms`);
          expect(Date.now() - pinged).toBeLessThan(PING_TIMEOUT_MS + 500);
          frozen.signal('SIGCONT');
          // The increment that timed out had been sent: Redis runs it when it resumes (as any bounded command).
          expect(await store.readCounters(['visits'])).toEqual({ visits: 2 });
          await store.increment({ visits: 1 });
          expect(await store.readCounters(['visits'])).toEqual({ visits: 3 });
          await patient.ping();
        } finally {
          frozen.signal('SIGCONT');
          await Promise.all([store.close(), patient.close()]);
        }
      },
      20_000,
    );

    it.skipIf(!hasServer)(
      'commands fail fast while Redis is down, then work again (scripts reloaded) once it is back',
      async () => {
        await redis.start();
        const store = await createRedisStore(redis.url, { commandTimeoutMs: 500 });
        try {
          const rec = record(code());
          expect(await store.create(rec)).toBe(true);

          await redis.stop();
          const started = Date.now();
          await expect(store.save(next(rec, 'during-outage'), 1)).rejects.toThrow();
          expect(Date.now() - started).toBeLessThan(2000);

          await redis.start(); // replays the AOF: the room is back, the script cache is not
          let loaded: StoredRoom | null = null;
          for (let i = 0; i < 60 && !loaded; i++) {
            loaded = await store.load(rec.room.roomCode).catch(() => null);
            if (!loaded) await sleep(100);
          }
          expect(loaded).toEqual(rec);
          expect(await store.save(next(rec, 'after-outage'), 1)).toBe(true);
          expect((await store.load(rec.room.roomCode))?.version).toBe(2);
        } finally {
          await store.close();
        }
      },
      20_000,
    );
  });
});
