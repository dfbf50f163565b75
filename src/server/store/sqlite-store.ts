/**
 * The default RoomStore: one SQLite file (better-sqlite3, WAL) in DATA_DIR. One row per room holds the
 * room JSON, its version, the recent applied command ids and the activity time, so a command's result
 * is committed in one statement. better-sqlite3 is synchronous: each method runs to completion before
 * any other JavaScript, which makes the conditional writes atomic within a process; across processes
 * (or two instances on one file) the `WHERE version = ?` guard and SQLite's locking do it.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { Room } from '../../engine/types';
import { roomJson } from '../room-json';
import type { AppliedCommand, RoomStore, StoredRoom } from './room-store';
import { type CheckpointerOptions, startCheckpointer } from './sqlite-checkpointer';

/** The database file name inside DATA_DIR. */
export const SQLITE_FILE_NAME = 'chipless.sqlite';

const SCHEMA = `
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

interface RoomRow {
  version: number;
  room: string;
  applied: string;
}

/** Options of the SQLite store. */
export interface SqliteStoreOptions {
  dataDir: string;
  /**
   * WAL checkpoints in a worker thread (sqlite-checkpointer.ts), so no command pays for one; `false`
   * leaves them to SQLite (inside the write that crosses 1,000 pages). Default: on.
   */
  checkpoints?: CheckpointerOptions | false;
}

/** Opens (creating when needed) the SQLite store in `dataDir`. */
export function createSqliteStore(options: SqliteStoreOptions): RoomStore {
  mkdirSync(options.dataDir, { recursive: true });
  const file = join(options.dataDir, SQLITE_FILE_NAME);
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  // NORMAL in WAL mode is durable against process crashes (the ones the crash test makes); a power
  // loss may lose the last transactions. FULL would fsync every command.
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  db.exec(SCHEMA);
  const checkpointer =
    options.checkpoints === false ? null : startCheckpointer(db, file, options.checkpoints);

  const selectRoom = db.prepare<[string], RoomRow>('SELECT version, room, applied FROM rooms WHERE code = ?');
  const insertRoom = db.prepare<[string, number, string, string, number]>(
    'INSERT OR IGNORE INTO rooms (code, version, room, applied, last_activity) VALUES (?, ?, ?, ?, ?)',
  );
  const updateRoom = db.prepare<[number, string, string, number, string, number]>(
    'UPDATE rooms SET version = ?, room = ?, applied = ?, last_activity = ? WHERE code = ? AND version = ?',
  );
  const deleteRoom = db.prepare<[string, number]>('DELETE FROM rooms WHERE code = ? AND version = ?');
  const touchRoom = db.prepare<[number, string]>('UPDATE rooms SET last_activity = ? WHERE code = ?');
  const selectIdle = db.prepare<[number], { code: string }>('SELECT code FROM rooms WHERE last_activity < ?');
  const addCounter = db.prepare<[string, number]>(
    'INSERT INTO counters (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = value + excluded.value',
  );
  const selectCounter = db.prepare<[string], { value: number }>('SELECT value FROM counters WHERE key = ?');
  const incrementAll = db.transaction((counters: Record<string, number>) => {
    for (const [key, by] of Object.entries(counters)) addCounter.run(key, by);
  });

  let closed = false;

  return {
    async load(roomCode) {
      const row = selectRoom.get(roomCode);
      if (!row) return null;
      return {
        room: JSON.parse(row.room) as Room,
        version: row.version,
        appliedCommands: JSON.parse(row.applied) as AppliedCommand[],
      };
    },
    async create(record) {
      const { room } = record;
      const info = insertRoom.run(
        room.roomCode,
        record.version,
        roomJson(room),
        JSON.stringify(record.appliedCommands),
        room.lastActivity,
      );
      return info.changes === 1;
    },
    async save(record: StoredRoom, expectedVersion) {
      const { room } = record;
      const info = updateRoom.run(
        record.version,
        roomJson(room),
        JSON.stringify(record.appliedCommands),
        room.lastActivity,
        room.roomCode,
        expectedVersion,
      );
      return info.changes === 1;
    },
    async delete(roomCode, expectedVersion) {
      return deleteRoom.run(roomCode, expectedVersion).changes === 1;
    },
    async touch(roomCode, now) {
      touchRoom.run(now, roomCode);
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
