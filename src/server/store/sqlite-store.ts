/**
 * The default RoomStore: one SQLite file (better-sqlite3, WAL) in DATA_DIR.
 *
 * What a command costs here is mostly the pages its transaction writes to the WAL (~7 µs each, against
 * ~2–4 µs per statement; bench/README.md), so the schema is laid out for few pages per save:
 *
 * - `rooms(code, version, room, last_activity, log_last)`: one row per room, the room JSON (its `log`
 *   empty, see below), its version and the highest seq in its log slots (null when none or not known). No index on `last_activity`: every command moves it, and keeping an
 *   index in step cost two more pages per command (~9 of ~29 KB written), while its only reader,
 *   `listIdle`, runs once per cleanup interval (5 minutes) and scans the table instead (0.1–0.3 ms at
 *   1,000 rooms of 6 players). Opening a file made while the index existed drops it.
 * - `applied_slots(code, slot, version, command_id, actor_id)`: the room's recent applied command ids
 *   as a ring of APPLIED_COMMANDS_KEPT slots (slot = version % APPLIED_COMMANDS_KEPT; WITHOUT ROWID,
 *   keyed by (code, slot)). A save overwrites the one slot of its new version in place: one page, no
 *   delete, no page split. `load` reads the slots with a version above the room's version minus
 *   APPLIED_COMMANDS_KEPT and above 0 (older slots not yet overwritten, and free ones, are left out),
 *   in version order.
 * - `log_slots(code, slot, seq, event)`: the room's hand log as a ring of LOG_LIMIT slots (slot = seq
 *   % LOG_LIMIT). A save writes the events with a seq above the highest stored one (the row's
 *   `log_last`, read with the version before the UPDATE; reading the slots instead cost ~12 µs) into
 *   their slots.
 *   The engine's log is the last at most LOG_LIMIT events, consecutive by seq, and only grows at its
 *   end (dropping from its start once full), so the slots hold exactly the log; while it is shorter
 *   than the ring a save also frees any slot below the log's first seq. A log that does not fit a
 *   ring (not increasing, or spanning LOG_LIMIT seqs or more: never the engine's) stays in the room
 *   JSON with its slots all free, which `load` reads as it is. Events are stored padded with spaces
 *   to a multiple of EVENT_CELL bytes (JSON.parse skips them), so nearly every event is the same size.
 * - **Both rings are whole from the room's creation**: `create` fills every slot the record does not
 *   use with a free one (applied: version -1 and blank ids as long as a UUID; log: seq -1 and a blank
 *   event of EVENT_CELL bytes); freeing a log slot overwrites it so, and only `delete` removes slots.
 *   So a save never inserts or deletes a slot row, it overwrites one of the same size: SQLite
 *   rewrites the cell in place and never splits or merges a B-tree page. Inserting into a filling ring
 *   split pages every few commands during a room's first ~100 commands, and every split costs
 *   more than its pages: SQLite's balance routine renumbers pages through a temporary page number
 *   (1 GiB / page size), after which the commit scans the whole page cache (16 MB, ~4,000 pages) to
 *   drop pages beyond the end of the file. That scan was the top native function in a profile of the
 *   loaded server (`perf`, 4.3% of its samples; bench/README.md). Files written before this get whole
 *   rings for all their rooms when opened (see the migrations).
 * - `counters(key, value)`: analytics counters.
 *
 * A save is one transaction: the conditional UPDATE of the room row (`WHERE version = ?`) and, only if
 * it changed the row, the slots of the record's applied entries newer than the expected version (the
 * room service's one new command id) and of the new log events. This relies on what the room service
 * does: a save's `appliedCommands` is the loaded list plus the new command (version = the new room
 * version), cut to the newest APPLIED_COMMANDS_KEPT; versions grow by one per committed change and
 * every committed change comes from exactly one command. Entries at or below the expected version are
 * taken to be stored already and are not written again; an entry that is not newer than its slot's
 * (two at one version) makes the write throw and roll back. `create` writes the row and all its
 * entries and events (and the free slots); `delete` removes them all; each in one transaction, so a
 * crash never leaves half a write, and nothing outlives its room. `load` reads everything in one read
 * transaction (one snapshot, even while another connection writes).
 *
 * Migrations, each run once by the open (below) and tested:
 * - Files written before the slots had `applied_commands(code, version, ...)` and `room_log(code, seq,
 *   event)`, one row per entry and per event (a save inserted at one end of the room's rows and
 *   deleted at the other: two to four pages). Their rows are copied into the slots and the tables
 *   dropped.
 * - Files written before applied command ids had their own table have a `rooms.applied` column holding
 *   the list as JSON: its entries go into the slots and the column is dropped (ALTER TABLE ... DROP
 *   COLUMN). A list that does not parse as applied command ids (or two entries of one room at one
 *   version) makes the open throw, and the file is left exactly as it was.
 * - Rows written before the log had its own table hold the log in the room JSON and have no slots;
 *   `load` keeps that log, and the first save of the room moves it into the slots.
 * - Files made before `rooms.log_last` get the column (ALTER TABLE ... ADD COLUMN), null in every row.
 * - Files written before the rings were whole from creation (`PRAGMA user_version` 0) get a free slot
 *   in every slot of every room that has no row (`fillRings`), then user_version 1.
 * Opening runs the schema creation and the migrations in one IMMEDIATE transaction: a second process
 * opening the file waits, and a migration that fails leaves the file as it was. A server of an older
 * version cannot use a migrated file.
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
import type { AppliedCommand, RoomStore, StoredRoom } from './room-store';
import { APPLIED_SLOTS, fitsRing, LOG_SLOTS, logLast } from './slots';
import { type CheckpointerOptions, startCheckpointer } from './sqlite-checkpointer';

/** The database file name inside DATA_DIR. */
export const SQLITE_FILE_NAME = 'chipless.sqlite';

/** The version of a free applied slot and the seq of a free log slot (real ones are never negative). */
const FREE = -1;
/** The ids of a free applied slot: as long as the UUIDs the server and its clients use. */
const FREE_ID = ' '.repeat(36);
/** Log events are stored padded to a multiple of this many bytes (the engine's are 65–256). */
export const EVENT_CELL = 256;
/** The event of a free log slot. */
const FREE_EVENT = ' '.repeat(EVENT_CELL);

const SCHEMA = `
CREATE TABLE IF NOT EXISTS rooms (
  code TEXT PRIMARY KEY,
  version INTEGER NOT NULL,
  room TEXT NOT NULL,
  last_activity INTEGER NOT NULL,
  log_last INTEGER
) STRICT;
DROP INDEX IF EXISTS rooms_last_activity;
CREATE TABLE IF NOT EXISTS applied_slots (
  code TEXT NOT NULL,
  slot INTEGER NOT NULL,
  version INTEGER NOT NULL,
  command_id TEXT NOT NULL,
  actor_id TEXT NOT NULL,
  PRIMARY KEY (code, slot)
) STRICT, WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS log_slots (
  code TEXT NOT NULL,
  slot INTEGER NOT NULL,
  seq INTEGER NOT NULL,
  event TEXT NOT NULL,
  PRIMARY KEY (code, slot)
) STRICT, WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS counters (
  key TEXT PRIMARY KEY,
  value INTEGER NOT NULL
) STRICT;
`;

/** Puts a free slot into every slot of a room's applied ring that has no row. */
const FILL_APPLIED = `
WITH RECURSIVE s(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM s WHERE n < ${APPLIED_SLOTS - 1})
INSERT OR IGNORE INTO applied_slots (code, slot, version, command_id, actor_id)
SELECT ?, n, ${FREE}, '${FREE_ID}', '${FREE_ID}' FROM s`;

/** Puts a free slot into every slot of a room's log ring that has no row. */
const FILL_LOG = `
WITH RECURSIVE s(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM s WHERE n < ${LOG_SLOTS - 1})
INSERT OR IGNORE INTO log_slots (code, slot, seq, event) SELECT ?, n, ${FREE}, '${FREE_EVENT}' FROM s`;

/** `PRAGMA user_version` of a file whose rooms all have whole rings (fillRings). */
const WHOLE_RINGS_VERSION = 1;

/** Writes an applied entry into its slot unless the slot holds one at least as new (then changes = 0). */
const PUT_APPLIED = `
INSERT INTO applied_slots (code, slot, version, command_id, actor_id) VALUES (?, ?, ?, ?, ?)
ON CONFLICT (code, slot) DO UPDATE SET
  version = excluded.version, command_id = excluded.command_id, actor_id = excluded.actor_id
WHERE excluded.version > applied_slots.version`;

interface RoomRow {
  version: number;
  room: string;
}

/** What a save reads of the stored row first. */
interface StoredHead {
  version: number;
  log_last: number | null;
}

/** An applied_slots row as read with .raw(): command_id, actor_id, version. */
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
      migrateRowTables(db);
      addLogLastColumn(db);
      fillRings(db);
    }).immediate();
  } catch (err) {
    db.close();
    throw err;
  }
  const checkpointer =
    options.checkpoints === false ? null : startCheckpointer(db, file, options.checkpoints);

  const selectRoom = db.prepare<[string], RoomRow>('SELECT version, room FROM rooms WHERE code = ?');
  const selectApplied = db
    .prepare<[string, number], AppliedRow>(
      'SELECT command_id, actor_id, version FROM applied_slots WHERE code = ? AND version > max(?, 0) ORDER BY version',
    )
    .raw();
  const selectHead = db.prepare<[string], StoredHead>('SELECT version, log_last FROM rooms WHERE code = ?');
  const insertRoom = db.prepare<[string, number, string, number, number | null]>(
    'INSERT OR IGNORE INTO rooms (code, version, room, last_activity, log_last) VALUES (?, ?, ?, ?, ?)',
  );
  const updateRoom = db.prepare<[number, string, number, number | null, string, number]>(
    'UPDATE rooms SET version = ?, room = ?, last_activity = ?, log_last = ? WHERE code = ? AND version = ?',
  );
  const deleteRoom = db.prepare<[string, number]>('DELETE FROM rooms WHERE code = ? AND version = ?');
  const putApplied = db.prepare<[string, number, number, string, string]>(PUT_APPLIED);
  const deleteApplied = db.prepare<[string]>('DELETE FROM applied_slots WHERE code = ?');
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
    .prepare<[string], string>('SELECT event FROM log_slots WHERE code = ? AND seq >= 0 ORDER BY seq')
    .pluck();
  const selectLastSeq = db
    .prepare<[string], number | null>('SELECT max(seq) FROM log_slots WHERE code = ? AND seq >= 0')
    .pluck();
  const putEvent = db.prepare<[string, number, number, string]>(
    `INSERT INTO log_slots (code, slot, seq, event) VALUES (?, ?, ?, ?)
     ON CONFLICT (code, slot) DO UPDATE SET seq = excluded.seq, event = excluded.event`,
  );
  const pruneLog = db.prepare<[string, number]>(
    `UPDATE log_slots SET seq = ${FREE}, event = '${FREE_EVENT}' WHERE code = ? AND seq >= 0 AND seq < ?`,
  );
  const clearLog = db.prepare<[string]>(
    `UPDATE log_slots SET seq = ${FREE}, event = '${FREE_EVENT}' WHERE code = ? AND seq >= 0`,
  );
  const deleteLog = db.prepare<[string]>('DELETE FROM log_slots WHERE code = ?');
  const fillApplied = db.prepare<[string]>(FILL_APPLIED);
  const fillLog = db.prepare<[string]>(FILL_LOG);

  /** Writes `c` into its slot; throws when the slot holds an entry at least as new (see the file comment). */
  const writeApplied = (code: string, c: AppliedCommand) => {
    if (putApplied.run(code, c.version % APPLIED_SLOTS, c.version, c.commandId, c.actorId).changes !== 1) {
      throw new Error(`SQLite store: applied command at version ${c.version} of room ${code} is not new`);
    }
  };
  /**
   * Makes the log slots hold exactly `log` (which fits the ring): new events in, stale slots out.
   * `storedLast` is the row's `log_last` (the highest seq in the slots), null when the row does not
   * know it (written before the column, or no events in the slots): then the slots are read.
   */
  const writeLog = (code: string, log: LoggedEvent[], storedLast: number | null) => {
    if (log.length === 0) {
      clearLog.run(code);
      return;
    }
    const last = storedLast ?? selectLastSeq.get(code) ?? Number.NEGATIVE_INFINITY;
    for (const e of log)
      if (e.seq > last) putEvent.run(code, e.seq % LOG_SLOTS, e.seq, slotEvent(immutableJson(e)));
    // A full ring has every slot overwritten by the log; a shorter log may have left some behind.
    if (log.length < LOG_SLOTS) pruneLog.run(code, log[0]!.seq);
  };
  const loadRows = db.transaction((code: string) => {
    const row = selectRoom.get(code);
    if (!row) return null;
    return { row, applied: selectApplied.all(code, row.version - APPLIED_SLOTS), log: selectLog.all(code) };
  });
  const createRows = db.transaction((record: StoredRoom) => {
    const { room } = record;
    const inRing = fitsRing(room.log);
    if (
      insertRoom.run(
        room.roomCode,
        record.version,
        rowJson(room, inRing),
        room.lastActivity,
        logLast(room.log, inRing),
      ).changes !== 1
    ) {
      return false;
    }
    // delete() removes a room's slots with it, so a free code has none; clearing anyway keeps the
    // stored lists exactly the created ones whatever the file went through.
    deleteApplied.run(room.roomCode);
    for (const c of record.appliedCommands) writeApplied(room.roomCode, c);
    deleteLog.run(room.roomCode);
    if (inRing) writeLog(room.roomCode, room.log, null);
    fillApplied.run(room.roomCode);
    fillLog.run(room.roomCode);
    return true;
  });
  // Run with BEGIN IMMEDIATE (below): it reads the row before writing, and a deferred transaction
  // whose read snapshot another connection overtook could not then write.
  const saveRows = db.transaction((record: StoredRoom, expectedVersion: number) => {
    const { room } = record;
    const code = room.roomCode;
    const head = selectHead.get(code);
    if (head?.version !== expectedVersion) return false;
    const inRing = fitsRing(room.log);
    const json = rowJson(room, inRing);
    const last = logLast(room.log, inRing);
    if (updateRoom.run(record.version, json, room.lastActivity, last, code, expectedVersion).changes !== 1) {
      return false;
    }
    for (const c of record.appliedCommands) if (c.version > expectedVersion) writeApplied(code, c);
    if (inRing) writeLog(code, room.log, head.log_last);
    else clearLog.run(code);
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
      // No slots: the log is in the JSON (a log that does not fit the ring, or a row from before the
      // log had its own table), or empty.
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
      return saveRows.immediate(record, expectedVersion);
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

/** An event's JSON padded with spaces (which JSON.parse skips) to a whole number of EVENT_CELL bytes. */
export function slotEvent(json: string): string {
  const bytes = Buffer.byteLength(json);
  const rest = bytes % EVENT_CELL;
  return rest === 0 ? json : json + ' '.repeat(EVENT_CELL - rest);
}

/** The JSON of the room row: the room without its log when the log goes into the slots. */
function rowJson(room: Room, logInSlots: boolean): string {
  return roomJson(!logInSlots || room.log.length === 0 ? room : { ...room, log: [] });
}

/** Rooms read per step of the migration (bounds the memory it needs). */
const MIGRATION_PAGE = 500;

/**
 * Moves the applied command ids of a file written before they had their own table (`rooms.applied`,
 * a JSON list) into `applied_slots` and drops the column. Runs inside the opening transaction; does
 * nothing on a file without the column (new, or migrated already). See the file comment.
 */
function migrateAppliedColumn(db: Database.Database): void {
  const hasColumn = db.prepare("SELECT 1 FROM pragma_table_info('rooms') WHERE name = 'applied'").get();
  if (hasColumn === undefined) return;
  const page = db.prepare<[string, number], { code: string; applied: string }>(
    'SELECT code, applied FROM rooms WHERE code > ? ORDER BY code LIMIT ?',
  );
  const put = db.prepare<[string, number, number, string, string]>(PUT_APPLIED);
  let after = '';
  for (;;) {
    const rows = page.all(after, MIGRATION_PAGE);
    for (const { code, applied } of rows) {
      for (const c of parseAppliedList(code, applied)) {
        if (put.run(code, c.version % APPLIED_SLOTS, c.version, c.commandId, c.actorId).changes !== 1) {
          throw new Error(`SQLite migration: room ${code} has two applied commands at version ${c.version}`);
        }
      }
    }
    if (rows.length < MIGRATION_PAGE) break;
    after = rows[rows.length - 1]!.code;
  }
  db.exec('ALTER TABLE rooms DROP COLUMN applied');
}

/**
 * Moves the rows of `applied_commands` and `room_log` (the format before the slots: one row per entry
 * and per event, each room's rows exactly its kept entries and its log) into the slots and drops the
 * two tables. In seq/version order, so where two rows of a room share a slot the newer one stays (none
 * do in a file the store wrote). Runs inside the opening transaction; does nothing when the tables are
 * not there (new file, or migrated already).
 */
function migrateRowTables(db: Database.Database): void {
  const has = (table: string) =>
    db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(table) !== undefined;
  if (has('applied_commands')) {
    // `WHERE true`: an INSERT ... SELECT needs it before ON CONFLICT (SQLite's parsing ambiguity).
    db.exec(`
      INSERT INTO applied_slots (code, slot, version, command_id, actor_id)
      SELECT code, version % ${APPLIED_SLOTS}, version, command_id, actor_id FROM applied_commands
      WHERE true ORDER BY code, version
      ON CONFLICT (code, slot) DO UPDATE SET
        version = excluded.version, command_id = excluded.command_id, actor_id = excluded.actor_id;
      DROP TABLE applied_commands;
    `);
  }
  if (has('room_log')) {
    db.exec(`
      INSERT INTO log_slots (code, slot, seq, event)
      SELECT code, seq % ${LOG_SLOTS}, seq, event FROM room_log
      WHERE true ORDER BY code, seq
      ON CONFLICT (code, slot) DO UPDATE SET seq = excluded.seq, event = excluded.event;
      DROP TABLE room_log;
    `);
  }
}

/**
 * Makes the rings of every room whole (free slots where a room has no row) in a file written before
 * `create` did so, and marks the file (`PRAGMA user_version`, which commits or rolls back with the
 * opening transaction) so later opens skip it. Runs inside the opening transaction.
 */
function fillRings(db: Database.Database): void {
  if ((db.pragma('user_version', { simple: true }) as number) >= WHOLE_RINGS_VERSION) return;
  const page = db
    .prepare<[string, number], string>('SELECT code FROM rooms WHERE code > ? ORDER BY code LIMIT ?')
    .pluck();
  const fillApplied = db.prepare<[string]>(FILL_APPLIED);
  const fillLog = db.prepare<[string]>(FILL_LOG);
  let after = '';
  for (;;) {
    const codes = page.all(after, MIGRATION_PAGE);
    for (const code of codes) {
      fillApplied.run(code);
      fillLog.run(code);
    }
    if (codes.length < MIGRATION_PAGE) break;
    after = codes[codes.length - 1]!;
  }
  db.pragma(`user_version = ${WHOLE_RINGS_VERSION}`);
}

/**
 * Adds `rooms.log_last` to a file made before it (its rows get NULL: unknown, so their next save reads
 * the slots). Runs inside the opening transaction; does nothing when the column is there.
 */
function addLogLastColumn(db: Database.Database): void {
  const hasColumn = db.prepare("SELECT 1 FROM pragma_table_info('rooms') WHERE name = 'log_last'").get();
  if (hasColumn === undefined) db.exec('ALTER TABLE rooms ADD COLUMN log_last INTEGER');
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
