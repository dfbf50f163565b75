/**
 * The SQLite store's journal: records framed with a length and a CRC (a torn or garbled end is
 * dropped, never misread), writes that are durable before the writer thread applies them (replayed
 * when the store opens after it was abandoned, as a killed process leaves it), replays that skip what
 * the database already holds, journal files started one after another, entries that do not fit the
 * database, and the data directory locked to one store.
 */
import {
  appendFileSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { threadNices } from '../test-helpers';
import { sampleRoom } from './contract';
import { gameRecords } from './engine-game';
import type { StoredRoom } from './room-store';
import { Batch, entryOf, type JournalEntry, type RoomEntry } from './sqlite-apply';
import { journalGens, journalRecord, parseRecords, readJournal } from './sqlite-journal';
import { DataDirInUseError } from './sqlite-lock';
import { createSqliteStore, SQLITE_FILE_NAME, type SqliteStore } from './sqlite-store';
import { sqliteTestFile } from './sqlite-test-file';
import { WRITER_YOUNG_GENERATION_MB } from './sqlite-writer-thread';

const file = sqliteTestFile('chipless-journal-');

/**
 * A store on the test's dir that collects what it reports. Its writer thread applies the journal only
 * when asked (a flush, or a read that waits): the tests decide what the database holds when a store
 * is abandoned.
 */
function openStore(
  options: { journalFileBytes?: number; writerNice?: number; walSizeLimitBytes?: number } = {},
): {
  store: SqliteStore;
  errors: string[];
} {
  const errors: string[] = [];
  const store = createSqliteStore({
    dataDir: file.dir,
    writeIntervalMs: 3_600_000,
    ...options,
    onError: (err) => errors.push(err.message),
  });
  return { store, errors };
}

/** A real game's records, as the room service writes them. */
const records = gameRecords;

/** The version stored in the database file itself for `code` (null: no row). */
function versionInFile(code: string): number | null {
  return file.withFile(
    (db) =>
      db.prepare<[string], { version: number }>('SELECT version FROM rooms WHERE code = ?').get(code)
        ?.version ?? null,
  );
}

function journalFiles(): string[] {
  return readdirSync(file.dir).filter((n) => n.startsWith('chipless.journal.'));
}

/** Creates a real game's room and saves `saves` commands after it; returns every record, in order. */
async function play(store: SqliteStore, code: string, saves: number): Promise<StoredRoom[]> {
  const all = records(code, saves + 1);
  expect(await store.create(all[0]!)).toBe(true);
  for (let i = 1; i < all.length; i++) expect(await store.save(all[i]!, i)).toBe(true);
  return all;
}

describe('journal records', () => {
  it('reads back whole records and stops at a cut-short, garbled or zero-length one', () => {
    const a = journalRecord('{"a":1}');
    const b = journalRecord('{"b":"ünïcödé ♠"}');
    const both = Buffer.concat([a, b]);
    expect(parseRecords(both)).toEqual({ records: ['{"a":1}', '{"b":"ünïcödé ♠"}'], used: both.length });
    // Cut short anywhere inside the second record: only the first is read.
    for (let cut = a.length; cut < both.length; cut++) {
      expect(parseRecords(both.subarray(0, cut))).toEqual({ records: ['{"a":1}'], used: a.length });
    }
    // One payload byte changed: its CRC no longer matches.
    const garbled = Buffer.from(both);
    garbled[a.length + 10]! ^= 0x01;
    expect(parseRecords(garbled)).toEqual({ records: ['{"a":1}'], used: a.length });
    // Zeros (what a power cut can leave at the end of a file) are not an empty record.
    expect(parseRecords(Buffer.concat([a, Buffer.alloc(64)]))).toEqual({
      records: ['{"a":1}'],
      used: a.length,
    });
    expect(() => journalRecord('')).toThrow('journal record of 0 bytes');
  });

  it('a record given in parts is the record of the parts joined, byte for byte', () => {
    const parts = ['{"a":"ünïcödé ♠",', '"b":[', '', '1,2', ']}', '\n', '{"row":"€"}'];
    const joined = journalRecord(parts.join(''));
    expect(journalRecord(parts).equals(joined)).toBe(true);
    expect(parseRecords(joined).records).toEqual([parts.join('')]);
    expect(() => journalRecord(['', ''])).toThrow('journal record of 0 bytes');
  });

  it('a missing file reads as empty; journal files are taken in number order', () => {
    expect(readJournal(join(file.dir, 'nope'))).toEqual({ records: [], droppedBytes: 0 });
    expect(
      journalGens([
        'chipless.journal.10',
        'chipless.journal.2',
        'chipless.journal.0',
        'x',
        'chipless.journal.1',
      ]),
    ).toEqual([1, 2, 10]);
  });
});

describe('SQLite store journal', () => {
  it('a write is in the journal when it resolves, and a store abandoned before applying it replays it', async () => {
    const first = openStore();
    // No flush: the writer thread may not have applied anything yet when the store is abandoned.
    const played = await play(first.store, 'RPLAY1', 30);
    await first.store.increment({ 'test/replay': 3 });
    await first.store.abandon();
    expect(journalFiles()).toEqual(['chipless.journal.1']);
    expect(readJournal(join(file.dir, 'chipless.journal.1')).records).toHaveLength(32);

    const second = openStore();
    try {
      expect(await second.store.load('RPLAY1')).toEqual(played.at(-1));
      expect(await second.store.readCounters(['test/replay'])).toEqual({ 'test/replay': 3 });
      expect(versionInFile('RPLAY1')).toBe(31);
      expect(second.errors).toEqual([]);
      // Replayed and emptied: the open starts a new journal file.
      expect(journalFiles()).toEqual(['chipless.journal.1']);
      expect(readJournal(join(file.dir, 'chipless.journal.1')).records).toEqual([]);
    } finally {
      await second.store.close();
    }
    expect(journalFiles()).toEqual([]);
  });

  it('a replay skips the entries the database already holds (died after a batch, before the journal was emptied)', async () => {
    const first = openStore();
    const played = await play(first.store, 'APPLD1', 10);
    await first.store.increment({ 'test/once': 1 });
    await first.store.flush();
    expect(versionInFile('APPLD1')).toBe(11);
    // The applied entries are still in the journal file being appended to.
    await first.store.abandon();
    expect(readJournal(join(file.dir, 'chipless.journal.1')).records).toHaveLength(12);

    const second = openStore();
    try {
      expect(await second.store.load('APPLD1')).toEqual(played.at(-1));
      expect(await second.store.readCounters(['test/once'])).toEqual({ 'test/once': 1 });
      expect(second.errors).toEqual([]);
      expect(await second.store.save(records('APPLD1', 12)[11]!, 11)).toBe(true);
    } finally {
      await second.store.close();
    }
  });

  it('a torn last record (a write cut short by the kill) is dropped and reported; the records before it are replayed', async () => {
    const first = openStore();
    const played = await play(first.store, 'TORN01', 5);
    await first.store.abandon();
    const torn = journalRecord('{"lsn":7,"kind":"touch","codes":["TORN01"],"now":1}');
    appendFileSync(join(file.dir, 'chipless.journal.1'), torn.subarray(0, torn.length - 3));

    const second = openStore();
    try {
      expect(await second.store.load('TORN01')).toEqual(played.at(-1));
      expect(second.errors).toEqual([
        `SQLite store: dropped ${torn.length - 3} bytes at the end of ${join(file.dir, 'chipless.journal.1')} (a record cut short)`,
      ]);
    } finally {
      await second.store.close();
    }
  });

  it('starts a new journal file past its size; the writer applies them in order and deletes the finished ones', async () => {
    const first = openStore({ journalFileBytes: 4000 });
    await play(first.store, 'ROTATE', 40);
    expect(journalGens(journalFiles()).length).toBeGreaterThan(5);
    await first.store.flush();
    // Only the file being appended to is left once everything is applied.
    expect(journalFiles()).toHaveLength(1);
    expect(versionInFile('ROTATE')).toBe(41);
    await first.store.close();
    expect(journalFiles()).toEqual([]);

    // Abandoned with entries spread over several files: the open replays all of them, in order.
    const second = openStore({ journalFileBytes: 4000 });
    const more = records('ROTATE', 81);
    for (let i = 41; i < 81; i++) expect(await second.store.save(more[i]!, i)).toBe(true);
    await second.store.abandon();
    expect(journalFiles().length).toBeGreaterThan(1);
    const third = openStore();
    try {
      expect(await third.store.load('ROTATE')).toEqual(more.at(-1));
      expect(third.errors).toEqual([]);
    } finally {
      await third.store.close();
    }
  });

  it('an entry that does not fit the database is skipped and reported, and the rest applied', async () => {
    const first = openStore();
    await play(first.store, 'NOFIT1', 0);
    await first.store.flush();
    await play(first.store, 'OTHER1', 2);
    expect(await first.store.save(records('NOFIT1', 2)[1]!, 1)).toBe(true);
    await first.store.abandon();
    // Another hand changed the file meanwhile (never the store's own doing: the directory is locked).
    file.withFile((db) => db.prepare("UPDATE rooms SET version = 7 WHERE code = 'NOFIT1'").run());

    const second = openStore();
    try {
      expect((await second.store.load('NOFIT1'))?.version).toBe(7);
      expect((await second.store.load('OTHER1'))?.version).toBe(3);
      expect(second.errors).toHaveLength(1);
      expect(second.errors[0]).toMatch(
        /^SQLite store: 1 journal entries did not fit the database \(lsn \d+\)$/,
      );
    } finally {
      await second.store.close();
    }
  });

  it('one store per data directory: a second is refused until the first closes, or was abandoned', async () => {
    const first = openStore();
    expect(() => createSqliteStore({ dataDir: file.dir })).toThrow(DataDirInUseError);
    await first.store.close();
    const second = openStore();
    await second.store.abandon();
    const third = openStore();
    await third.store.close();
  });

  it('the writer thread runs at the nice value it is given, so its batches yield the CPU to commands', async () => {
    const nices = () => [...threadNices().values()];
    expect(nices().filter((n) => n === 13)).toEqual([]);
    const { store } = openStore({ writerNice: 13 });
    await play(store, 'NICE1', 2);
    await store.flush();
    expect(nices().filter((n) => n === 13)).toEqual([13]);
    await store.close();
    expect(nices().filter((n) => n === 13)).toEqual([]);
  });

  it("the writer thread's young generation is capped, so its batches' garbage does not hold 32 MB of RSS", async () => {
    const { store } = openStore();
    // What V8 was given, as Node reads it back from the thread (its default is 48).
    expect(store.writerResourceLimits().maxYoungGenerationSizeMb).toBe(WRITER_YOUNG_GENERATION_MB);
    await store.close();
  });

  it('the WAL is cut back to its limit when SQLite starts it over, after a batch that grew it (a cleanup sweep)', async () => {
    const walSize = () => {
      const wal = join(file.dir, `${SQLITE_FILE_NAME}-wal`);
      return existsSync(wal) ? statSync(wal).size : 0;
    };
    const { store } = openStore({ walSizeLimitBytes: 64 * 1024 });
    const created = (prefix: string, n: number) =>
      Array.from({ length: n }, (_, i) => `${prefix}${String(i).padStart(3, '0')}`);
    const many = created('W', 200);
    for (const code of many) await store.create({ room: sampleRoom(code), version: 1, appliedCommands: [] });
    await store.flush();
    const grown = walSize();
    expect(grown).toBeGreaterThan(4 * 1024 * 1024); // past SQLite's checkpoint (1,000 pages)
    for (const code of many) expect(await store.delete(code, 1)).toBe(true);
    await store.flush();
    // The next batch starts the WAL over: cut to 64 KB, then this batch's pages. Without the limit
    // it stayed at `grown` for the life of the process.
    for (const code of created('X', 5))
      await store.create({ room: sampleRoom(code), version: 1, appliedCommands: [] });
    await store.flush();
    expect(walSize()).toBeLessThan(grown / 4);
    await store.close();
  });

  it('an unreadable journal entry makes the open fail, leaving the directory unlocked and the journal as it was', async () => {
    const first = openStore();
    await play(first.store, 'BADJSN', 1);
    await first.store.abandon();
    const before = readJournal(join(file.dir, 'chipless.journal.1')).records;
    writeFileSync(
      join(file.dir, 'chipless.journal.1'),
      Buffer.concat([journalRecord('not json'), ...before.map(journalRecord)]),
    );
    expect(() => createSqliteStore({ dataDir: file.dir })).toThrow(SyntaxError);
    // The failed open let go of the directory, and left the journal for someone to look at.
    expect(journalFiles()).toEqual(['chipless.journal.1']);
    expect(() => createSqliteStore({ dataDir: file.dir })).toThrow(SyntaxError);
  });
  it("a room entry's row is on a line of its own and read back as its text; an entry journaled before that reads the same", async () => {
    const { store } = openStore();
    const saved = await play(store, 'ROWLN', 2);
    await store.abandon();
    const payloads = readJournal(join(file.dir, 'chipless.journal.1')).records;
    expect(payloads).toHaveLength(3);
    for (const [i, payload] of payloads.entries()) {
      const [head, row, more] = payload.split('\n');
      expect(more).toBeUndefined();
      const entry = entryOf(payload) as RoomEntry;
      expect(entry).toEqual({ ...JSON.parse(head!), row });
      expect(JSON.parse(entry.row)).toEqual({ ...saved[i]!.room, log: [] });
      // The same entry as one JSON text (the row a value in it), as journals were written before.
      const old = JSON.stringify({ ...JSON.parse(head!), row: JSON.parse(row!) });
      expect(entryOf(old)).toEqual(entry);
    }
    expect(entryOf('{"lsn":9,"kind":"touch","codes":["ROWLN"],"now":1}')).toEqual({
      lsn: 9,
      kind: 'touch',
      codes: ['ROWLN'],
      now: 1,
    });
    expect(() => entryOf('{"lsn":9,"kind":"delete","code":"ROWLN","expected":3}\n{}')).toThrow(SyntaxError);
    expect(() => entryOf('{"lsn":9,"kind":"room"\n{}')).toThrow(SyntaxError);
    // Replayed from the journal it left, the room is as saved.
    const reopened = openStore();
    expect(await reopened.store.load('ROWLN')).toEqual(saved.at(-1));
    await reopened.store.close();
  });
});

/** A save entry of room `code` from `expected`, with the given events (by seq) and one applied id. */
function save(lsn: number, code: string, expected: number, seqs: number[], logFirst = 1): RoomEntry {
  return {
    lsn,
    kind: 'room',
    code,
    expected,
    version: expected + 1,
    row: JSON.stringify({ v: expected + 1 }),
    lastActivity: lsn,
    logLast: seqs.at(-1) ?? null,
    ring: true,
    logFirst,
    logLength: 10,
    events: seqs.map((seq) => ({ type: 'handStarted', seq, at: seq, handNumber: 1 }) as never),
    applied: [{ commandId: `c${expected + 1}`, actorId: 'a', version: expected + 1 }],
  };
}

/** The entries a batch of `entries` (in lsn order, from the first one's) applies. */
function coalesce(entries: readonly JournalEntry[]): readonly JournalEntry[] {
  const batch = new Batch(entries[0]!.lsn - 1);
  for (const e of entries) batch.add(e);
  return batch.entries;
}

describe('a batch coalesces', () => {
  it('a run of saves of one room becomes one entry: the last row, every new id and event, from the first version', () => {
    const out = coalesce([save(1, 'AAAAA', 4, [7]), save(2, 'AAAAA', 5, [8, 9], 8), save(3, 'AAAAA', 6, [])]);
    expect(out).toEqual([
      {
        ...save(3, 'AAAAA', 6, []),
        expected: 4,
        // Event 7 is older than the end state's first (8): it would only be freed again.
        events: save(0, 'X', 0, [8, 9]).events,
        applied: [5, 6, 7].map((v) => ({ commandId: `c${v}`, actorId: 'a', version: v })),
      },
    ]);
  });

  it("other rooms' entries and counters do not end a run; the room's touch, delete, a save from another version or an empty log do", () => {
    const inc: JournalEntry = { lsn: 2, kind: 'increment', counters: { k: 1 } };
    expect(
      coalesce([save(1, 'AAAAA', 1, [1]), inc, save(3, 'BBBBB', 1, [1]), save(4, 'AAAAA', 2, [2])]),
    ).toEqual([
      {
        ...save(4, 'AAAAA', 2, [2]),
        expected: 1,
        events: save(0, 'X', 0, [1, 2]).events,
        applied: [save(0, 'X', 1, []).applied[0], save(0, 'X', 2, []).applied[0]],
      },
      inc,
      save(3, 'BBBBB', 1, [1]),
    ]);
    const touch: JournalEntry = { lsn: 2, kind: 'touch', codes: ['AAAAA'], now: 9 };
    const del: JournalEntry = { lsn: 2, kind: 'delete', code: 'AAAAA', expected: 2 };
    const empty: RoomEntry = { ...save(2, 'AAAAA', 2, []), logFirst: null, logLength: 0 };
    const unrelated = { ...save(2, 'AAAAA', 7, []) };
    for (const between of [touch, del, empty, unrelated]) {
      const entries = [save(1, 'AAAAA', 1, [1]), between, save(3, 'AAAAA', 2, [2])];
      expect(coalesce(entries)).toEqual(entries);
    }
  });

  it('a real game in one batch leaves the file exactly as one batch per save does', async () => {
    const other = mkdtempSync(join(tmpdir(), 'chipless-coalesce-'));
    try {
      const stepwise = createSqliteStore({ dataDir: other });
      const batched = openStore();
      const rooms = records('CLSCE', 130);
      await batched.store.create(rooms[0]!);
      await stepwise.create(rooms[0]!);
      await stepwise.flush();
      for (let i = 1; i < rooms.length; i++) {
        await batched.store.save(rooms[i]!, i);
        await stepwise.save(rooms[i]!, i);
        await stepwise.flush();
        if (i === 70) {
          await batched.store.touch(['CLSCE'], 5);
          await stepwise.touch(['CLSCE'], 5);
          await stepwise.flush();
        }
      }
      await batched.store.flush();
      const dump = (dir: string) => {
        const db = new Database(join(dir, SQLITE_FILE_NAME), { readonly: true });
        try {
          return ['rooms', 'applied_slots', 'log_slots'].map((t) =>
            db.prepare(`SELECT * FROM ${t} WHERE code = 'CLSCE' ORDER BY 1, 2`).all(),
          );
        } finally {
          db.close();
        }
      };
      expect(dump(file.dir)).toEqual(dump(other));
      expect(await batched.store.load('CLSCE')).toEqual(rooms.at(-1));
      await batched.store.close();
      await stepwise.close();
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });
});
