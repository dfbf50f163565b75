/**
 * Test support for the SQLite store's own suites: a temporary data dir per test, the stores opened on
 * it (closed after the test, without the checkpoint thread), and a connection of its own to the file,
 * to see or set exactly what is stored.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach } from 'vitest';
import type { RoomStore } from './room-store';
import { createSqliteStore, SQLITE_FILE_NAME } from './sqlite-store';

export interface SqliteTestFile {
  /** This test's data dir. */
  readonly dir: string;
  /** Opens the store on the dir; closed after the test. */
  open(): RoomStore;
  /** Runs `fn` on a connection of its own to the store's file. */
  withFile<T>(fn: (db: Database.Database) => T): T;
}

/** Registers the per-test hooks (call at the top of a test file) and returns the helpers. */
export function sqliteTestFile(prefix: string): SqliteTestFile {
  let dir = '';
  let opened: RoomStore[] = [];
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), prefix));
    opened = [];
  });
  afterEach(async () => {
    for (const store of opened) await store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return {
    get dir() {
      return dir;
    },
    open() {
      const store = createSqliteStore({ dataDir: dir, checkpoints: false });
      opened.push(store);
      return store;
    },
    withFile(fn) {
      const db = new Database(join(dir, SQLITE_FILE_NAME));
      try {
        return fn(db);
      } finally {
        db.close();
      }
    },
  };
}
