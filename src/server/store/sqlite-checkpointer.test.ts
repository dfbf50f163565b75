/**
 * The SQLite store's background WAL checkpoints: automatic checkpoints are off on the store's own
 * connection, the worker keeps the WAL bounded under a steady stream of writes, nothing written is
 * lost, and close stops the worker.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import type { Room } from '../../engine/types';
import type { StoredRoom } from './room-store';
import { startCheckpointer } from './sqlite-checkpointer';
import { createSqliteStore, SQLITE_FILE_NAME } from './sqlite-store';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'chipless-ckpt-'));
  dirs.push(dir);
  return dir;
}

/** A record whose room JSON is about `bytes` long (the room's log carries the bulk). */
function bulky(code: string, version: number, bytes: number): StoredRoom {
  const room = {
    roomCode: code,
    lastActivity: 1_800_000_000_000 + version,
    log: [
      {
        type: 'stageChanged',
        stage: 'FLOP',
        seq: version,
        at: version,
        handNumber: 1,
        pad: 'x'.repeat(bytes),
      },
    ],
  } as unknown as Room;
  return { room, version, appliedCommands: [] };
}

function walBytes(dir: string): number {
  try {
    return statSync(join(dir, `${SQLITE_FILE_NAME}-wal`)).size;
  } catch {
    return 0;
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('SQLite background checkpoints', () => {
  it('keep the WAL bounded under a stream of writes, and lose nothing', async () => {
    const dir = tempDir();
    const limit = 512 * 1024;
    const store = createSqliteStore({ dataDir: dir, checkpoints: { intervalMs: 5, walLimitBytes: limit } });
    const codes = Array.from({ length: 20 }, (_, i) => `R${String(i).padStart(4, '0')}`);
    for (const code of codes) expect(await store.create(bulky(code, 1, 20_000))).toBe(true);
    // ~24 MB of writes: without checkpoints the WAL would hold all of it.
    for (let version = 2; version <= 60; version++) {
      for (const code of codes)
        expect(await store.save(bulky(code, version, 20_000), version - 1)).toBe(true);
      await sleep(2);
    }
    await sleep(50);
    // The store's own connection never checkpoints (wal_autocheckpoint 0), yet the pages reached the
    // database file: the worker copied them; and the WAL was rewound, so it stayed far below the
    // ~24 MB written (without rewinds it would hold all of it). How far below depends on how often the
    // worker got a core while the writes streamed, so the bound is half of what was written, not a
    // multiple of the limit (6.3 MB was seen with a load benchmark running beside the suite).
    const written = codes.length * 59 * 20_000;
    expect(statSync(join(dir, SQLITE_FILE_NAME)).size).toBeGreaterThan(20 * 20_000);
    expect(walBytes(dir)).toBeLessThan(written / 2);
    for (const code of codes) expect((await store.load(code))?.version).toBe(60);
    await store.close();
    const reopened = createSqliteStore({ dataDir: dir, checkpoints: false });
    for (const code of codes) expect(await reopened.load(code)).toEqual(bulky(code, 60, 20_000));
    await reopened.close();
  });

  it('turns automatic checkpoints off on the store connection, and back on if the worker dies', async () => {
    const dir = tempDir();
    const db = new Database(join(dir, 'x.sqlite'));
    db.pragma('journal_mode = WAL');
    const checkpointer = startCheckpointer(db, join(dir, 'x.sqlite'));
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(0);
    await checkpointer.stop();
    // A clean stop does not turn them back on (the connection is about to close).
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(0);
    db.close();

    const errors: Error[] = [];
    const db2 = new Database(join(dir, 'y.sqlite'));
    db2.pragma('journal_mode = WAL');
    // A file the worker cannot open (fileMustExist): the worker fails, SQLite's own checkpoints return.
    startCheckpointer(db2, join(dir, 'missing.sqlite'), { onError: (err) => errors.push(err) });
    for (let i = 0; i < 500 && db2.pragma('wal_autocheckpoint', { simple: true }) === 0; i++) await sleep(20);
    expect(db2.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
    expect(errors.length).toBeGreaterThan(0);
    db2.close();
  });

  it('close stops the worker; a second close is harmless', async () => {
    const dir = tempDir();
    const store = createSqliteStore({ dataDir: dir });
    expect(await store.create(bulky('ABCDE', 1, 100))).toBe(true);
    await store.close();
    await store.close();
  });
});
