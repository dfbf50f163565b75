/**
 * The SQLite store's schema (sqlite-store.ts describes the tables and why they are laid out so) and
 * the migrations of files written by older versions.
 *
 * Migrations, each run once by the store's open (prepareSchema) and tested (sqlite-applied-commands,
 * sqlite-rings and sqlite-log .test.ts):
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
 */
import type Database from 'better-sqlite3';
import type { AppliedCommand } from './room-store';
import { APPLIED_SLOTS, LOG_SLOTS } from './slots';
import { FILL_APPLIED, FILL_LOG, PUT_APPLIED } from './sqlite-apply';

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
CREATE TABLE IF NOT EXISTS meta (
  key TEXT PRIMARY KEY,
  value INTEGER NOT NULL
) STRICT;
`;

/** `PRAGMA user_version` of a file whose rooms all have whole rings (fillRings). */
const WHOLE_RINGS_VERSION = 1;

/**
 * Creates the tables of a new file, or brings an older file's up to date. Runs inside the caller's
 * IMMEDIATE transaction (the open's), so a migration that fails leaves the file exactly as it was.
 */
export function prepareSchema(db: Database.Database): void {
  db.exec(SCHEMA);
  migrateAppliedColumn(db);
  migrateRowTables(db);
  addLogLastColumn(db);
  fillRings(db);
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
