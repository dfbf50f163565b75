/**
 * Test support for the SQLite store's own suites: a temporary data dir per test, the stores opened on
 * it (closed after the test), and a connection of its own to the file, to see or set exactly what is
 * stored. The stores `open` hands out wait after each write until the writer thread has applied it
 * (SqliteStore.flush), so what a test reads from the file is what the write left there.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach } from 'vitest';
import { createSqliteStore, SQLITE_FILE_NAME, type SqliteStore } from './sqlite-store';

export interface SqliteTestFile {
  /** This test's data dir. */
  readonly dir: string;
  /** Opens the store on the dir (each write resolves once it is in the file); closed after the test. */
  open(): SqliteStore;
  /** Runs `fn` on a connection of its own to the store's file. */
  withFile<T>(fn: (db: Database.Database) => T): T;
}

/** Registers the per-test hooks (call at the top of a test file) and returns the helpers. */
export function sqliteTestFile(prefix: string): SqliteTestFile {
  let dir = '';
  let opened: SqliteStore[] = [];
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
      const store = createSqliteStore({ dataDir: dir });
      opened.push(store);
      return applyingEachWrite(store);
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

/** `store`, each of whose writes resolves once the database holds it. */
function applyingEachWrite(store: SqliteStore): SqliteStore {
  const then = async <T>(result: Promise<T>): Promise<T> => {
    const value = await result;
    await store.flush();
    return value;
  };
  return {
    ...store,
    create: (record) => then(store.create(record)),
    save: (record, expectedVersion) => then(store.save(record, expectedVersion)),
    delete: (roomCode, expectedVersion) => then(store.delete(roomCode, expectedVersion)),
    touch: (roomCodes, now) => then(store.touch(roomCodes, now)),
    increment: (counters) => then(store.increment(counters)),
  };
}
