/**
 * One process per SQLite data directory. The store keeps recent saves in its journal until it applies
 * them to the database (sqlite-journal.ts), so a second process (or a second store in one process) on
 * the same directory would read rooms without their latest changes and append to the same journal.
 * It is refused instead; several processes share rooms through Redis (STORE=redis).
 *
 * The lock is SQLite's own exclusive lock on a small file beside the database: a connection in
 * `locking_mode=EXCLUSIVE` that has written keeps its lock until it closes. The operating system drops
 * the lock when the process dies however it dies (SIGKILL included), so a crashed server never leaves
 * a stale lock behind, and SQLite keeps the lock per connection also within one process.
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';

/** The lock file's name inside DATA_DIR. */
const LOCK_FILE_NAME = 'chipless.lock';

/** Thrown when another store holds the data directory. */
export class DataDirInUseError extends Error {
  constructor(dataDir: string) {
    super(
      `SQLite store: ${dataDir} is in use by another Chipless server. One server process per DATA_DIR; ` +
        'to run several processes, use STORE=redis.',
    );
    this.name = 'DataDirInUseError';
  }
}

/** A held lock. */
export interface DataDirLock {
  release(): void;
}

/** Takes the lock of `dataDir` (which must exist), or throws DataDirInUseError at once. */
export function lockDataDir(dataDir: string): DataDirLock {
  let db: Database.Database;
  try {
    db = new Database(join(dataDir, LOCK_FILE_NAME), { timeout: 0 });
  } catch (err) {
    if ((err as { code?: string }).code === 'SQLITE_BUSY') throw new DataDirInUseError(dataDir);
    throw err;
  }
  try {
    db.pragma('locking_mode = EXCLUSIVE');
    // The write takes the exclusive lock, which locking_mode=EXCLUSIVE keeps after the commit.
    db.exec('CREATE TABLE IF NOT EXISTS owner (pid INTEGER NOT NULL, since INTEGER NOT NULL)');
    db.transaction(() => {
      db.exec('DELETE FROM owner');
      db.prepare('INSERT INTO owner (pid, since) VALUES (?, ?)').run(process.pid, Date.now());
    }).exclusive();
  } catch (err) {
    db.close();
    if ((err as { code?: string }).code === 'SQLITE_BUSY') throw new DataDirInUseError(dataDir);
    throw err;
  }
  return {
    release() {
      if (db.open) db.close();
    },
  };
}
