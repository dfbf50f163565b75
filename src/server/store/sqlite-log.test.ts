/**
 * The SQLite store's hand log (a ring of slots, see sqlite-store.ts): the room row's JSON carries an
 * empty log, `log_slots` holds exactly the room's log after every write, failed writes touch nothing,
 * deletes take the events with the room, rows written before the log had its own table (the log inside
 * the room JSON) load as they were and move into the slots on their next save, and a log that does not
 * fit the ring stays in the JSON. Real rooms from the real engine; the file
 * is read with a separate connection to see exactly what is stored.
 */
import { describe, expect, it } from 'vitest';
import { LOG_LIMIT } from '../../engine/room';
import type { Room } from '../../engine/types';
import { game } from './engine-game';
import type { StoredRoom } from './room-store';
import { sqliteTestFile } from './sqlite-test-file';

const file = sqliteTestFile('chipless-log-');
const { open, withFile } = file;

/** The stored room JSON's log and the seqs in the log slots of `code` (free slots, seq -1, left out). */
function stored(code: string): { rowLog: unknown; seqs: number[] } {
  return withFile((db) => {
    const json = db.prepare<[string], { room: string }>('SELECT room FROM rooms WHERE code = ?').get(code);
    const seqs = db
      .prepare<[string], number>('SELECT seq FROM log_slots WHERE code = ? AND seq >= 0 ORDER BY seq')
      .pluck()
      .all(code);
    return { rowLog: json ? (JSON.parse(json.room) as Room).log : undefined, seqs };
  });
}

const record = (room: Room, version: number): StoredRoom => ({
  room,
  version,
  appliedCommands: [{ commandId: `c${version}`, actorId: 'ana', version }],
});

describe('SQLite hand log', () => {
  it('keeps the log in log_slots, exactly the room log after every save, and loads it back', async () => {
    const store = open();
    const rooms = game('LOGAA', 120);
    expect(await store.create(record(rooms[0]!, 1))).toBe(true);
    for (let i = 1; i < rooms.length; i++) {
      expect(await store.save(record(rooms[i]!, i + 1), i)).toBe(true);
      const { rowLog, seqs } = stored('LOGAA');
      expect(rowLog).toEqual([]);
      expect(seqs).toEqual(rooms[i]!.log.map((e) => e.seq));
    }
    const last = rooms.at(-1)!;
    expect(last.log).toHaveLength(LOG_LIMIT);
    expect(last.log[0]!.seq).toBeGreaterThan(0);
    expect((await store.load('LOGAA'))?.room).toEqual(last);
    // And after reopening the file.
    await store.close();
    expect((await open().load('LOGAA'))?.room).toEqual(last);
  });

  it('a save that loses the version check or misses the room writes no event', async () => {
    const store = open();
    const rooms = game('LOGAB', 12);
    await store.create(record(rooms[0]!, 1));
    await store.save(record(rooms[1]!, 2), 1);
    const before = stored('LOGAB');
    expect(await store.save(record(rooms[5]!, 3), 1)).toBe(false);
    expect(stored('LOGAB')).toEqual(before);
    expect(await store.save(record({ ...rooms[5]!, roomCode: 'NOONE' }, 3), 2)).toBe(false);
    expect(stored('NOONE').seqs).toEqual([]);
    expect((await store.load('LOGAB'))?.room).toEqual(rooms[1]);
  });

  it('delete takes the events with the room; a wrong version keeps both', async () => {
    const store = open();
    const rooms = game('LOGAC', 10);
    await store.create(record(rooms[9]!, 1));
    expect(stored('LOGAC').seqs.length).toBeGreaterThan(5);
    expect(await store.delete('LOGAC', 7)).toBe(false);
    expect(stored('LOGAC').seqs).toEqual(rooms[9]!.log.map((e) => e.seq));
    expect(await store.delete('LOGAC', 1)).toBe(true);
    expect(stored('LOGAC').seqs).toEqual([]);
    // The code can be used again, with a log of its own.
    expect(await store.create(record(rooms[2]!, 1))).toBe(true);
    expect(stored('LOGAC').seqs).toEqual(rooms[2]!.log.map((e) => e.seq));
  });

  it('a row written before the log had its own table (the log in its JSON) loads as it was and moves on its next save', async () => {
    const store = open();
    const rooms = game('LOGAD', 70);
    await store.create(record(rooms[0]!, 1));
    // As the older store wrote it: the whole room, log included, in the row, no slots.
    const old = rooms[60]!;
    withFile((db) => {
      db.prepare('UPDATE rooms SET version = 61, room = ? WHERE code = ?').run(JSON.stringify(old), 'LOGAD');
      db.prepare('DELETE FROM log_slots WHERE code = ?').run('LOGAD');
    });
    expect((await store.load('LOGAD'))?.room).toEqual(old);
    expect(await store.save(record(rooms[61]!, 62), 61)).toBe(true);
    expect(stored('LOGAD')).toEqual({ rowLog: [], seqs: rooms[61]!.log.map((e) => e.seq) });
    expect((await store.load('LOGAD'))?.room).toEqual(rooms[61]);
  });

  it('a log that does not fit the ring stays in the room JSON, and goes into the slots once it fits', async () => {
    const store = open();
    const rooms = game('LOGAE', 80);
    const base = rooms[70]!;
    expect(await store.create(record(base, 1))).toBe(true);
    expect(stored('LOGAE').seqs).toHaveLength(LOG_LIMIT);
    // Seqs LOG_LIMIT or more apart, or out of order: no ring can hold them.
    const first = base.log[0]!;
    const wide = { ...base, log: [{ ...first, seq: first.seq - LOG_LIMIT }, ...base.log.slice(1)] };
    const unordered = { ...base, log: [...base.log.slice(1), first] };
    let version = 1;
    for (const room of [wide, unordered]) {
      expect(await store.save(record(room, version + 1), version)).toBe(true);
      version++;
      expect(stored('LOGAE')).toEqual({ rowLog: room.log, seqs: [] });
      expect((await store.load('LOGAE'))?.room).toEqual(room);
    }
    const next = rooms[71]!;
    expect(await store.save(record(next, version + 1), version)).toBe(true);
    expect(stored('LOGAE')).toEqual({ rowLog: [], seqs: next.log.map((e) => e.seq) });
    expect((await store.load('LOGAE'))?.room).toEqual(next);
  });

  it('right after a save that fit the ring, a log of the same events out of order or with a new one below them stays in the JSON', async () => {
    const store = open();
    const rooms = game('LOGAG', 80);
    const base = rooms[70]!;
    expect(await store.create(record(base, 1))).toBe(true);
    const first = base.log[0]!;
    const last = base.log.at(-1)!;
    // The very same event objects as the stored log (what ringUpdate compares), in another order; and
    // the stored log plus a new event whose seq is not above the last one.
    const rotated = { ...base, log: [...base.log.slice(1), first] };
    const behind = { ...base, log: [...base.log.slice(1), { ...last, seq: last.seq - 1 }] };
    let version = 1;
    for (const room of [rotated, base, behind]) {
      expect(await store.save(record(room, version + 1), version)).toBe(true);
      version++;
      const fits = room === base;
      expect(stored('LOGAG')).toEqual(
        fits ? { rowLog: [], seqs: room.log.map((e) => e.seq) } : { rowLog: room.log, seqs: [] },
      );
    }
    // Loaded only now: a load forgets the stored log's objects (they are read anew).
    expect((await store.load('LOGAG'))?.room).toEqual(behind);
  });

  it('a log shorter than the ring that lost its first events: their slots go too', async () => {
    const store = open();
    const rooms = game('LOGAF', 12);
    const room = rooms[11]!;
    expect(room.log.length).toBeGreaterThan(5);
    expect(room.log.length).toBeLessThan(LOG_LIMIT);
    expect(await store.create(record(room, 1))).toBe(true);
    const cut = { ...room, log: room.log.slice(3) };
    expect(await store.save(record(cut, 2), 1)).toBe(true);
    expect(stored('LOGAF')).toEqual({ rowLog: [], seqs: cut.log.map((e) => e.seq) });
    expect((await store.load('LOGAF'))?.room).toEqual(cut);
    // Emptied: no slots left.
    const empty = { ...room, log: [] };
    expect(await store.save(record(empty, 3), 2)).toBe(true);
    expect(stored('LOGAF')).toEqual({ rowLog: [], seqs: [] });
    expect((await store.load('LOGAF'))?.room).toEqual(empty);
  });
});
