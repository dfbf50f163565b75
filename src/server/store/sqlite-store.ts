/**
 * The default RoomStore: one SQLite file (better-sqlite3, WAL) in DATA_DIR.
 *
 * Schema:
 * - `rooms(code, version, room, last_activity)`: one row per room, the room JSON (its `log` empty) and
 *   its version. No index on `last_activity`: every command moves it, and keeping an index in step cost
 *   two more pages written per command (~9 of ~29 KB, ~10 µs: bench/README.md), while its only reader,
 *   `listIdle`, runs once per cleanup interval (5 minutes) and scans the table instead (0.1–0.3 ms at
 *   1,000 rooms of 6 players). Opening a file made while the index existed drops it.
 * - `room_log(code, seq, event)`: the room's hand log, one row per event (WITHOUT ROWID, keyed by
 *   (code, seq)). The log is ~70% of a room's JSON and a command adds one or two events, so a save
 *   inserts those and deletes the ones that fell out of the log instead of rewriting ~9 KB: at 1,000
 *   rooms that took ~60 µs of the ~560 µs of server CPU per command (bench/README.md).
 * - `applied_commands(code, version, command_id, actor_id)`: the room's recent applied command ids, one
 *   row per command, keyed by (code, version) (WITHOUT ROWID, so a room's entries sit together in
 *   version order).
 * - `counters(key, value)`: analytics counters.
 *
 * A save is one transaction: the conditional UPDATE of the room row (`WHERE version = ?`) and, only if
 * it changed the row, an INSERT of the record's entries newer than the expected version (the room
 * service's one new command id) and a DELETE of that room's entries at versions the kept window no longer
 * covers (`version <= newVersion - APPLIED_COMMANDS_KEPT`). So a command writes a few hundred bytes of
 * command ids instead of rewriting the whole list. This relies on what the room service does: a save's
 * `appliedCommands` is the loaded list plus the new command (version = the new room version), cut to
 * the newest APPLIED_COMMANDS_KEPT; versions grow by one per committed change and every committed change
 * comes from exactly one command, so the stored entries are exactly that list. Entries of the list at
 * or below the expected version are taken to be stored already and are not written again. `create`
 * writes the row and all its entries; `delete` removes both; each in one transaction, so a crash never
 * leaves half a write, and no entries outlive their room. `load` reads both in one read transaction
 * (one snapshot, even while another connection writes).
 *
 * A save also inserts the log events with a seq above the highest stored one and deletes those below
 * the log's first, so `room_log` holds exactly the room's log (the engine's log is the last events by
 * seq, contiguous; events never change). `load` puts the stored events back into the room.
 *
 * Migration: rows written before the log had its own table hold the log in the room JSON and none in
 * `room_log`; `load` keeps that log, and the first save of the room moves it into `room_log` (nothing
 * is stored there yet, so every event is inserted) and empties it in the JSON. Files written before
 * applied command ids had their own table have a `rooms.applied`
 * column holding the list as JSON. Opening runs the schema creation in one IMMEDIATE transaction; when
 * the column is there, the same transaction copies its entries into `applied_commands` and drops the
 * column (ALTER TABLE ... DROP COLUMN), so one schema remains and the copy happens once. A list that
 * does not parse as applied command ids (or two entries of one room at one version) makes the open
 * throw, and the file is left exactly as it was. A server of the older version cannot use a migrated
 * file.
 *
 * better-sqlite3 is synchronous: each method runs to completion before any other JavaScript, which
 * makes the conditional writes atomic within a process; across processes (or two instances on one
 * file) the `WHERE version = ?` guard and SQLite's locking do it.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { LoggedEvent, Room } from '../../engine/types';
import { immutableJson, roomJson } from '../room-json';
import { APPLIED_COMMANDS_KEPT } from '../room-service';
import type { AppliedCommand, RoomStore, StoredRoom } from './room-store';
import { type CheckpointerOptions, startCheckpointer } from './sqlite-checkpointer';

/** The database file name inside DATA_DIR. */
export const SQLITE_FILE_NAME = 'chipless.sqlite';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS rooms (
  code TEXT PRIMARY KEY,
  version INTEGER NOT NULL,
  room TEXT NOT NULL,
  last_activity INTEGER NOT NULL
) STRICT;
DROP INDEX IF EXISTS rooms_last_activity;
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

interface RoomRow {
  version: number;
  room: string;
}

/** An applied_commands row as read with .raw(): command_id, actor_id, version. */
type AppliedRow = [string, string, number];

/** Options of the SQLite store. */
export interface SqliteStoreOptions {
  dataDir: string;
  /**
   * WAL checkpoints in a worker thread (sqlite-checkpointer.ts), so no command pays for one; `false`
   * leaves them to SQLite (inside the write that crosses 1,000 pages). Default: on.
   */
  checkpoints?: CheckpointerOptions | false;
}

/** Opens (creating when needed, migrating an older file) the SQLite store in `dataDir`. */
export function createSqliteStore(options: SqliteStoreOptions): RoomStore {
  mkdirSync(options.dataDir, { recursive: true });
  const file = join(options.dataDir, SQLITE_FILE_NAME);
  const db = new Database(file);
  try {
    db.pragma('journal_mode = WAL');
    // NORMAL in WAL mode is durable against process crashes (the ones the crash test makes); a power
    // loss may lose the last transactions. FULL would fsync every command.
    db.pragma('synchronous = NORMAL');
    db.pragma('busy_timeout = 5000');
    // One IMMEDIATE transaction: a second process opening the file waits for this one's migration,
    // and a migration that fails leaves the file exactly as it was.
    db.transaction(() => {
      db.exec(SCHEMA);
      migrateAppliedColumn(db);
    }).immediate();
  } catch (err) {
    db.close();
    throw err;
  }
  const checkpointer =
    options.checkpoints === false ? null : startCheckpointer(db, file, options.checkpoints);

  const selectRoom = db.prepare<[string], RoomRow>('SELECT version, room FROM rooms WHERE code = ?');
  const selectApplied = db
    .prepare<[string], AppliedRow>(
      'SELECT command_id, actor_id, version FROM applied_commands WHERE code = ? ORDER BY version',
    )
    .raw();
  const insertRoom = db.prepare<[string, number, string, number]>(
    'INSERT OR IGNORE INTO rooms (code, version, room, last_activity) VALUES (?, ?, ?, ?)',
  );
  const updateRoom = db.prepare<[number, string, number, string, number]>(
    'UPDATE rooms SET version = ?, room = ?, last_activity = ? WHERE code = ? AND version = ?',
  );
  const deleteRoom = db.prepare<[string, number]>('DELETE FROM rooms WHERE code = ? AND version = ?');
  const insertApplied = db.prepare<[string, number, string, string]>(
    'INSERT INTO applied_commands (code, version, command_id, actor_id) VALUES (?, ?, ?, ?)',
  );
  const pruneApplied = db.prepare<[string, number]>(
    'DELETE FROM applied_commands WHERE code = ? AND version <= ?',
  );
  const deleteApplied = db.prepare<[string]>('DELETE FROM applied_commands WHERE code = ?');
  const touchRoom = db.prepare<[number, string]>('UPDATE rooms SET last_activity = ? WHERE code = ?');
  const selectIdle = db.prepare<[number], { code: string }>('SELECT code FROM rooms WHERE last_activity < ?');
  const addCounter = db.prepare<[string, number]>(
    'INSERT INTO counters (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = value + excluded.value',
  );
  const selectCounter = db.prepare<[string], { value: number }>('SELECT value FROM counters WHERE key = ?');

  const touchAll = db.transaction((codes: readonly string[], now: number) => {
    for (const code of codes) touchRoom.run(now, code);
  });
  const incrementAll = db.transaction((counters: Record<string, number>) => {
    for (const [key, by] of Object.entries(counters)) addCounter.run(key, by);
  });
  const selectLog = db
    .prepare<[string], string>('SELECT event FROM room_log WHERE code = ? ORDER BY seq')
    .pluck();
  const selectLastSeq = db
    .prepare<[string], number | null>('SELECT max(seq) FROM room_log WHERE code = ?')
    .pluck();
  const insertEvent = db.prepare<[string, number, string]>(
    'INSERT INTO room_log (code, seq, event) VALUES (?, ?, ?)',
  );
  const pruneLog = db.prepare<[string, number]>('DELETE FROM room_log WHERE code = ? AND seq < ?');
  const deleteLog = db.prepare<[string]>('DELETE FROM room_log WHERE code = ?');

  /** Makes `room_log` hold exactly `log`: inserts the events above the highest stored seq, deletes the older ones. */
  const writeLog = (code: string, log: LoggedEvent[]) => {
    const last = selectLastSeq.get(code) ?? Number.NEGATIVE_INFINITY;
    for (const e of log) if (e.seq > last) insertEvent.run(code, e.seq, immutableJson(e));
    if (log.length === 0) deleteLog.run(code);
    else pruneLog.run(code, log[0]!.seq);
  };
  const loadRows = db.transaction((code: string) => {
    const row = selectRoom.get(code);
    return row ? { row, applied: selectApplied.all(code), log: selectLog.all(code) } : null;
  });
  const createRows = db.transaction((record: StoredRoom) => {
    const { room } = record;
    if (insertRoom.run(room.roomCode, record.version, rowJson(room), room.lastActivity).changes !== 1) {
      return false;
    }
    // delete() removes a room's entries with it, so a free code has none; clearing anyway keeps the
    // stored lists exactly the created ones whatever the file went through.
    deleteApplied.run(room.roomCode);
    for (const c of record.appliedCommands)
      insertApplied.run(room.roomCode, c.version, c.commandId, c.actorId);
    deleteLog.run(room.roomCode);
    writeLog(room.roomCode, room.log);
    return true;
  });
  const saveRows = db.transaction((record: StoredRoom, expectedVersion: number) => {
    const { room } = record;
    const code = room.roomCode;
    const json = rowJson(room);
    if (updateRoom.run(record.version, json, room.lastActivity, code, expectedVersion).changes !== 1) {
      return false;
    }
    for (const c of record.appliedCommands) {
      if (c.version > expectedVersion) insertApplied.run(code, c.version, c.commandId, c.actorId);
    }
    pruneApplied.run(code, record.version - APPLIED_COMMANDS_KEPT);
    writeLog(code, room.log);
    return true;
  });
  const deleteRows = db.transaction((code: string, expectedVersion: number) => {
    if (deleteRoom.run(code, expectedVersion).changes !== 1) return false;
    deleteApplied.run(code);
    deleteLog.run(code);
    return true;
  });

  let closed = false;

  return {
    async load(roomCode) {
      const rows = loadRows(roomCode);
      if (!rows) return null;
      const room = JSON.parse(rows.row.room) as Room;
      // No stored events: a row from before room_log (its log is in the JSON), or an empty log.
      if (rows.log.length > 0) room.log = rows.log.map((e) => JSON.parse(e) as LoggedEvent);
      return {
        room,
        version: rows.row.version,
        appliedCommands: rows.applied.map(([commandId, actorId, version]) => ({
          commandId,
          actorId,
          version,
        })),
      };
    },
    async create(record) {
      return createRows(record);
    },
    async save(record: StoredRoom, expectedVersion) {
      return saveRows(record, expectedVersion);
    },
    async delete(roomCode, expectedVersion) {
      return deleteRows(roomCode, expectedVersion);
    },
    async touch(roomCodes, now) {
      touchAll(roomCodes, now);
    },
    async listIdle(before) {
      return selectIdle.all(before).map((r) => r.code);
    },
    async increment(counters) {
      incrementAll(counters);
    },
    async readCounters(keys) {
      const out: Record<string, number> = {};
      for (const key of keys) out[key] = selectCounter.get(key)?.value ?? 0;
      return out;
    },
    async close() {
      if (closed) return;
      closed = true;
      await checkpointer?.stop();
      db.close();
    },
  };
}

/** The JSON of the room row: the room without its log (which `room_log` holds). */
function rowJson(room: Room): string {
  return roomJson(room.log.length === 0 ? room : { ...room, log: [] });
}

/** Rooms read per step of the migration (bounds the memory it needs). */
const MIGRATION_PAGE = 500;

/**
 * Moves the applied command ids of a file written before they had their own table (`rooms.applied`,
 * a JSON list) into `applied_commands` and drops the column. Runs inside the opening transaction; does
 * nothing on a file without the column (new, or migrated already). See the file comment.
 */
function migrateAppliedColumn(db: Database.Database): void {
  const hasColumn = db.prepare("SELECT 1 FROM pragma_table_info('rooms') WHERE name = 'applied'").get();
  if (hasColumn === undefined) return;
  const page = db.prepare<[string, number], { code: string; applied: string }>(
    'SELECT code, applied FROM rooms WHERE code > ? ORDER BY code LIMIT ?',
  );
  const insert = db.prepare<[string, number, string, string]>(
    'INSERT INTO applied_commands (code, version, command_id, actor_id) VALUES (?, ?, ?, ?)',
  );
  let after = '';
  for (;;) {
    const rows = page.all(after, MIGRATION_PAGE);
    for (const { code, applied } of rows) {
      for (const c of parseAppliedList(code, applied)) insert.run(code, c.version, c.commandId, c.actorId);
    }
    if (rows.length < MIGRATION_PAGE) break;
    after = rows[rows.length - 1]!.code;
  }
  db.exec('ALTER TABLE rooms DROP COLUMN applied');
}

/** The applied command list of `code` as the older format stored it; throws when it is not one. */
function parseAppliedList(code: string, json: string): AppliedCommand[] {
  const fail = (): never => {
    throw new Error(`SQLite migration: room ${code} has an unreadable applied command list`);
  };
  let list: unknown;
  try {
    list = JSON.parse(json);
  } catch {
    return fail();
  }
  if (!Array.isArray(list)) return fail();
  for (const c of list as unknown[]) {
    if (
      typeof c !== 'object' ||
      c === null ||
      typeof (c as AppliedCommand).commandId !== 'string' ||
      typeof (c as AppliedCommand).actorId !== 'string' ||
      !Number.isSafeInteger((c as AppliedCommand).version)
    ) {
      fail();
    }
  }
  return list as AppliedCommand[];
}
