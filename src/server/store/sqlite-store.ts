/**
 * The default RoomStore: one SQLite file (better-sqlite3, WAL) in DATA_DIR, written through a journal.
 *
 * **How a write is made durable without waiting for SQLite.** A write (create, save, delete, touch,
 * increment) is checked here, on the store's thread (the room thread by default, room-thread.ts; the
 * event loop with ROOM_THREAD=false or with a store given to the app), against what the store knows of each room (its
 * version and log end, kept in memory in `heads` once read or written), turned into a journal entry
 * (sqlite-apply.ts: for a save, the row's JSON and only the new applied ids and log events) and
 * appended to the journal file with one `write` (sqlite-journal.ts) before the call resolves. From
 * then on it survives the process being killed: the same guarantee as SQLite's WAL with
 * `synchronous=NORMAL`, which the store had before (neither survives a power cut for certain). A writer
 * thread (sqlite-writer.ts) applies the journal to the database in batches, one transaction every
 * `writeIntervalMs`, and the store's thread never waits for it to answer a command. Reads wait for it
 * only when they must: `load` of a room with a write still pending, `listIdle` and `readCounters`;
 * they fail when the thread's batch fails (a full disk) instead of waiting until the disk has room.
 * Opening the store replays what the journal holds beyond the database's `meta.applied_lsn`.
 * Why: at 1,000 rooms the SQLite transaction was ~20% of the thread's time a command (the main thread,
 * then the only one), and that thread's load is what commands queue behind (bench/README.md, session 6).
 *
 * One process per data directory (sqlite-lock.ts): a second store on the same directory, in this
 * process or another, is refused with DataDirInUseError, since it could not see the journal's writes.
 * Several server processes share rooms through Redis (STORE=redis).
 *
 * What a command costs here is mostly the pages its transaction writes to the WAL (~7 µs each, against
 * ~2–4 µs per statement; bench/README.md), so the schema is laid out for few pages per save:
 *
 * - `rooms(code, version, room, last_activity, log_last)`: one row per room, the room JSON (its `log`
 *   empty, see below), its version and the highest seq in its log slots (null when none or not known). No index on `last_activity`: every command moves it, and keeping an
 *   index in step cost two more pages per command (~9 of ~29 KB written), while its only reader,
 *   `listIdle`, runs once per cleanup interval (5 minutes) and scans the table instead (0.1–0.3 ms at
 *   1,000 rooms of 6 players). Opening a file made while the index existed drops it.
 * - `applied_slots(code, slot, version, command_id, actor_id)`: the room's recent applied command ids
 *   as a ring of APPLIED_COMMANDS_KEPT slots (slot = version % APPLIED_COMMANDS_KEPT; WITHOUT ROWID,
 *   keyed by (code, slot)). A save overwrites the one slot of its new version in place: one page, no
 *   delete, no page split. `load` reads the slots with a version above the room's version minus
 *   APPLIED_COMMANDS_KEPT and above 0 (older slots not yet overwritten, and free ones, are left out),
 *   in version order.
 * - `log_slots(code, slot, seq, event)`: the room's hand log as a ring of LOG_LIMIT slots (slot = seq
 *   % LOG_LIMIT). A save writes the events with a seq above the highest stored one (the row's
 *   `log_last`, read with the version before the UPDATE; reading the slots instead cost ~12 µs) into
 *   their slots.
 *   The engine's log is the last at most LOG_LIMIT events, consecutive by seq, and only grows at its
 *   end (dropping from its start once full), so the slots hold exactly the log; while it is shorter
 *   than the ring a save also frees any slot below the log's first seq. A log that does not fit a
 *   ring (not increasing, or spanning LOG_LIMIT seqs or more: never the engine's) stays in the room
 *   JSON with its slots all free, which `load` reads as it is. Events are stored padded with spaces
 *   to a multiple of EVENT_CELL bytes (JSON.parse skips them), so nearly every event is the same size.
 * - **Both rings are whole from the room's creation**: `create` fills every slot the record does not
 *   use with a free one (applied: version -1 and blank ids as long as a UUID; log: seq -1 and a blank
 *   event of EVENT_CELL bytes); freeing a log slot overwrites it so, and only `delete` removes slots.
 *   So a save never inserts or deletes a slot row, it overwrites one of the same size: SQLite
 *   rewrites the cell in place and never splits or merges a B-tree page. Inserting into a filling ring
 *   split pages every few commands during a room's first ~100 commands, and every split costs
 *   more than its pages: SQLite's balance routine renumbers pages through a temporary page number
 *   (1 GiB / page size), after which the commit scans the whole page cache (16 MB, ~4,000 pages) to
 *   drop pages beyond the end of the file. That scan was the top native function in a profile of the
 *   loaded server (`perf`, 4.3% of its samples; bench/README.md). Files written before this get whole
 *   rings for all their rooms when opened (sqlite-schema.ts).
 * - `counters(key, value)`: analytics counters.
 *
 * The schema and the migrations of files written by older versions are in sqlite-schema.ts.
 *
 * A save applied is the conditional UPDATE of the room row (`WHERE version = ?`) and, only if it
 * changed the row, the slots of the record's applied entries newer than the expected version (the
 * room service's one new command id) and of the new log events. This relies on what the room service
 * does: a save's `appliedCommands` holds the new command (version = the new room version), alone or
 * after the loaded list (StoredRoom); versions grow by one per committed change and every committed
 * change comes from exactly one command. Entries at or below the expected version are taken to be
 * stored already and are not written again; an entry that is not newer than its slot's
 * (two at one version) makes the save throw before anything is journaled. `create` writes the row
 * and all its entries and events (and the free slots); `delete` removes them all; a batch of them is
 * one transaction, so a crash never leaves half a write, and nothing outlives its room. `load` reads
 * everything in one read transaction (one snapshot, even while the writer thread commits).
 *
 * The checks and the append are synchronous: each write runs to completion before any other
 * JavaScript, which makes the conditional writes atomic; the writer applies entries in their order.
 */
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { ResourceLimits } from 'node:worker_threads';
import Database from 'better-sqlite3';
import type { LoggedEvent, Room } from '../../engine/types';
import { immutableJson, roomJsonParts } from '../room-json';
import { isDiskFull } from './disk-full';
import type { RoomStore, StoredRoom } from './room-store';
import { APPLIED_SLOTS, logLast, ringUpdate } from './slots';
import { Batch, createApplier, entryOf, type JournalEntry, type RoomEntry } from './sqlite-apply';
import { type JournalWriter, journalFileName, journalGens, openJournal, readJournal } from './sqlite-journal';
import { type DataDirLock, lockDataDir } from './sqlite-lock';
import { prepareSchema } from './sqlite-schema';
import { WriterThread } from './sqlite-writer-thread';

/**
 * The WAL file's size once SQLite starts it over (16 MiB). Without a limit SQLite reuses the file but
 * never shrinks it: one cleanup sweep deleting 3,750 rooms in one batch left a 75 MB WAL for the rest
 * of the process's life (the session-31 audit). During play the WAL stays at ~5 MB (a checkpoint every
 * 1,000 pages), under this, so play never pays for a truncation and regrowth.
 */
const WAL_SIZE_LIMIT_BYTES = 16 * 1024 * 1024;

/** The database file name inside DATA_DIR. */
export const SQLITE_FILE_NAME = 'chipless.sqlite';

interface RoomRow {
  version: number;
  room: string;
}

/** What a save reads of the stored row first. */
interface StoredHead {
  version: number;
  log_last: number | null;
}

/** An applied_slots row as read with .raw(): command_id, actor_id, version. */
type AppliedRow = [string, string, number];

/** Options of the SQLite store. */
export interface SqliteStoreOptions {
  dataDir: string;
  /**
   * How often the writer thread applies the journal to the database (ms). Default 5,000: a batch
   * writes each room once however many saves it had (sqlite-apply.ts, Batch), and a room whose
   * write is pending is read from the database only after a batch made on demand.
   */
  writeIntervalMs?: number;
  /** The journal starts a new file past this size (bytes). Default 8 MiB. */
  journalFileBytes?: number;
  /**
   * The nice value of the writer thread (Linux; 0–19, never below the process's own). Default 10: on a
   * busy box its batches wait for CPU the event loop leaves instead of delaying commands
   * (bench/README.md, session 7).
   */
  writerNice?: number;
  /**
   * What the WAL file is cut back to when SQLite starts it over after a checkpoint (`PRAGMA
   * journal_size_limit` on the writer's connection). Default WAL_SIZE_LIMIT_BYTES.
   */
  walSizeLimitBytes?: number;
  /**
   * Told of what goes wrong out of any caller's sight: a failed batch of the writer thread (its entries
   * stay in the journal and are tried again), entries that did not fit the file, a torn journal end.
   */
  onError?: (err: Error) => void;
}

/** The SQLite store: a RoomStore, and a way to wait until the database holds every write made so far. */
export interface SqliteStore extends RoomStore {
  /**
   * Resolves once the writer thread has applied every write made before the call; rejects when its
   * batch fails (a full disk: the journal keeps the writes).
   */
  flush(): Promise<void>;
  /**
   * Stops the way a killed process does: the writer thread is terminated wherever it is, nothing more
   * is applied, the journal stays as it is for the next open to replay, and the directory is unlocked.
   * For tests of restarts within one process.
   */
  abandon(): Promise<void>;
  /** The writer thread's V8 limits as Node reports them (`Worker#resourceLimits`), for tests. */
  writerResourceLimits(): ResourceLimits;
}

/**
 * What the store knows of a room: as its last journal entry leaves it, or as read from the database.
 * Only this store writes the directory (it is locked), so what it knows stays true. Kept for every
 * room read or written: a read of the database on every save costs ~40 µs under load, because each
 * batch the writer thread commits makes the main connection's page cache start cold.
 */
interface KnownHead {
  /** The lsn of the room's last journal entry (0 when read from the database). */
  lsn: number;
  /** Its version after that entry; null when the entry deletes it. */
  version: number | null;
  /** The highest seq its log slots will hold (-Infinity: none). */
  logLast: number;
  /**
   * The log its last journal entry stored in the slots (only one that fits the ring), for the next
   * save's ringUpdate. Weak: the room service's cache holds a room it is playing, and an idle room's
   * log need not stay in memory for this.
   */
  log?: WeakRef<readonly LoggedEvent[]>;
}

/**
 * Thrown by createSqliteStore when the disk of the data directory has no room for what opening writes
 * (the lock, the database's WAL, the replay of the journal, a new journal file). Nothing is lost: the
 * journal and the database stay as they were, and the next open once there is room replays them.
 */
class DataDirFullError extends Error {
  constructor(dataDir: string, cause: unknown) {
    super(
      `SQLite store: the disk of ${dataDir} is full (${cause instanceof Error ? cause.message : String(cause)}). ` +
        'Free some space on it, then start again.',
      { cause },
    );
    this.name = 'DataDirFullError';
  }
}

/**
 * Opens (creating when needed, migrating an older file) the SQLite store in `dataDir`, replays what
 * its journal holds beyond the database, and starts the writer thread. Throws DataDirInUseError when
 * another store (in this process or another) has the directory open, DataDirFullError when its disk
 * is full.
 */
export function createSqliteStore(options: SqliteStoreOptions): SqliteStore {
  try {
    return openSqliteStore(options);
  } catch (err) {
    if (isDiskFull(err)) throw new DataDirFullError(options.dataDir, err);
    throw err;
  }
}

/** createSqliteStore's work: opens the database and the journal, starts the writer thread, and puts the store over them. */
function openSqliteStore(options: SqliteStoreOptions): SqliteStore {
  const { dataDir } = options;
  const onError = options.onError ?? (() => {});
  const { lock, file, db, lastLsn } = openDatabase(dataDir, onError);
  // Whatever fails from here on (preparing the statements, the journal, starting the writer thread)
  // closes what was opened and lets go of the directory, as openDatabase does: a caller that goes on
  // (a test, a retry) must not find the data dir locked by a store that never was.
  let journal: JournalAppender | undefined;
  let parts: Parameters<typeof sqliteStoreOver>[0];
  try {
    const statements = prepareStatements(db);
    const opened = new JournalAppender(
      dataDir,
      options.journalFileBytes ?? 8 * 1024 * 1024,
      lastLsn,
      onError,
    );
    journal = opened;
    const heads = new KnownHeads(statements);
    // The writer thread last: once it runs, nothing here can fail.
    const writer = new WriterThread(
      {
        dbFile: file,
        dataDir,
        gen: opened.gen,
        intervalMs: options.writeIntervalMs ?? 5000,
        nice: options.writerNice ?? 10,
        walSizeLimitBytes: options.walSizeLimitBytes ?? WAL_SIZE_LIMIT_BYTES,
      },
      lastLsn,
      (appliedLsn) => heads.forgetAppliedDeletes(appliedLsn),
      onError,
    );
    parts = { dataDir, lock, db, statements, journal: opened, heads, writer };
  } catch (err) {
    journal?.close();
    db.close();
    lock.release();
    throw err;
  }
  return sqliteStoreOver(parts);
}

/** The database of a data directory, opened, and the lock that keeps it this process's. */
interface OpenDatabase {
  lock: DataDirLock;
  /** The database file's path. */
  file: string;
  db: Database.Database;
  /** The lsn of the last journal entry the database holds. */
  lastLsn: number;
}

/**
 * Locks `dataDir` (creating it when needed) and opens its database: in WAL mode, its schema made or
 * migrated, and what the journal holds beyond it replayed. When that fails, closes the database and
 * releases the lock before throwing.
 */
function openDatabase(dataDir: string, onError: (err: Error) => void): OpenDatabase {
  mkdirSync(dataDir, { recursive: true });
  const lock = lockDataDir(dataDir);
  const file = join(dataDir, SQLITE_FILE_NAME);
  let db: Database.Database;
  let lastLsn: number;
  try {
    db = new Database(file);
    try {
      db.pragma('journal_mode = WAL');
      // Only the writer thread writes after the open; this connection migrates, replays and reads.
      db.pragma('synchronous = NORMAL');
      db.pragma('busy_timeout = 5000');
      // One IMMEDIATE transaction: a migration that fails leaves the file exactly as it was.
      db.transaction(() => prepareSchema(db)).immediate();
      lastLsn = replayJournal(db, dataDir, onError);
    } catch (err) {
      db.close();
      throw err;
    }
  } catch (err) {
    lock.release();
    throw err;
  }
  return { lock, file, db, lastLsn };
}

/** The store's reads of the database (the writer thread makes every write after the open). */
function prepareStatements(db: Database.Database) {
  const selectRoom = db.prepare<[string], RoomRow>('SELECT version, room FROM rooms WHERE code = ?');
  const selectApplied = db
    .prepare<[string, number], AppliedRow>(
      'SELECT command_id, actor_id, version FROM applied_slots WHERE code = ? AND version > max(?, 0) ORDER BY version',
    )
    .raw();
  const selectHead = db.prepare<[string], StoredHead>('SELECT version, log_last FROM rooms WHERE code = ?');
  const selectIdle = db.prepare<[number], { code: string }>('SELECT code FROM rooms WHERE last_activity < ?');
  const selectCounter = db.prepare<[string], { value: number }>('SELECT value FROM counters WHERE key = ?');
  const selectLog = db
    .prepare<[string], string>('SELECT event FROM log_slots WHERE code = ? AND seq >= 0 ORDER BY seq')
    .pluck();
  const selectLastSeq = db
    .prepare<[string], number | null>('SELECT max(seq) FROM log_slots WHERE code = ? AND seq >= 0')
    .pluck();
  const loadRows = db.transaction((code: string) => {
    const row = selectRoom.get(code);
    if (!row) return null;
    return { row, applied: selectApplied.all(code, row.version - APPLIED_SLOTS), log: selectLog.all(code) };
  });
  return { selectHead, selectIdle, selectCounter, selectLastSeq, loadRows };
}

type Statements = ReturnType<typeof prepareStatements>;

/**
 * The journal as this thread appends to it: the file being appended to, and the next one started
 * once it has grown past `fileBytes`.
 */
class JournalAppender {
  /** The lsn of the last entry appended (or, before any, the last one the database holds). */
  lastLsn: number;
  /** The generation of the file being appended to. */
  gen = 1;
  private file: JournalWriter;

  constructor(
    private readonly dataDir: string,
    private readonly fileBytes: number,
    lastLsn: number,
    private readonly onError: (err: Error) => void,
  ) {
    this.file = openJournal(join(dataDir, journalFileName(this.gen)));
    this.lastLsn = lastLsn;
  }

  /**
   * Appends the JSON of entry `lsn` (the next one); returns the lsn. Throws, appending nothing, when
   * the write fails.
   */
  append(lsn: number, json: string | readonly string[]): number {
    this.file.append(json);
    this.lastLsn = lsn;
    if (this.file.size() >= this.fileBytes) {
      try {
        const next = openJournal(join(this.dataDir, journalFileName(this.gen + 1)));
        this.file.close();
        this.file = next;
        this.gen++;
      } catch (err) {
        this.onError(new Error('SQLite store: could not start the next journal file', { cause: err }));
      }
    }
    return lsn;
  }

  /** Appends an entry other than a room's. */
  appendEntry(entry: Exclude<JournalEntry, RoomEntry>): number {
    return this.append(entry.lsn, JSON.stringify(entry));
  }

  close(): void {
    this.file.close();
  }
}

/** What the store knows of each room (KnownHead), read from the database the first time it is asked for. */
class KnownHeads {
  private readonly heads = new Map<string, KnownHead>();
  /** [lsn, code] of the deletes not yet applied, oldest first, from `deletesFrom` on. */
  private readonly deletes: [number, string][] = [];
  private deletesFrom = 0;

  constructor(private readonly statements: Pick<Statements, 'selectHead' | 'selectLastSeq'>) {}

  /** What the store knows of the room, if it has read or written it. */
  get(code: string): KnownHead | undefined {
    return this.heads.get(code);
  }

  set(code: string, head: KnownHead): void {
    this.heads.set(code, head);
    // A deleted room is forgotten once the database has the delete (else the map would keep every
    // code ever deleted).
    if (head.version === null) this.deletes.push([head.lsn, code]);
  }

  delete(code: string): void {
    this.heads.delete(code);
  }

  /** The room's version and log end as the journal leaves them, or null when there is no room. */
  headOf(code: string): (KnownHead & { version: number }) | null {
    let known = this.heads.get(code);
    if (!known) {
      const row = this.statements.selectHead.get(code);
      if (!row) return null;
      // log_last null: no events in the slots, or a row written before the column (then read them).
      const logLast = row.log_last ?? this.statements.selectLastSeq.get(code) ?? Number.NEGATIVE_INFINITY;
      known = { lsn: 0, version: row.version, logLast };
      this.heads.set(code, known);
    }
    return known.version === null ? null : (known as KnownHead & { version: number });
  }

  /** Forgets the rooms whose delete the database holds now (its entries up to `appliedLsn`). */
  forgetAppliedDeletes(appliedLsn: number): void {
    const { deletes } = this;
    while (this.deletesFrom < deletes.length && deletes[this.deletesFrom]![0] <= appliedLsn) {
      const [lsn, code] = deletes[this.deletesFrom]!;
      if (this.heads.get(code)?.lsn === lsn) this.heads.delete(code);
      this.deletesFrom++;
    }
    if (this.deletesFrom > 1024 && this.deletesFrom * 2 > deletes.length) {
      deletes.splice(0, this.deletesFrom);
      this.deletesFrom = 0;
    }
  }
}

/** What an open store is made of (openSqliteStore). */
interface StoreParts {
  dataDir: string;
  lock: DataDirLock;
  db: Database.Database;
  statements: Statements;
  journal: JournalAppender;
  heads: KnownHeads;
  writer: WriterThread;
}

/** The SqliteStore over its open parts: the checks, the journal entries, and the reads. */
function sqliteStoreOver({ dataDir, lock, db, statements, journal, heads, writer }: StoreParts): SqliteStore {
  const { selectIdle, selectCounter, loadRows } = statements;
  let closed = false;

  /** Journals a create (`expected` null) or a save of `record` that passed its check (see roomEntry). */
  const journalRoom = (record: StoredRoom, expected: number | null, before: KnownHead | null) => {
    const entry = roomEntry(journal.lastLsn + 1, record, expected, before);
    journal.append(entry.lsn, entry.parts);
    const { log } = record.room;
    heads.set(record.room.roomCode, {
      lsn: entry.lsn,
      version: record.version,
      logLast: entry.logLast,
      ...(entry.ring ? { log: new WeakRef(log) } : {}),
    });
  };
  /** The lsn of the room's last write when the database does not hold it yet, else 0. */
  const unapplied = (code: string): number => {
    const lsn = heads.get(code)?.lsn ?? 0;
    return lsn > writer.appliedLsn ? lsn : 0;
  };
  const assertOpen = () => {
    if (closed) throw new Error('SQLite store: closed');
  };

  return {
    async load(roomCode) {
      // Checked again after every wait, and the read made in the same turn as the last check: no write
      // of the room can come between.
      for (let lsn = unapplied(roomCode); lsn > 0; lsn = unapplied(roomCode)) await writer.settle(lsn);
      const rows = loadRows(roomCode);
      // The database holds the room's last write (settled): what it says is what the store knows.
      if (!rows) {
        heads.delete(roomCode);
        return null;
      }
      const room = JSON.parse(rows.row.room) as Room;
      // No slots: the log is in the JSON (a log that does not fit the ring, or a row from before the
      // log had its own table), or empty.
      if (rows.log.length > 0) room.log = rows.log.map((e) => JSON.parse(e) as LoggedEvent);
      heads.set(roomCode, {
        lsn: 0,
        version: rows.row.version,
        logLast: rows.log.length > 0 ? room.log[room.log.length - 1]!.seq : Number.NEGATIVE_INFINITY,
      });
      return {
        room,
        version: rows.row.version,
        appliedCommands: rows.applied.map(([commandId, actorId, version]) => ({
          commandId,
          actorId,
          version,
        })),
      };
    },
    async create(record) {
      assertOpen();
      if (heads.headOf(record.room.roomCode) !== null) return false;
      journalRoom(record, null, null);
      return true;
    },
    async save(record, expectedVersion) {
      assertOpen();
      const head = heads.headOf(record.room.roomCode);
      if (head?.version !== expectedVersion) return false;
      journalRoom(record, expectedVersion, head);
      return true;
    },
    async delete(roomCode, expectedVersion) {
      assertOpen();
      if (heads.headOf(roomCode)?.version !== expectedVersion) return false;
      const lsn = journal.appendEntry({
        lsn: journal.lastLsn + 1,
        kind: 'delete',
        code: roomCode,
        expected: expectedVersion,
      });
      heads.set(roomCode, { lsn, version: null, logLast: Number.NEGATIVE_INFINITY });
      return true;
    },
    async touch(roomCodes, now) {
      assertOpen();
      if (roomCodes.length > 0)
        journal.appendEntry({ lsn: journal.lastLsn + 1, kind: 'touch', codes: [...roomCodes], now });
    },
    async listIdle(before) {
      await writer.settle(journal.lastLsn);
      return selectIdle.all(before).map((r) => r.code);
    },
    async increment(counters) {
      assertOpen();
      if (Object.keys(counters).length > 0)
        journal.appendEntry({ lsn: journal.lastLsn + 1, kind: 'increment', counters: { ...counters } });
    },
    async readCounters(keys) {
      await writer.settle(journal.lastLsn);
      const out: Record<string, number> = {};
      for (const key of keys) out[key] = selectCounter.get(key)?.value ?? 0;
      return out;
    },
    flush: () => writer.settle(journal.lastLsn),
    writerResourceLimits: () => writer.resourceLimits(),
    async abandon() {
      if (closed) return;
      closed = true;
      await writer.abandon();
      journal.close();
      db.close();
      lock.release();
    },
    async close() {
      if (closed) return;
      closed = true;
      const applied = await writer.stop(journal.lastLsn);
      journal.close();
      // Every entry is in the database: the journal files are not needed (the writer deleted all but
      // the one being appended to). Otherwise they stay, and the next open replays them.
      if (applied && writer.appliedLsn === journal.lastLsn) removeJournalFiles(dataDir);
      db.close();
      lock.release();
    },
  };
}

/**
 * The JSON of the journal entry (a RoomEntry) of a create (`expected` null) or a save of `record`, the
 * highest seq the room's log slots hold after it (-Infinity: none) and whether its log is in the slots
 * (`ring`). `before` is what the store knew of the room before it (null for a create): only events
 * above its `logLast` are written, and its `log` lets ringUpdate skip reading the events the two logs
 * share. Throws when two of the record's new applied entries would take one slot with the later one
 * not newer (the check the SQL makes, made before anything is journaled).
 *
 * The text is put together rather than stringified as one object: the row and the events go in as
 * the JSON they are (the row's skeleton is shared with the broadcast, and so is each new event's
 * JSON, room-json.ts), where JSON.stringify would escape them as strings all over again (~40 µs a
 * save at 1,000 rooms, most of the main thread's cost of a save). The row's JSON goes last, on a line
 * of its own, so the writer thread never parses it (entryOf in sqlite-apply.ts). The text is returned
 * in the parts that join into it, which the journal writes as they are (journalRecord).
 */
function roomEntry(
  lsn: number,
  record: StoredRoom,
  expected: number | null,
  before: KnownHead | null,
): { lsn: number; parts: string[]; logLast: number; ring: boolean } {
  const { room } = record;
  const code = room.roomCode;
  const logLastBefore = before?.logLast ?? Number.NEGATIVE_INFINITY;
  const { fits: ring, from } = ringUpdate(room.log, logLastBefore, before?.log?.deref());
  const applied =
    expected === null ? record.appliedCommands : record.appliedCommands.filter((c) => c.version > expected);
  const slots = new Map<number, number>();
  for (const c of applied) {
    const slot = c.version % APPLIED_SLOTS;
    const there = slots.get(slot);
    if (there !== undefined && there >= c.version) {
      throw new Error(`SQLite store: applied command at version ${c.version} of room ${code} is not new`);
    }
    slots.set(slot, c.version);
  }
  const parts = ['', ',"events":['];
  if (ring) {
    for (let i = from; i < room.log.length; i++) {
      if (i > from) parts.push(',');
      parts.push(immutableJson(room.log[i]!));
    }
  }
  parts.push(']}\n');
  const last = logLast(room.log, ring);
  const fields: Omit<RoomEntry, 'row' | 'events'> = {
    lsn,
    kind: 'room',
    code,
    expected,
    version: record.version,
    lastActivity: room.lastActivity,
    logLast: last,
    ring,
    logFirst: room.log.length > 0 ? room.log[0]!.seq : null,
    logLength: room.log.length,
    applied,
  };
  const head = JSON.stringify(fields);
  parts[0] = head.slice(0, -1);
  for (const part of rowJsonParts(room, ring)) parts.push(part);
  return {
    lsn,
    parts,
    logLast: last ?? Number.NEGATIVE_INFINITY,
    ring,
  };
}

/**
 * Applies the journal files of `dataDir` to `db` (entries above the stored lsn), then deletes them.
 * Returns the last lsn applied. A torn end (a record cut short by a killed process: never
 * acknowledged) is dropped and reported, as are entries that do not fit the file.
 */
function replayJournal(db: Database.Database, dataDir: string, onError: (err: Error) => void): number {
  const applier = createApplier(db);
  const batch = new Batch(applier.appliedLsn());
  for (const gen of journalGens(readdirSync(dataDir))) {
    const path = join(dataDir, journalFileName(gen));
    const { records, droppedBytes } = readJournal(path);
    if (droppedBytes > 0) {
      onError(
        new Error(`SQLite store: dropped ${droppedBytes} bytes at the end of ${path} (a record cut short)`),
      );
    }
    for (const r of records) batch.add(entryOf(r));
  }
  if (batch.entries.length > 0) {
    const skipped = applier.apply(batch);
    if (skipped.length > 0) {
      onError(
        new Error(
          `SQLite store: ${skipped.length} journal entries did not fit the database (lsn ${skipped.map((e) => e.lsn).join(', ')})`,
        ),
      );
    }
  }
  removeJournalFiles(dataDir);
  return applier.appliedLsn();
}

/** Deletes every journal file of `dataDir`. */
function removeJournalFiles(dataDir: string): void {
  for (const gen of journalGens(readdirSync(dataDir)))
    rmSync(join(dataDir, journalFileName(gen)), { force: true });
}

/** The JSON of the room row, in parts (roomJsonParts): the room without its log when the log goes into the slots. */
function rowJsonParts(room: Room, logInSlots: boolean): string[] {
  return roomJsonParts(!logInSlots || room.log.length === 0 ? room : { ...room, log: [] });
}
