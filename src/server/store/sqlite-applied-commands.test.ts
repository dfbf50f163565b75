/**
 * The SQLite store's applied command ids (a ring of slots, see sqlite-store.ts): a save writes only the
 * new entry into its slot and the store holds the newest APPLIED_COMMANDS_KEPT, failed writes leave no
 * entries, deletes take them with the room, and files of the older formats (the list as JSON in
 * `rooms.applied`; one row per entry in `applied_commands`, with the log in `room_log`) are migrated on
 * open. The tables are read with a separate connection to see exactly what is stored.
 */
import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import type { LoggedEvent } from '../../engine/types';
import { createLogger } from '../logger';
import { type RoomBroadcaster, RoomService } from '../room-service';
import { sampleRoom } from './contract';
import { APPLIED_COMMANDS_KEPT, type AppliedCommand, type RoomStore, type StoredRoom } from './room-store';
import { createSqliteStore, SQLITE_FILE_NAME } from './sqlite-store';
import { sqliteTestFile } from './sqlite-test-file';

const file = sqliteTestFile('chipless-applied-');
const { open, withFile } = file;

/** The applied entries of `code` as stored (free slots, version -1, left out), in version order. */
function storedEntries(code: string): AppliedCommand[] {
  return withFile((db) =>
    db
      .prepare<[string], AppliedCommand>(
        'SELECT command_id AS commandId, actor_id AS actorId, version FROM applied_slots WHERE code = ? AND version > 0 ORDER BY version',
      )
      .all(code),
  );
}

/** Applied entries stored, over all rooms (free slots not counted). */
function countEntries(): number {
  return withFile(
    (db) =>
      db.prepare<[], { n: number }>('SELECT count(*) AS n FROM applied_slots WHERE version > 0').get()!.n,
  );
}

function entry(version: number): AppliedCommand {
  return { commandId: `cmd-${randomUUID()}`, actorId: `actor-${randomUUID()}`, version };
}

function created(code: string): StoredRoom {
  return { room: sampleRoom(code), version: 1, appliedCommands: [entry(1)] };
}

/** The next record as the room service writes it: one new command, the list cut to the newest kept. */
function next(prev: StoredRoom): StoredRoom {
  const version = prev.version + 1;
  return {
    room: { ...prev.room, lastActivity: prev.room.lastActivity + 1, nextEventSeq: version },
    version,
    appliedCommands: [...prev.appliedCommands, entry(version)].slice(-APPLIED_COMMANDS_KEPT),
  };
}

describe('SQLite store: applied command ids in their slots', () => {
  it('a save adds the new entry and prunes to the newest 100; load returns what was saved', async () => {
    const store = open();
    let record = created('PRUNE1');
    expect(await store.create(record)).toBe(true);
    expect(storedEntries('PRUNE1')).toEqual(record.appliedCommands);
    for (let i = 0; i < 150; i++) {
      const saved = next(record);
      expect(await store.save(saved, record.version)).toBe(true);
      expect(await store.load('PRUNE1')).toEqual(saved);
      record = saved;
    }
    expect(record.version).toBe(151);
    const stored = storedEntries('PRUNE1');
    expect(stored).toHaveLength(100);
    expect(stored[0]!.version).toBe(52);
    expect(stored.at(-1)!.version).toBe(151);
    expect(stored).toEqual(record.appliedCommands);

    await store.close();
    expect(await open().load('PRUNE1')).toEqual(record);
  });

  it('a save that loses the version check writes no entries', async () => {
    const store = open();
    const v1 = created('LOSER1');
    await store.create(v1);
    const v2 = next(v1);
    expect(await store.save(v2, 1)).toBe(true);

    // A stale writer that also read version 1, and one that expects a version never reached.
    expect(await store.save(next(v1), 1)).toBe(false);
    expect(await store.save(next(v2), 5)).toBe(false);
    expect(storedEntries('LOSER1')).toEqual(v2.appliedCommands);
    expect(await store.load('LOSER1')).toEqual(v2);

    // A save of a room that does not exist leaves no entries either.
    expect(await store.save(next(created('NOROOM')), 1)).toBe(false);
    expect(storedEntries('NOROOM')).toEqual([]);
  });

  it('a save that fails part-way rolls back the room row as well', async () => {
    const store = open();
    const v1 = created('ROLLBK');
    await store.create(v1);
    const v2 = next(v1);
    // Two new entries at one version: the second write fails after the UPDATE of the room row ran.
    const broken: StoredRoom = { ...v2, appliedCommands: [...v2.appliedCommands, entry(2)] };
    await expect(store.save(broken, 1)).rejects.toThrow(
      'SQLite store: applied command at version 2 of room ROLLBK is not new',
    );
    expect(await store.load('ROLLBK')).toEqual(v1);
    expect(storedEntries('ROLLBK')).toEqual(v1.appliedCommands);
    // Nothing is left locked or half written: the proper save goes through.
    expect(await store.save(v2, 1)).toBe(true);
    expect(await store.load('ROLLBK')).toEqual(v2);
  });

  it('a create that fails part-way leaves neither room nor entries', async () => {
    const store = open();
    const broken: StoredRoom = { ...created('BADNEW'), appliedCommands: [entry(1), entry(1)] };
    await expect(store.create(broken)).rejects.toThrow(
      'SQLite store: applied command at version 1 of room BADNEW is not new',
    );
    expect(await store.load('BADNEW')).toBeNull();
    expect(storedEntries('BADNEW')).toEqual([]);
    const good = created('BADNEW');
    expect(await store.create(good)).toBe(true);
    expect(await store.load('BADNEW')).toEqual(good);
  });

  it('a create on a taken code writes no entries', async () => {
    const store = open();
    const first = created('TAKEN1');
    await store.create(first);
    expect(await store.create(created('TAKEN1'))).toBe(false);
    expect(storedEntries('TAKEN1')).toEqual(first.appliedCommands);
  });

  it('delete removes the room entries; a delete that loses the version check keeps them', async () => {
    const store = open();
    const v1 = created('DELETE');
    await store.create(v1);
    const v2 = next(v1);
    const v3 = next(v2);
    expect(await store.save(v2, 1)).toBe(true);
    expect(await store.save(v3, 2)).toBe(true);
    expect(await store.delete('DELETE', 2)).toBe(false);
    expect(storedEntries('DELETE')).toEqual(v3.appliedCommands);
    expect(await store.delete('DELETE', 3)).toBe(true);
    expect(storedEntries('DELETE')).toEqual([]);
    expect(countEntries()).toBe(0);

    // The code created again starts with only its own entry.
    const again = created('DELETE');
    expect(await store.create(again)).toBe(true);
    expect(await store.load('DELETE')).toEqual(again);
    expect(storedEntries('DELETE')).toEqual(again.appliedCommands);
  });
});

describe('SQLite store under the room service', () => {
  const broadcaster: RoomBroadcaster = { async snapshot() {}, async gone() {} };

  function service(store: RoomStore, now = 1_800_000_000_000): RoomService {
    // No cached rooms: every command loads its room from the store.
    return new RoomService({
      store,
      logger: createLogger('silent'),
      now: () => now,
      broadcaster,
      cachedRooms: 0,
    });
  }

  async function playCommands(rooms: RoomService, code: string, n: number): Promise<AppliedCommand[]> {
    const acks: AppliedCommand[] = [];
    for (let i = 0; i < n; i++) {
      const commandId = `set-${i}`;
      const blinds = i % 2 === 0 ? { smallBlind: 150, bigBlind: 300 } : { smallBlind: 100, bigBlind: 200 };
      const outcome = await rooms.execute(code, 'host', commandId, { type: 'updateSettings', ...blinds });
      if (!outcome.ok) throw new Error(outcome.error);
      expect(outcome.duplicate).toBe(false);
      acks.push({ commandId, actorId: 'host', version: outcome.version });
    }
    return acks;
  }

  it('120 commands: the newest 100 command ids are stored, and retries of them are acknowledged', async () => {
    const store = open();
    const rooms = service(store);
    const room = await rooms.createRoom('host', 'create-1', 'Host', 10_000);
    if (!room.ok) throw new Error(room.error);
    const code = room.record.room.roomCode;
    const acks = [
      { commandId: 'create-1', actorId: 'host', version: 1 },
      ...(await playCommands(rooms, code, 120)),
    ];
    expect(acks.at(-1)!.version).toBe(121);

    const newest = acks.slice(-APPLIED_COMMANDS_KEPT);
    expect(newest[0]!.version).toBe(22);
    expect((await store.load(code))!.appliedCommands).toEqual(newest);
    expect(storedEntries(code)).toEqual(newest);

    // After a restart, a retry of the oldest kept command is a duplicate with its version.
    await store.close();
    const restarted = service(open());
    const retry = await restarted.execute(code, 'host', newest[0]!.commandId, {
      type: 'updateSettings',
      smallBlind: 150,
      bigBlind: 300,
    });
    expect(retry).toMatchObject({ ok: true, version: 22, duplicate: true });
  });

  it('idle cleanup (listIdle, then expire) leaves no entries behind', async () => {
    const store = open();
    const past = service(store, 1_700_000_000_000);
    const codes: string[] = [];
    for (let r = 0; r < 3; r++) {
      const room = await past.createRoom('host', `create-${r}`, 'Host', 10_000);
      if (!room.ok) throw new Error(room.error);
      codes.push(room.record.room.roomCode);
      await playCommands(past, room.record.room.roomCode, 5 + r);
    }
    expect(countEntries()).toBe(3 + 5 + 6 + 7);

    const idle = await store.listIdle(1_700_000_000_001);
    expect(idle.sort()).toEqual([...codes].sort());
    for (const code of idle) expect(await past.expire(code, () => false)).toBe(true);
    expect(await store.listIdle(Number.MAX_SAFE_INTEGER)).toEqual([]);
    expect(countEntries()).toBe(0);
  });
});

/** The schema the store used before applied command ids had their own table (verbatim). */
const OLD_SCHEMA = `
CREATE TABLE IF NOT EXISTS rooms (
  code TEXT PRIMARY KEY,
  version INTEGER NOT NULL,
  room TEXT NOT NULL,
  applied TEXT NOT NULL,
  last_activity INTEGER NOT NULL
) STRICT;
CREATE INDEX IF NOT EXISTS rooms_last_activity ON rooms (last_activity);
CREATE TABLE IF NOT EXISTS counters (
  key TEXT PRIMARY KEY,
  value INTEGER NOT NULL
) STRICT;
`;

/** Writes a file of the older format, as that version of the store did (WAL, one row per room). */
function writeOldFile(
  rooms: Array<{ record: StoredRoom; applied?: string }>,
  counters: Record<string, number> = {},
) {
  withFile((db) => {
    db.pragma('journal_mode = WAL');
    db.exec(OLD_SCHEMA);
    const insert = db.prepare(
      'INSERT INTO rooms (code, version, room, applied, last_activity) VALUES (?, ?, ?, ?, ?)',
    );
    db.transaction(() => {
      for (const { record, applied } of rooms) {
        const { room } = record;
        const json = applied ?? JSON.stringify(record.appliedCommands);
        insert.run(room.roomCode, record.version, JSON.stringify(room), json, room.lastActivity);
      }
      for (const [key, value] of Object.entries(counters)) {
        db.prepare('INSERT INTO counters (key, value) VALUES (?, ?)').run(key, value);
      }
    })();
  });
}

/** An old-format record at `version` holding the last min(version, 100) command ids. */
function oldRecord(code: string, version: number, lastActivity = 1_700_000_000_000): StoredRoom {
  const first = Math.max(1, version - APPLIED_COMMANDS_KEPT + 1);
  const appliedCommands: AppliedCommand[] = [];
  for (let v = first; v <= version; v++) appliedCommands.push(entry(v));
  return { room: sampleRoom(code, lastActivity), version, appliedCommands };
}

function tableColumns(db: Database.Database, table: string): string[] {
  return db
    .prepare<[string], { name: string }>('SELECT name FROM pragma_table_info(?)')
    .all(table)
    .map((c) => c.name);
}

describe('SQLite store: migration from the applied JSON column', () => {
  it('opens a file of the older format with the same rooms, versions and command ids, and saves after', async () => {
    const full = oldRecord('FULL01', 120, 1_700_000_000_000);
    const young = oldRecord('YOUNG1', 1, 1_700_000_500_000);
    const some = oldRecord('SOME01', 37, 1_700_001_000_000);
    writeOldFile([{ record: full }, { record: young }, { record: some }], { 'daily_analytics/x/games': 4 });

    const store = open();
    expect(await store.load('FULL01')).toEqual(full);
    expect(await store.load('YOUNG1')).toEqual(young);
    expect(await store.load('SOME01')).toEqual(some);
    expect(await store.readCounters(['daily_analytics/x/games'])).toEqual({ 'daily_analytics/x/games': 4 });
    expect((await store.listIdle(1_700_000_600_000)).sort()).toEqual(['FULL01', 'YOUNG1']);
    expect(countEntries()).toBe(100 + 1 + 37);
    withFile((db) => {
      expect(tableColumns(db, 'rooms')).toEqual(['code', 'version', 'room', 'last_activity', 'log_last']);
    });

    // Saves work and prune as on a new file; a stale save still loses.
    const full2 = next(full);
    expect(await store.save(full2, 120)).toBe(true);
    expect(await store.load('FULL01')).toEqual(full2);
    expect(storedEntries('FULL01')).toEqual(full2.appliedCommands);
    expect(storedEntries('FULL01')[0]!.version).toBe(22);
    expect(await store.save(next(full), 120)).toBe(false);
    const some2 = next(some);
    expect(await store.save(some2, 37)).toBe(true);
    expect(await store.delete('YOUNG1', 1)).toBe(true);

    // Opening again does not migrate again.
    await store.close();
    const again = open();
    expect(await again.load('FULL01')).toEqual(full2);
    expect(await again.load('SOME01')).toEqual(some2);
    expect(await again.load('YOUNG1')).toBeNull();
    expect(countEntries()).toBe(100 + 38);
  });

  it('migrates a file with more rooms than one migration page', async () => {
    const records = Array.from({ length: 1203 }, (_, i) =>
      oldRecord(`M${String(i).padStart(5, '0')}`, 1 + (i % 4)),
    );
    writeOldFile(records.map((record) => ({ record })));
    const store = open();
    expect(countEntries()).toBe(records.reduce((n, r) => n + r.appliedCommands.length, 0));
    for (const i of [0, 499, 500, 501, 999, 1000, 1202]) {
      expect(await store.load(records[i]!.room.roomCode)).toEqual(records[i]);
    }
  });

  it('an unreadable applied list makes the open fail and leaves the file exactly as it was', async () => {
    const good = oldRecord('GOOD01', 3);
    const bad = oldRecord('BAD001', 2);
    for (const applied of ['not json', '{"commandId":"c"}', '[{"commandId":"c","actorId":"a"}]', '[null]']) {
      for (const suffix of ['', '-wal', '-shm'])
        rmSync(join(file.dir, SQLITE_FILE_NAME + suffix), { force: true });
      writeOldFile([{ record: good }, { record: bad, applied }]);
      expect(() => createSqliteStore({ dataDir: file.dir })).toThrow(
        'SQLite migration: room BAD001 has an unreadable applied command list',
      );
      withFile((db) => {
        expect(
          db.prepare('SELECT name FROM sqlite_master WHERE type = ? ORDER BY name').all('table'),
        ).toEqual([{ name: 'counters' }, { name: 'rooms' }]);
        expect(tableColumns(db, 'rooms')).toEqual(['code', 'version', 'room', 'applied', 'last_activity']);
        expect(db.prepare('SELECT code, applied FROM rooms ORDER BY code').all()).toEqual([
          { code: 'BAD001', applied },
          { code: 'GOOD01', applied: JSON.stringify(good.appliedCommands) },
        ]);
      });
    }

    // Once the row is repaired the file opens (the failed open left nothing locked).
    withFile((db) => db.prepare("UPDATE rooms SET applied = '[]' WHERE code = 'BAD001'").run());
    const store = open();
    expect(await store.load('GOOD01')).toEqual(good);
    expect(await store.load('BAD001')).toEqual({ ...bad, appliedCommands: [] });
  });
});

/** The schema of the format before the slots (verbatim): one row per applied entry and per log event. */
const ROW_TABLES_SCHEMA = `
CREATE TABLE IF NOT EXISTS rooms (
  code TEXT PRIMARY KEY,
  version INTEGER NOT NULL,
  room TEXT NOT NULL,
  last_activity INTEGER NOT NULL
) STRICT;
CREATE INDEX IF NOT EXISTS rooms_last_activity ON rooms (last_activity);
CREATE TABLE IF NOT EXISTS applied_commands (
  code TEXT NOT NULL,
  version INTEGER NOT NULL,
  command_id TEXT NOT NULL,
  actor_id TEXT NOT NULL,
  PRIMARY KEY (code, version)
) STRICT, WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS room_log (
  code TEXT NOT NULL,
  seq INTEGER NOT NULL,
  event TEXT NOT NULL,
  PRIMARY KEY (code, seq)
) STRICT, WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS counters (
  key TEXT PRIMARY KEY,
  value INTEGER NOT NULL
) STRICT;
`;

/** An old-format record whose log holds the events `from`..`to` (consecutive seqs). */
function withLog(record: StoredRoom, from: number, to: number): StoredRoom {
  const log: LoggedEvent[] = [];
  for (let seq = from; seq <= to; seq++) {
    log.push({
      type: 'stageChanged',
      stage: 'FLOP',
      seq,
      at: 1_700_000_000_000 + seq,
      handNumber: 1 + (seq >> 3),
    });
  }
  return { ...record, room: { ...record.room, log, nextEventSeq: to + 1 } };
}

describe('SQLite store: migration from one row per entry and per event', () => {
  it('moves the rows into the slots, drops the tables, and saves after', async () => {
    const full = withLog(oldRecord('ROWS01', 120), 70, 119);
    const young = withLog(oldRecord('ROWS02', 3), 0, 4);
    // A row from before the log had its own table: its log in the JSON, no event rows.
    const jsonLog = withLog(oldRecord('ROWS03', 7), 10, 20);
    withFile((db) => {
      db.pragma('journal_mode = WAL');
      db.exec(ROW_TABLES_SCHEMA);
      const room = db.prepare('INSERT INTO rooms (code, version, room, last_activity) VALUES (?, ?, ?, ?)');
      const applied = db.prepare(
        'INSERT INTO applied_commands (code, version, command_id, actor_id) VALUES (?, ?, ?, ?)',
      );
      const event = db.prepare('INSERT INTO room_log (code, seq, event) VALUES (?, ?, ?)');
      for (const r of [full, young, jsonLog]) {
        const code = r.room.roomCode;
        const json = JSON.stringify(r === jsonLog ? r.room : { ...r.room, log: [] });
        room.run(code, r.version, json, r.room.lastActivity);
        for (const c of r.appliedCommands) applied.run(code, c.version, c.commandId, c.actorId);
        if (r !== jsonLog) for (const e of r.room.log) event.run(code, e.seq, JSON.stringify(e));
      }
    });

    const store = open();
    for (const r of [full, young, jsonLog]) expect(await store.load(r.room.roomCode)).toEqual(r);
    withFile((db) => {
      expect(
        db
          .prepare<[], string>("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
          .pluck()
          .all(),
      ).toEqual(['applied_slots', 'counters', 'log_slots', 'meta', 'rooms']);
      expect(
        db
          .prepare<[], string>("SELECT name FROM sqlite_master WHERE type = 'index' ORDER BY name")
          .pluck()
          .all(),
      ).toEqual(['sqlite_autoindex_counters_1', 'sqlite_autoindex_meta_1', 'sqlite_autoindex_rooms_1']);
    });
    expect(countEntries()).toBe(100 + 3 + 7);
    expect(storedEntries('ROWS01')).toEqual(full.appliedCommands);

    // Saves go on as on a new file: the oldest slot is overwritten, the JSON log moves into the slots.
    const full2 = withLog(next(full), 71, 120);
    expect(await store.save(full2, 120)).toBe(true);
    expect(storedEntries('ROWS01')).toEqual(full2.appliedCommands);
    expect(storedEntries('ROWS01')[0]!.version).toBe(22);
    const jsonLog2 = withLog(next(jsonLog), 10, 21);
    expect(await store.save(jsonLog2, 7)).toBe(true);
    await store.close();
    const again = open();
    expect(await again.load('ROWS01')).toEqual(full2);
    expect(await again.load('ROWS02')).toEqual(young);
    expect(await again.load('ROWS03')).toEqual(jsonLog2);
    expect(countEntries()).toBe(100 + 3 + 8);
  });
});
