/**
 * The SQLite store's writes, as journal entries (sqlite-journal.ts) and the SQL that applies them.
 * The store's thread (the one that runs the rooms: the room thread, or the event loop with
 * ROOM_THREAD=false) checks each write, turns it into an entry and appends it to the journal;
 * the writer thread (sqlite-writer.ts) applies entries to the database in batches, and opening the
 * store replays what the journal holds beyond the last applied entry. Both apply with `createApplier`
 * below, so there is one definition of what an entry does to the file. The tables and their layout
 * are described in sqlite-store.ts.
 *
 * Every entry has a log sequence number (`lsn`, from 1, one more per entry). A batch is one
 * transaction that also stores its last lsn (`meta.applied_lsn`), so a replay skips exactly the
 * entries already in the file, whether the process died before or after the batch committed.
 */
import type Database from 'better-sqlite3';
import type { LoggedEvent } from '../../engine/types';
import type { AppliedCommand } from './room-store';
import { APPLIED_SLOTS, LOG_SLOTS } from './slots';

/** The version of a free applied slot and the seq of a free log slot (real ones are never negative). */
const FREE = -1;
/** The ids of a free applied slot: as long as the UUIDs the server and its clients use. */
const FREE_ID = ' '.repeat(36);
/** Log events are stored padded to a multiple of this many bytes (the engine's are 65–256). */
export const EVENT_CELL = 256;
/** The event of a free log slot. */
const FREE_EVENT = ' '.repeat(EVENT_CELL);

/** Puts a free slot into every slot of a room's applied ring that has no row. */
export const FILL_APPLIED = `
WITH RECURSIVE s(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM s WHERE n < ${APPLIED_SLOTS - 1})
INSERT OR IGNORE INTO applied_slots (code, slot, version, command_id, actor_id)
SELECT ?, n, ${FREE}, '${FREE_ID}', '${FREE_ID}' FROM s`;

/** Puts a free slot into every slot of a room's log ring that has no row. */
export const FILL_LOG = `
WITH RECURSIVE s(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM s WHERE n < ${LOG_SLOTS - 1})
INSERT OR IGNORE INTO log_slots (code, slot, seq, event) SELECT ?, n, ${FREE}, '${FREE_EVENT}' FROM s`;

/** Writes an applied entry into its slot unless the slot holds one at least as new (then changes = 0). */
export const PUT_APPLIED = `
INSERT INTO applied_slots (code, slot, version, command_id, actor_id) VALUES (?, ?, ?, ?, ?)
ON CONFLICT (code, slot) DO UPDATE SET
  version = excluded.version, command_id = excluded.command_id, actor_id = excluded.actor_id
WHERE excluded.version > applied_slots.version`;

/**
 * A room written whole (`expected` null: a create) or changed from version `expected` (a save), with
 * what the row and the slots need: the row (the room, its log left out when it goes into the slots),
 * and only the applied entries and log events that are new since `expected` (all of them for a create).
 * In the journal the row's JSON text follows the rest of the entry after a newline (entryOf): the
 * writer parses only the small part it reads and stores the row's text as it is, and a run of saves
 * coalesced into one (Batch) never parses the rows it drops.
 */
export interface RoomEntry {
  lsn: number;
  kind: 'room';
  code: string;
  /** The version the stored row must have; null: the code must be free (a create). */
  expected: number | null;
  version: number;
  /** The room row's JSON text (the Room, its log empty when the log is in the slots). */
  row: string;
  lastActivity: number;
  /** The highest seq the log slots hold afterwards (null: none). */
  logLast: number | null;
  /** False: the log does not fit the ring and stays in `row`; the slots are freed. */
  ring: boolean;
  /** The log's first seq (null when the log is empty) and its length. */
  logFirst: number | null;
  logLength: number;
  /** The log's events newer than the stored ones. */
  events: LoggedEvent[];
  /** Applied command entries newer than `expected`, oldest first. */
  applied: AppliedCommand[];
}

/**
 * The journal entry in a record's payload. A room entry is its JSON without the row, a newline, then
 * the row's JSON (JSON text never holds a raw newline); every other entry, and a room entry journaled
 * before the row had a line of its own (its row a JSON value), is one JSON text. Throws a SyntaxError
 * on a payload that is neither.
 */
export function entryOf(payload: string): JournalEntry {
  const newline = payload.indexOf('\n');
  if (newline >= 0) {
    const head = JSON.parse(payload.slice(0, newline)) as Omit<RoomEntry, 'row'>;
    if (head.kind !== 'room') throw new SyntaxError(`journal entry ${head.lsn}: a ${head.kind} with a row`);
    return { ...head, row: payload.slice(newline + 1) };
  }
  const entry = JSON.parse(payload) as JournalEntry | (Omit<RoomEntry, 'row'> & { row: unknown });
  if (entry.kind === 'room' && typeof entry.row !== 'string')
    return { ...entry, row: JSON.stringify(entry.row) };
  return entry as JournalEntry;
}

/** Deletes a room at version `expected`, with its slots. */
export interface DeleteEntry {
  lsn: number;
  kind: 'delete';
  code: string;
  expected: number;
}

/** Sets the activity time of the rooms that exist. */
export interface TouchEntry {
  lsn: number;
  kind: 'touch';
  codes: string[];
  now: number;
}

/** Adds to analytics counters. */
export interface IncrementEntry {
  lsn: number;
  kind: 'increment';
  counters: Record<string, number>;
}

export type JournalEntry = RoomEntry | DeleteEntry | TouchEntry | IncrementEntry;

/** Applies batches of entries to one connection. */
export interface Applier {
  /**
   * Applies a batch made after the stored lsn, in one transaction that also stores the batch's last
   * lsn. Returns the entries that did not fit the file (a save or delete whose version was not the
   * stored one, a create on a taken code): skipped, the rest applied. Throws (and writes nothing) when
   * the batch was not made after the stored lsn or the database fails.
   */
  apply(batch: Batch): JournalEntry[];
  /** The lsn of the last entry applied to the file (0: none). */
  appliedLsn(): number;
}

/** An event's JSON padded with spaces (which JSON.parse skips) to a whole number of EVENT_CELL bytes. */
export function slotEvent(json: string): string {
  const bytes = Buffer.byteLength(json);
  const rest = bytes % EVENT_CELL;
  return rest === 0 ? json : json + ' '.repeat(EVENT_CELL - rest);
}

/** Prepares the statements of the entries on `db` (whose schema is the store's, migrated). */
export function createApplier(db: Database.Database): Applier {
  const selectLsn = db.prepare<[], number>("SELECT value FROM meta WHERE key = 'applied_lsn'").pluck();
  const putLsn = db.prepare<[number]>(
    "INSERT INTO meta (key, value) VALUES ('applied_lsn', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
  );
  const insertRoom = db.prepare<[string, number, string, number, number | null]>(
    'INSERT OR IGNORE INTO rooms (code, version, room, last_activity, log_last) VALUES (?, ?, ?, ?, ?)',
  );
  const updateRoom = db.prepare<[number, string, number, number | null, string, number]>(
    'UPDATE rooms SET version = ?, room = ?, last_activity = ?, log_last = ? WHERE code = ? AND version = ?',
  );
  const deleteRoom = db.prepare<[string, number]>('DELETE FROM rooms WHERE code = ? AND version = ?');
  const putApplied = db.prepare<[string, number, number, string, string]>(PUT_APPLIED);
  const deleteApplied = db.prepare<[string]>('DELETE FROM applied_slots WHERE code = ?');
  const putEvent = db.prepare<[string, number, number, string]>(
    `INSERT INTO log_slots (code, slot, seq, event) VALUES (?, ?, ?, ?)
     ON CONFLICT (code, slot) DO UPDATE SET seq = excluded.seq, event = excluded.event`,
  );
  const pruneLog = db.prepare<[string, number]>(
    `UPDATE log_slots SET seq = ${FREE}, event = '${FREE_EVENT}' WHERE code = ? AND seq >= 0 AND seq < ?`,
  );
  const clearLog = db.prepare<[string]>(
    `UPDATE log_slots SET seq = ${FREE}, event = '${FREE_EVENT}' WHERE code = ? AND seq >= 0`,
  );
  const deleteLog = db.prepare<[string]>('DELETE FROM log_slots WHERE code = ?');
  const fillApplied = db.prepare<[string]>(FILL_APPLIED);
  const fillLog = db.prepare<[string]>(FILL_LOG);
  const touchRoom = db.prepare<[number, string]>('UPDATE rooms SET last_activity = ? WHERE code = ?');
  const addCounter = db.prepare<[string, number]>(
    'INSERT INTO counters (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = value + excluded.value',
  );

  /** Writes the entry's applied ids and log events (the row is written). */
  const writeSlots = (e: RoomEntry) => {
    for (const c of e.applied) {
      if (
        putApplied.run(e.code, c.version % APPLIED_SLOTS, c.version, c.commandId, c.actorId).changes !== 1
      ) {
        // The store checks this before journaling; a file that disagrees is not this store's.
        throw new Error(`SQLite store: applied command at version ${c.version} of room ${e.code} is not new`);
      }
    }
    if (!e.ring || e.logFirst === null) {
      clearLog.run(e.code);
      return;
    }
    for (const ev of e.events)
      putEvent.run(e.code, ev.seq % LOG_SLOTS, ev.seq, slotEvent(JSON.stringify(ev)));
    // A full ring has every slot overwritten by the log; a shorter log may have left some behind.
    if (e.logLength < LOG_SLOTS) pruneLog.run(e.code, e.logFirst);
  };

  /** Applies one entry; false when it does not fit the file (nothing of it written). */
  const applyOne = (e: JournalEntry): boolean => {
    switch (e.kind) {
      case 'room': {
        if (e.expected === null) {
          if (insertRoom.run(e.code, e.version, e.row, e.lastActivity, e.logLast).changes !== 1) return false;
          // delete removes a room's slots with it; clearing anyway keeps the rings exactly the created ones.
          deleteApplied.run(e.code);
          deleteLog.run(e.code);
          writeSlots(e);
          fillApplied.run(e.code);
          fillLog.run(e.code);
          return true;
        }
        const changed = updateRoom.run(
          e.version,
          e.row,
          e.lastActivity,
          e.logLast,
          e.code,
          e.expected,
        ).changes;
        if (changed !== 1) return false;
        writeSlots(e);
        return true;
      }
      case 'delete':
        if (deleteRoom.run(e.code, e.expected).changes !== 1) return false;
        deleteApplied.run(e.code);
        deleteLog.run(e.code);
        return true;
      case 'touch':
        for (const code of e.codes) touchRoom.run(e.now, code);
        return true;
      case 'increment':
        for (const [key, by] of Object.entries(e.counters)) addCounter.run(key, by);
        return true;
    }
  };

  const applyAll = db.transaction((batch: Batch) => {
    const stored = selectLsn.get() ?? 0;
    if (stored !== batch.after) {
      throw new Error(`SQLite store: a batch after entry ${batch.after} met a file at entry ${stored}`);
    }
    const skipped: JournalEntry[] = [];
    // An entry that does not fit fails at its first statement, so it has written nothing.
    for (const e of batch.entries) if (!applyOne(e)) skipped.push(e);
    if (batch.last !== batch.after) putLsn.run(batch.last);
    return skipped;
  });
  const appliedLsn = () => selectLsn.get() ?? 0;

  return { apply: (batch) => applyAll.immediate(batch), appliedLsn };
}

/**
 * The entries of one transaction (those after `after`, added in lsn order), coalesced as they are
 * added: the same end result with fewer writes. Each run of saves of one room, one after the other
 * (each from the version the one before made), becomes one entry: the last row, the applied ids and
 * log events of all of them (those the end state keeps), from the first one's expected version. A
 * create may start a run. A room's run ends at anything else of that room (a delete, a touch, a save
 * whose log is not in the slots or is empty, a save from another version): that goes after it, in
 * order. Other rooms' entries and counters do not depend on the room, so the run's place among them
 * does not matter. A merged entry carries the lsn of the last entry in it; one that does not fit the
 * file is skipped as a whole.
 *
 * Why: a room's row, its applied slot and its log slot are three or four pages written to the WAL for
 * every save; a room that saved five times in a batch writes them about once. Coalescing as entries
 * come keeps about one entry per room however many saves a batch covers, so the journal can be read
 * in pieces without memory growing with the batch's length.
 */
export class Batch {
  private readonly out: JournalEntry[] = [];
  /** Where in `out` each room's open run is. */
  private readonly open = new Map<string, number>();
  /** The lsn of the last entry added; `after` when none. */
  last: number;

  /** A batch of the entries after `after` (the database's applied lsn); earlier ones are left out. */
  constructor(readonly after: number) {
    this.last = after;
  }

  /** The entries to apply, in order. */
  get entries(): readonly JournalEntry[] {
    return this.out;
  }

  /** Adds the next entry. Throws when it does not follow the last one (entries would be missing). */
  add(e: JournalEntry): void {
    if (e.lsn <= this.last) return;
    if (e.lsn !== this.last + 1) {
      throw new Error(`SQLite store: journal entry ${e.lsn} follows ${this.last} (entries are missing)`);
    }
    this.last = e.lsn;
    const { out, open } = this;
    if (e.kind === 'room' && e.ring && e.logFirst !== null) {
      const at = open.get(e.code);
      const run = at === undefined ? undefined : (out[at] as RoomEntry);
      if (run !== undefined && at !== undefined && e.expected !== null && e.expected === run.version) {
        out[at] = merge(run, e);
        return;
      }
      open.set(e.code, out.length);
      out.push(e);
      return;
    }
    if (e.kind === 'room' || e.kind === 'delete') open.delete(e.code);
    else if (e.kind === 'touch') for (const code of e.codes) open.delete(code);
    out.push(e);
  }
}

/** `run` followed by `next` (a save from the version `run` made, its log in the slots) as one entry. */
function merge(run: RoomEntry, next: RoomEntry): RoomEntry {
  const first = next.logFirst ?? Number.NEGATIVE_INFINITY;
  const oldestKept = next.version - APPLIED_SLOTS;
  return {
    ...next,
    expected: run.expected,
    // Older events and ids than the end state keeps would be written only to be freed or overwritten.
    events: [...run.events.filter((ev) => ev.seq >= first), ...next.events],
    applied: [...run.applied.filter((c) => c.version > oldestKept), ...next.applied],
  };
}
