/**
 * The SQLite store's rings are whole from a room's creation (see sqlite-store.ts): `create` fills every
 * slot with a free one, a save only overwrites slots of the same size, so no save inserts or deletes a
 * slot row or changes the number of B-tree pages of either ring, and free slots never show in what
 * `load` returns. Real rooms from the real engine; the file is read with a connection of its own and
 * SQLite's `dbstat` table (page counts per table).
 */
import { randomUUID } from 'node:crypto';
import type Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import type { Room } from '../../engine/types';
import { game } from './engine-game';
import type { StoredRoom } from './room-store';
import { APPLIED_COMMANDS_KEPT } from './room-store';
import { APPLIED_SLOTS, LOG_SLOTS } from './slots';
import { EVENT_CELL, slotEvent } from './sqlite-apply';
import { sqliteTestFile } from './sqlite-test-file';

const file = sqliteTestFile('chipless-rings-');
const { open, withFile } = file;

interface Rings {
  /** (slot, version) of every applied slot row, in slot order. */
  applied: Array<[number, number]>;
  /** (slot, seq) of every log slot row, in slot order. */
  log: Array<[number, number]>;
  /** UTF-8 byte lengths of the stored events. */
  eventBytes: number[];
  /** B-tree pages of each ring's table (both rings are shared by all rooms). */
  pages: { applied: number; log: number };
}

function rings(code: string): Rings {
  return withFile((db: Database.Database) => {
    const pages = (table: string) =>
      db.prepare<[string], number>('SELECT count(*) FROM dbstat WHERE name = ?').pluck().get(table)!;
    return {
      applied: db
        .prepare<[string], [number, number]>(
          'SELECT slot, version FROM applied_slots WHERE code = ? ORDER BY slot',
        )
        .raw()
        .all(code),
      log: db
        .prepare<[string], [number, number]>('SELECT slot, seq FROM log_slots WHERE code = ? ORDER BY slot')
        .raw()
        .all(code),
      eventBytes: db
        .prepare<[string], number>('SELECT length(CAST(event AS BLOB)) FROM log_slots WHERE code = ?')
        .pluck()
        .all(code),
      pages: { applied: pages('applied_slots'), log: pages('log_slots') },
    };
  });
}

const slotsOf = (pairs: Array<[number, number]>) => pairs.map(([slot]) => slot);
const range = (n: number) => Array.from({ length: n }, (_, i) => i);

describe('SQLite store: whole rings', () => {
  it('a created room has every slot; saves only overwrite them, and never add a page to either ring', async () => {
    const store = open();
    // Neighbours on both sides of the played room in key order, so its pages are shared.
    const neighbours = ['RINA0', 'RINZ0'];
    for (const code of neighbours) {
      const room = game(code, 1)[0]!;
      expect(await store.create({ room, version: 1, appliedCommands: [] })).toBe(true);
    }
    const rooms = game('RINGS', 260);
    const records: StoredRoom[] = [{ room: rooms[0]!, version: 1, appliedCommands: [] }];
    expect(await store.create(records[0]!)).toBe(true);

    const created = rings('RINGS');
    expect(slotsOf(created.applied)).toEqual(range(APPLIED_SLOTS));
    expect(created.applied.every(([, version]) => version === -1)).toBe(true);
    expect(slotsOf(created.log)).toEqual(range(LOG_SLOTS));
    const stored = rooms[0]!.log.map((e) => e.seq);
    expect(created.log.filter(([, seq]) => seq >= 0).map(([, seq]) => seq)).toEqual(stored);
    expect(created.log.filter(([, seq]) => seq === -1)).toHaveLength(LOG_SLOTS - stored.length);

    for (let i = 1; i < rooms.length; i++) {
      const prev = records[i - 1]!;
      const next: StoredRoom = {
        room: rooms[i]!,
        version: i + 1,
        appliedCommands: [
          ...prev.appliedCommands,
          { commandId: randomUUID(), actorId: randomUUID(), version: i + 1 },
        ].slice(-APPLIED_COMMANDS_KEPT),
      };
      expect(await store.save(next, i)).toBe(true);
      records.push(next);
      const now = rings('RINGS');
      expect(slotsOf(now.applied)).toEqual(range(APPLIED_SLOTS));
      expect(slotsOf(now.log)).toEqual(range(LOG_SLOTS));
      expect(now.eventBytes.every((n) => n === EVENT_CELL)).toBe(true);
      expect(now.pages).toEqual(created.pages);
    }
    // Past a full turn of both rings, and load shows only the real entries and events.
    expect(rooms.length).toBeGreaterThan(APPLIED_SLOTS + LOG_SLOTS);
    const loaded = await store.load('RINGS');
    expect(loaded).toEqual(records.at(-1));
    for (const code of neighbours) expect((await store.load(code))?.appliedCommands).toEqual([]);
  });

  it('a log cut short or emptied frees its slots (the rows stay); load returns exactly the log', async () => {
    const store = open();
    const room = game('RINGC', 12)[11]!;
    expect(room.log.length).toBeGreaterThan(5);
    const record = (r: Room, version: number): StoredRoom => ({
      room: r,
      version,
      appliedCommands: [{ commandId: `c${version}`, actorId: 'ana', version }],
    });
    expect(await store.create(record(room, 1))).toBe(true);
    const cut = { ...room, log: room.log.slice(3) };
    expect(await store.save(record(cut, 2), 1)).toBe(true);
    let now = rings('RINGC');
    expect(slotsOf(now.log)).toEqual(range(LOG_SLOTS));
    expect(now.log.filter(([, seq]) => seq >= 0).map(([, seq]) => seq)).toEqual(cut.log.map((e) => e.seq));
    expect((await store.load('RINGC'))?.room).toEqual(cut);

    const empty = { ...room, log: [] };
    expect(await store.save(record(empty, 3), 2)).toBe(true);
    now = rings('RINGC');
    expect(now.log.map(([, seq]) => seq)).toEqual(range(LOG_SLOTS).map(() => -1));
    expect((await store.load('RINGC'))?.room).toEqual(empty);
    // Entries at or below a save's expected version count as stored (sqlite-store.ts): all three stay.
    expect((await store.load('RINGC'))?.appliedCommands.map((c) => c.commandId)).toEqual(['c1', 'c2', 'c3']);

    // Delete takes the free slots with the room.
    expect(await store.delete('RINGC', 3)).toBe(true);
    now = rings('RINGC');
    expect([now.applied, now.log]).toEqual([[], []]);
  });

  it('a file written before whole rings gets them when opened, once (PRAGMA user_version)', async () => {
    let store = open();
    const rooms = game('RINGM', 30);
    const records: StoredRoom[] = rooms.map((room, i) => ({
      room,
      version: i + 1,
      appliedCommands: range(i + 1).map((k) => ({ commandId: `c${k + 1}`, actorId: 'ana', version: k + 1 })),
    }));
    expect(await store.create(records[0]!)).toBe(true);
    for (let i = 1; i < 20; i++) expect(await store.save(records[i]!, i)).toBe(true);
    const other = game('RINGN', 1)[0]!;
    expect(await store.create({ room: other, version: 1, appliedCommands: [] })).toBe(true);
    await store.close();
    // As the store wrote it before: only the slots it had filled, user_version 0.
    const strip = (version: number) =>
      withFile((db) => {
        db.prepare('DELETE FROM applied_slots WHERE version = -1').run();
        db.prepare('DELETE FROM log_slots WHERE seq = -1').run();
        db.pragma(`user_version = ${version}`);
      });
    strip(0);
    const partial = rings('RINGM');
    expect(partial.applied).toHaveLength(20);
    expect(rings('RINGN').log).toHaveLength(other.log.length);

    store = open();
    expect(withFile((db) => db.pragma('user_version', { simple: true }))).toBe(1);
    for (const code of ['RINGM', 'RINGN']) {
      const now = rings(code);
      expect(slotsOf(now.applied)).toEqual(range(APPLIED_SLOTS));
      expect(slotsOf(now.log)).toEqual(range(LOG_SLOTS));
    }
    expect(await store.load('RINGM')).toEqual(records[19]);
    expect((await store.load('RINGN'))?.room).toEqual(other);
    // The rest of the game saves into the filled rings.
    for (let i = 20; i < records.length; i++) expect(await store.save(records[i]!, i)).toBe(true);
    expect(await store.load('RINGM')).toEqual(records.at(-1));
    await store.close();

    // Marked: a later open does not fill again (and the store works with partial rings all the same).
    strip(1);
    store = open();
    expect(rings('RINGN').applied).toEqual([]);
    expect(await store.load('RINGM')).toEqual(records.at(-1));
  });

  it('pads an event to whole cells counted in UTF-8 bytes, and the padding parses away', () => {
    const ascii = JSON.stringify({ type: 'bet', name: 'Ana', amount: 250 });
    const wide = JSON.stringify({ type: 'bet', name: 'Zoë 🂡', amount: 250 });
    const long = JSON.stringify({ type: 'note', text: 'x'.repeat(300) });
    for (const json of [ascii, wide, long]) {
      const padded = slotEvent(json);
      expect(Buffer.byteLength(padded) % EVENT_CELL).toBe(0);
      expect(Buffer.byteLength(padded) - Buffer.byteLength(json)).toBeLessThan(EVENT_CELL);
      expect(JSON.parse(padded)).toEqual(JSON.parse(json));
    }
    expect(Buffer.byteLength(slotEvent(long))).toBe(2 * EVENT_CELL);
    const exact = `"${'y'.repeat(EVENT_CELL - 2)}"`;
    expect(slotEvent(exact)).toBe(exact);
  });
});
