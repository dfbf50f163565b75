/**
 * The room service's in-memory record of each room's last commit (RoomServiceDeps.cachedRooms): it
 * saves a store read per command, and it must never decide an answer on its own when another writer
 * (a second process on Redis, a second instance on one SQLite file) moved the room meanwhile.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applyCommand, type Command } from '../engine';
import { createLogger } from './logger';
import {
  advanced,
  CACHED_ROOM_MAX_AGE_MS,
  cachedRoom,
  commandIdHash,
  type RoomBroadcaster,
  RoomService,
} from './room-service';
import { APPLIED_COMMANDS_KEPT, type RoomStore, type StoredRoom } from './store/room-store';
import { createSqliteStore } from './store/sqlite-store';

let dir: string;
let store: RoomStore;
let loads: number;
let service: RoomService;
const broadcasts: number[] = [];

const broadcaster: RoomBroadcaster = {
  async snapshot(record) {
    broadcasts.push(record.version);
  },
  async gone() {},
};

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'chipless-cache-'));
  const raw = createSqliteStore({ dataDir: dir });
  loads = 0;
  store = {
    ...raw,
    load: (code) => {
      loads++;
      return raw.load(code);
    },
  };
  broadcasts.length = 0;
  service = new RoomService({
    store,
    logger: createLogger('silent'),
    now: () => 1_800_000_000_000,
    broadcaster,
  });
});

afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Another writer: applies `command` by `actor` straight to the stored room, as a second process would. */
async function otherWriter(
  code: string,
  actor: string,
  command: Command,
  commandId: string,
): Promise<StoredRoom> {
  const current = (await store.load(code))!;
  const result = applyCommand(current.room, actor, command, 1_800_000_000_000);
  if (!result.ok || !result.room)
    throw new Error(`other writer refused: ${result.ok ? 'deleted' : result.error}`);
  const next: StoredRoom = {
    room: result.room,
    version: current.version + 1,
    appliedCommands: [
      ...current.appliedCommands,
      { commandId, actorId: actor, version: current.version + 1 },
    ],
  };
  expect(await store.save(next, current.version)).toBe(true);
  return next;
}

let rooms = 0;
async function openRoom(): Promise<string> {
  const created = await service.createRoom('host', `c-create-${rooms++}`, 'Host', 100_00);
  if (!created.ok) throw new Error(created.error);
  const code = created.record.room.roomCode;
  const joined = await service.execute(code, 'p1', 'c-join', {
    type: 'join',
    name: 'One',
    startingChips: 100_00,
  });
  expect(joined).toMatchObject({ ok: true, version: 2 });
  return code;
}

describe('room service: last-commit cache', () => {
  it('commands after a commit start from memory: no store read', async () => {
    const code = await openRoom();
    loads = 0;
    const approved = await service.execute(code, 'host', 'c1', { type: 'approve', playerId: 'p1' });
    const started = await service.execute(code, 'host', 'c2', { type: 'startGame' });
    expect(approved).toMatchObject({ ok: true, version: 3 });
    expect(started).toMatchObject({ ok: true, version: 4 });
    expect(loads).toBe(0);
    expect((await store.load(code))?.version).toBe(4);
  });

  it('a refusal on a stale record is decided again on the stored one', async () => {
    const code = await openRoom();
    // Elsewhere the host approves p1 (v3); this process still remembers v2, where a start is refused.
    await otherWriter(code, 'host', { type: 'approve', playerId: 'p1' }, 'elsewhere-1');
    const started = await service.execute(code, 'host', 'c1', { type: 'startGame' });
    expect(started).toMatchObject({ ok: true, version: 4, duplicate: false });
    expect((await store.load(code))?.room.status).toBe('PLAYING');
    expect(broadcasts.at(-1)).toBe(4);
  });

  it('a change decided on a stale record loses the conditional write and is redone on the stored one', async () => {
    const code = await openRoom();
    // Elsewhere p1 is removed (v3); here, on v2, approving p1 looks legal.
    await otherWriter(code, 'host', { type: 'remove', playerId: 'p1' }, 'elsewhere-1');
    const approved = await service.execute(code, 'host', 'c1', { type: 'approve', playerId: 'p1' });
    expect(approved.ok).toBe(false);
    const stored = (await store.load(code))!;
    expect(stored.version).toBe(3);
    expect(stored.room.players.p1).toBeUndefined();
  });

  it('a command id applied by another writer is answered as a duplicate, not applied again', async () => {
    const code = await openRoom();
    await otherWriter(code, 'host', { type: 'approve', playerId: 'p1' }, 'retried-id');
    const again = await service.execute(code, 'host', 'retried-id', { type: 'approve', playerId: 'p1' });
    expect(again).toMatchObject({ ok: true, version: 3, duplicate: true });
    expect((await store.load(code))?.version).toBe(3);
  });

  it('a new command id with the hash of one in the window is read from the store and applied', async () => {
    // Two ids with one window key (commandIdHash): the second is a new command, not a retry.
    expect(commandIdHash('cmd-196400')).toBe(commandIdHash('cmd-4'));
    const code = await openRoom();
    expect(await service.execute(code, 'host', 'cmd-4', { type: 'approve', playerId: 'p1' })).toMatchObject({
      ok: true,
      version: 3,
      duplicate: false,
    });
    loads = 0;
    const started = await service.execute(code, 'host', 'cmd-196400', { type: 'startGame' });
    expect(started).toMatchObject({ ok: true, version: 4, duplicate: false });
    expect(loads).toBe(1);
    // And the first id, sent again, is still a retry.
    const again = await service.execute(code, 'host', 'cmd-4', { type: 'approve', playerId: 'p1' });
    expect(again).toMatchObject({ ok: true, version: 3, duplicate: true });
    expect((await store.load(code))?.version).toBe(4);
  });

  it('a retried command id is found in memory among the last APPLIED_COMMANDS_KEPT, per actor', async () => {
    // Each retry below would change the room if it ran again, so only the retry check stops it (a
    // retry that the engine refuses or that changes nothing is decided again on a store read).
    const blinds = (i: number) =>
      i % 2 === 0 ? { smallBlind: 100, bigBlind: 200 } : { smallBlind: 50, bigBlind: 100 };
    const code = await openRoom();
    const p2Join: Command = { type: 'join', name: 'Two', startingChips: 100_00 };
    const hostX: Command = { type: 'updateSettings', smallBlind: 25, bigBlind: 50 };
    // Two actors send the same command id: both are applied (v3, v4).
    expect(await service.execute(code, 'p2', 'x', p2Join)).toMatchObject({ ok: true, version: 3 });
    expect(await service.execute(code, 'host', 'x', hostX)).toMatchObject({ ok: true, version: 4 });
    // v5 .. v(K + 3): the list now holds v4 .. v(K + 3), so p2's x (v3) has left it and the host's stays.
    const K = APPLIED_COMMANDS_KEPT;
    for (let i = 0; i < K - 1; i++) {
      const res = await service.execute(code, 'host', `s${i}`, { type: 'updateSettings', ...blinds(i) });
      expect(res).toMatchObject({ ok: true, version: 5 + i, duplicate: false });
    }
    expect(await service.execute(code, 'host', 'x', hostX)).toMatchObject({
      ok: true,
      version: 4,
      duplicate: true,
    });
    expect(
      await service.execute(code, 'host', `s${K - 3}`, { type: 'updateSettings', ...blinds(K - 3) }),
    ).toMatchObject({ ok: true, version: K + 2, duplicate: true });
    const stored = (await store.load(code))!;
    expect(stored.version).toBe(K + 3);
    expect(stored.room.settings).toMatchObject(blinds(K - 2));
    expect(stored.appliedCommands.map((c) => `${c.actorId}:${c.commandId}`)).toEqual([
      'host:x',
      ...Array.from({ length: K - 1 }, (_, i) => `host:s${i}`),
    ]);
  });

  it('a room deleted elsewhere is not found here', async () => {
    const code = await openRoom();
    expect(await store.delete(code, 2)).toBe(true);
    const res = await service.execute(code, 'host', 'c1', { type: 'approve', playerId: 'p1' });
    expect(res.ok).toBe(false);
    expect(await store.load(code)).toBeNull();
  });

  it('cachedRooms: 0 reads the store for every command', async () => {
    service = new RoomService({
      store,
      logger: createLogger('silent'),
      now: () => 1_800_000_000_000,
      broadcaster,
      cachedRooms: 0,
    });
    const code = await openRoom();
    loads = 0;
    await service.execute(code, 'host', 'c1', { type: 'approve', playerId: 'p1' });
    expect(loads).toBe(1);
  });

  it('keeps at most cachedRooms rooms, dropping the least recently committed', async () => {
    service = new RoomService({
      store,
      logger: createLogger('silent'),
      now: () => 1_800_000_000_000,
      broadcaster,
      cachedRooms: 2,
    });
    const codes = [await openRoom(), await openRoom(), await openRoom()];
    loads = 0;
    await service.execute(codes[2]!, 'host', 'c1', { type: 'approve', playerId: 'p1' });
    await service.execute(codes[1]!, 'host', 'c1', { type: 'approve', playerId: 'p1' });
    expect(loads).toBe(0);
    await service.execute(codes[0]!, 'host', 'c1', { type: 'approve', playerId: 'p1' });
    expect(loads).toBe(1);
  });
});

describe('room service: the applied command window of a cached room', () => {
  const K = APPLIED_COMMANDS_KEPT;
  const entry = (actorId: string, commandId: string, version: number) => ({ commandId, actorId, version });
  const record = (appliedCommands: StoredRoom['appliedCommands']) =>
    ({
      room: {} as StoredRoom['room'],
      version: appliedCommands.at(-1)!.version,
      appliedCommands,
    }) as StoredRoom;
  /** The window as [key, version] pairs, oldest first. */
  const pairs = (applied: Map<number, number>) => [...applied];
  const key = commandIdHash;

  it('starts from the ids of the newest APPLIED_COMMANDS_KEPT entries of a loaded list', () => {
    const list = Array.from({ length: K + 5 }, (_, i) => entry(i % 2 ? 'p1' : 'p2', `c${i}`, i + 1));
    expect(pairs(cachedRoom(record(list)).applied)).toEqual(
      list.slice(5).map((c) => [key(c.commandId), c.version]),
    );
    // Two actors with one id: the id once, where it was applied last.
    const both = cachedRoom(record([entry('p1', 'x', 1), entry('p1', 'y', 2), entry('p2', 'x', 3)]));
    expect(pairs(both.applied)).toEqual([
      [key('y'), 2],
      [key('x'), 3],
    ]);
  });

  it('moves on one command at a time, never losing an id of the newest APPLIED_COMMANDS_KEPT', () => {
    fc.assert(
      fc.property(
        // Ids from a small range, so some are applied again, by the same actor or another.
        fc.array(fc.tuple(fc.constantFrom('p1', 'p2', 'p3'), fc.integer({ min: 0, max: 2 * K })), {
          minLength: 1,
          maxLength: 3 * K,
          size: 'max',
        }),
        (commands) => {
          const list = commands.map(([actor, n], i) => entry(actor, `c${n}`, i + 1));
          let cached = cachedRoom(record(list.slice(0, 1)));
          for (let i = 1; i < list.length; i++) {
            // As the service saves over a cached record: the new entry only.
            const next = record([list[i]!]);
            cached = advanced(cached, next, list[i]!.commandId);
            expect(cached.record).toBe(next);
          }
          const { applied } = cached;
          expect(applied.size).toBeLessThanOrEqual(K);
          // Every id of the newest K is there with the version it last produced, so an id absent from
          // the window was not applied in the last K versions (a present one is decided on a fresh
          // load before it is answered as a retry).
          const last = new Map(list.map((c) => [key(c.commandId), c.version]));
          for (const c of list.slice(-K))
            expect(applied.get(key(c.commandId))).toBe(last.get(key(c.commandId)));
          for (const [k, version] of applied) expect(version).toBe(last.get(k));
          // Starting from the whole list gives the same window's newest part (ids seen twice leave
          // room there for older ones here).
          const fromList = pairs(cachedRoom(record(list)).applied);
          expect(pairs(applied).slice(-fromList.length)).toEqual(fromList);
        },
      ),
      { numRuns: 100, endOnFailure: true },
    );
    // And a long run with every id new: exactly the newest K, in order.
    const list = Array.from({ length: 3 * K }, (_, i) => entry(`p${i % 6}`, `c${i}`, i + 1));
    let cached = cachedRoom(record(list.slice(0, 1)));
    for (let i = 1; i < list.length; i++) cached = advanced(cached, record([list[i]!]), list[i]!.commandId);
    expect(pairs(cached.applied)).toEqual(list.slice(-K).map((c) => [key(c.commandId), c.version]));
  });
});

describe('room service: rooms age out of the cache', () => {
  it('a room nothing was committed to here for 15 minutes is read from the store again (another process may have deleted it)', async () => {
    let now = 1_800_000_000_000;
    service = new RoomService({ store, logger: createLogger('silent'), now: () => now, broadcaster });
    const quiet = await openRoom();
    const busy = await openRoom();
    const commit = async (code: string, id: string, command: Command) =>
      expect((await service.execute(code, 'host', id, command)).ok).toBe(true);

    now += CACHED_ROOM_MAX_AGE_MS - 1;
    await commit(busy, 'b1', { type: 'approve', playerId: 'p1' });
    loads = 0;
    await commit(quiet, 'q1', { type: 'approve', playerId: 'p1' }); // not 15 minutes yet: from memory
    expect(loads).toBe(0);

    now += CACHED_ROOM_MAX_AGE_MS + 1;
    await commit(busy, 'b2', { type: 'startGame' }); // drops `quiet`, committed 15 minutes before
    loads = 0;
    await commit(quiet, 'q2', { type: 'startGame' });
    expect(loads).toBe(1);
    expect((await store.load(quiet))?.version).toBe(4);
  });

  it('nor is one whose 15 minutes passed while this process committed nothing at all', async () => {
    let now = 1_800_000_000_000;
    service = new RoomService({ store, logger: createLogger('silent'), now: () => now, broadcaster });
    const code = await openRoom();
    now += CACHED_ROOM_MAX_AGE_MS + 1;
    loads = 0;
    expect((await service.execute(code, 'host', 'late', { type: 'approve', playerId: 'p1' })).ok).toBe(true);
    expect(loads).toBe(1);
  });
});

describe('room service: a create asked again while it is being made', () => {
  it('gets the same room, and one room is made (session 36 race audit: two lobbies in Redis mode)', async () => {
    const [first, again] = await Promise.all([
      service.createRoom('host', 'create-1', 'Ann', 5_000),
      service.createRoom('host', 'create-1', 'Ann', 5_000),
    ]);
    if (!first.ok || !again.ok) throw new Error('create refused');
    expect(again.record.room.roomCode).toBe(first.record.room.roomCode);
    // Later, the same id: still that room. Another id: another room.
    const later = await service.createRoom('host', 'create-1', 'Ann', 5_000);
    expect(later.ok && later.record.room.roomCode).toBe(first.record.room.roomCode);
    const other = await service.createRoom('host', 'create-2', 'Ann', 5_000);
    expect(other.ok && other.record.room.roomCode).not.toBe(first.record.room.roomCode);
    expect((await store.listIdle(Number.POSITIVE_INFINITY)).length).toBe(2);
  });
});
