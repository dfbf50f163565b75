/**
 * The SQLite store's activity times: `rooms.last_activity` has no index (every command would update
 * it; see sqlite-store.ts), `listIdle` scans the table, and a file made while the index existed loses
 * it when opened and keeps working.
 */
import { describe, expect, it } from 'vitest';
import { createRoom } from '../../engine';
import type { StoredRoom } from './room-store';
import { sqliteTestFile } from './sqlite-test-file';

const { open, withFile } = sqliteTestFile('chipless-activity-');

const indexes = () =>
  withFile((db) =>
    db
      .prepare<[], string>("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'rooms'")
      .pluck()
      .all(),
  );

function record(code: string, at: number): StoredRoom {
  const room = createRoom({ roomCode: code, hostId: 'h', hostName: 'Hana', startingChips: 5000, now: at });
  return { room, version: 1, appliedCommands: [] };
}

describe('SQLite store activity times', () => {
  it('keeps no index on last_activity, and lists idle rooms without one', async () => {
    const store = open();
    for (const [code, at] of [
      ['AAAAA', 1_000],
      ['BBBBB', 5_000],
      ['CCCCC', 9_000],
    ] as const) {
      expect(await store.create(record(code, at))).toBe(true);
    }
    // Only the primary key's own index.
    expect(indexes()).toEqual(['sqlite_autoindex_rooms_1']);
    expect((await store.listIdle(5_001)).sort()).toEqual(['AAAAA', 'BBBBB']);
    await store.touch(['AAAAA'], 10_000);
    expect(await store.listIdle(5_001)).toEqual(['BBBBB']);
  });

  it('drops the index of a file made before, which then works as a new one', async () => {
    const first = open();
    expect(await first.create(record('AAAAA', 1_000))).toBe(true);
    await first.close();
    withFile((db) => db.exec('CREATE INDEX rooms_last_activity ON rooms (last_activity)'));
    expect(indexes().sort()).toEqual(['rooms_last_activity', 'sqlite_autoindex_rooms_1']);

    const store = open();
    expect(indexes()).toEqual(['sqlite_autoindex_rooms_1']);
    expect(await store.create(record('BBBBB', 9_000))).toBe(true);
    expect(await store.listIdle(5_000)).toEqual(['AAAAA']);
    expect((await store.load('AAAAA'))?.room.lastActivity).toBe(1_000);
  });
});
