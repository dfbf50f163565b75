/**
 * The SQLite store's writer thread (a worker_threads Worker, started by sqlite-writer-thread.ts through
 * worker-boot.mjs). The store's thread is the one that runs the rooms: the room thread, or the event
 * loop with ROOM_THREAD=false. It follows the journal files the store's thread appends to, and applies
 * their entries to the database in batches: one transaction every `intervalMs` (or at once when the
 * store's thread asks, because a read is waiting), then tells the store's thread the last lsn
 * applied. The store's thread never waits for it to acknowledge a command; the journal already holds
 * the command.
 *
 * Files: the store's thread appends to `chipless.journal.<gen>` and starts file gen + 1 once gen has
 * grown past a size. So when file gen + 1 exists, gen is complete: the writer reads gen to its end,
 * applies it, and deletes it after the transaction committed. A record at the end of the current file
 * that does not parse yet is one the store's thread is still writing: it is read on a later turn.
 *
 * This thread is the database's only writer after the store opened; SQLite's automatic checkpoints
 * (every 1,000 WAL pages) run inside its transactions, so they never hold up the store's thread. It
 * runs at a lower priority (nice 10 by default): at 1,000 rooms a batch is ~0.3–0.6 s of a core every 5 s,
 * which at the process's own priority took that CPU from the event loop on a 2-core box and showed as
 * latency spikes (bench/README.md, session 7).
 */
import { closeSync, existsSync, fstatSync, openSync, readlinkSync, readSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { lowerThread } from '../helper-threads';
import { Batch, createApplier, entryOf } from './sqlite-apply';
import { journalFileName, parseRecords } from './sqlite-journal';

/** What the store passes to the thread. */
export interface WriterData {
  dbFile: string;
  dataDir: string;
  /** The journal file the store's thread appends to first. */
  gen: number;
  intervalMs: number;
  /** The nice value this thread runs at (at least the process's own); see lowerPriority. */
  nice: number;
  /** SQLite's `journal_size_limit` for the WAL (bytes); see SqliteStoreOptions.walSizeLimitBytes. */
  walSizeLimitBytes: number;
}

/** Messages from the store's thread. */
export type ToWriter = { type: 'poll' } | { type: 'stop' };

/** Messages to the store's thread. */
export type FromWriter =
  | { type: 'applied'; lsn: number }
  /** Entries that did not fit the file (skipped); see Applier.apply. */
  | { type: 'skipped'; entries: { lsn: number; kind: string; code?: string }[] }
  | { type: 'error'; message: string }
  /** A batch failed (a full disk): nothing of it was written; its entries stay and are tried again. */
  | { type: 'failed'; message: string }
  | { type: 'stopped' };

const port = parentPort;
if (!port) throw new Error('sqlite-writer runs as a worker thread');
const data = workerData as WriterData;

/**
 * Lowers this thread's scheduling priority to `nice`, so that applying the journal (work nobody waits
 * for) takes the CPU the event loop leaves rather than competing with it. On Linux a thread's id names
 * it to setpriority (/proc/thread-self gives the id); elsewhere, or when not allowed, the thread keeps
 * the process's priority.
 */
function lowerPriority(nice: number): void {
  try {
    lowerThread(Number(readlinkSync('/proc/thread-self').split('/').pop()), nice);
  } catch {
    // Not Linux: run at the process's priority.
  }
}
lowerPriority(data.nice);

const db = new Database(data.dbFile, { fileMustExist: true });
db.pragma('synchronous = NORMAL');
db.pragma('busy_timeout = 5000');
db.pragma(`journal_size_limit = ${Math.floor(data.walSizeLimitBytes)}`);
const applier = createApplier(db);
const post = (message: FromWriter) => port.postMessage(message);

let gen = data.gen;
let fd: number | null = null;
/** Bytes of file `gen` read (and applied, once the turn's transaction committed). */
let offset = 0;
let timer: NodeJS.Timeout | null = null;
let stopping = false;

/** Bytes read from a journal file at a time (a batch's entries are coalesced as they are read). */
const PIECE_BYTES = 1024 * 1024;

/** Reads at most `max` bytes of the open file from `offset` (fewer at its end). */
function readPiece(file: number, max: number): Buffer {
  const size = fstatSync(file).size;
  if (size <= offset) return Buffer.alloc(0);
  const buf = Buffer.allocUnsafe(Math.min(size - offset, max));
  let got = 0;
  while (got < buf.length) {
    const n = readSync(file, buf, got, buf.length - got, offset + got);
    if (n === 0) break;
    got += n;
  }
  return buf.subarray(0, got);
}

/** Deletes a journal file that is applied; one left behind is replayed (its entries skipped) on open. */
function removeFile(path: string): void {
  try {
    unlinkSync(path);
  } catch (err) {
    post({
      type: 'error',
      message: `could not delete ${path}: ${err instanceof Error ? err.message : String(err)}`,
    });
  }
}

/** Applies what the journal holds beyond what was applied; deletes files that are done. */
function poll(): void {
  timer = null;
  const startGen = gen;
  try {
    const batch = new Batch(applier.appliedLsn());
    const done: string[] = [];
    for (;;) {
      const path = join(data.dataDir, journalFileName(gen));
      if (fd === null) {
        if (!existsSync(path)) break;
        fd = openSync(path, 'r');
        offset = 0;
      }
      // Whether the next file exists is asked before reading: if it does, everything of this one
      // was written before it was made, so what is read now is the whole file.
      const complete = existsSync(join(data.dataDir, journalFileName(gen + 1)));
      let piece = PIECE_BYTES;
      let rest = 0;
      for (;;) {
        const bytes = readPiece(fd, piece);
        const { records, used } = parseRecords(bytes);
        for (const r of records) batch.add(entryOf(r));
        offset += used;
        if (bytes.length < piece) {
          rest = bytes.length - used;
          break;
        }
        // A whole piece without a whole record: one record is longer than a piece.
        if (used === 0) piece *= 2;
      }
      if (!complete) break;
      if (rest > 0)
        post({ type: 'error', message: `journal ${path}: ${rest} bytes at its end do not parse` });
      closeSync(fd);
      fd = null;
      done.push(path);
      gen++;
    }
    if (batch.entries.length > 0) {
      const skipped = applier.apply(batch);
      if (skipped.length > 0) {
        post({
          type: 'skipped',
          entries: skipped.map((e) => ({
            lsn: e.lsn,
            kind: e.kind,
            ...('code' in e ? { code: e.code } : {}),
          })),
        });
      }
    }
    for (const path of done) removeFile(path);
    post({ type: 'applied', lsn: applier.appliedLsn() });
  } catch (err) {
    // Nothing of the batch was written (one transaction). The next turn reads again from the start of
    // the file this one started in (a batch leaves out the entries already applied); a restart replays.
    if (fd !== null) closeSync(fd);
    fd = null;
    gen = startGen;
    post({ type: 'failed', message: err instanceof Error ? err.message : String(err) });
  }
  if (!stopping) timer = setTimeout(poll, data.intervalMs);
}

port.on('message', (message: ToWriter) => {
  if (message.type === 'poll') {
    if (timer) clearTimeout(timer);
    poll();
  } else if (message.type === 'stop') {
    stopping = true;
    if (timer) clearTimeout(timer);
    poll();
    if (fd !== null) closeSync(fd);
    db.close();
    post({ type: 'stopped' });
    port.close();
  }
});

timer = setTimeout(poll, data.intervalMs);
