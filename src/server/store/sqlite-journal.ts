/**
 * The SQLite store's write-ahead journal: an append-only file of records, each written with one
 * `write` before the store answers, so a save is durable (against a killed process, as SQLite's WAL
 * with `synchronous=NORMAL` is) without waiting for a SQLite transaction. The store's writer thread
 * applies the records to SQLite in batches later and deletes each file once it is applied (the store
 * starts a new file past a size); opening the store replays what is left.
 *
 * A record on disk: its payload's length in bytes (u32, little-endian), the payload's CRC-32 (u32,
 * little-endian), then the payload (UTF-8). A process killed inside a `write` can leave a record cut
 * short (Linux may stop a write to a file between pages when the process is killed); a power cut can
 * leave garbage or zeros at the end. Either way the records from the first bad one on (a length of 0,
 * a length past the end of the file, or a CRC that does not match) were never acknowledged: `read`
 * returns the records before it and how many bytes it dropped.
 */
import { closeSync, fstatSync, ftruncateSync, openSync, readFileSync, writeSync } from 'node:fs';
import { crc32 } from 'node:zlib';

const HEADER_BYTES = 8;
/** The largest payload a record may have (far above a room's: a room is ~2–8 KB of JSON). */
const MAX_RECORD_BYTES = 64 * 1024 * 1024;

/** What `readJournal` found in a file. */
export interface JournalContents {
  /** The payloads of the whole records, in the order they were appended. */
  records: string[];
  /** Bytes after the last whole record (a torn or garbled end); 0 for a clean file. */
  droppedBytes: number;
}

/** Reads the records of a journal file (none when the file does not exist). */
export function readJournal(file: string): JournalContents {
  let data: Buffer;
  try {
    data = readFileSync(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { records: [], droppedBytes: 0 };
    throw err;
  }
  const { records, used } = parseRecords(data);
  return { records, droppedBytes: data.length - used };
}

/**
 * The whole records at the start of `data` and the bytes they take; parsing stops at the first record
 * that is cut short or does not check (the rest is `data.length - used` bytes).
 */
export function parseRecords(data: Buffer): { records: string[]; used: number } {
  const records: string[] = [];
  let at = 0;
  while (at + HEADER_BYTES <= data.length) {
    const length = data.readUInt32LE(at);
    const sum = data.readUInt32LE(at + 4);
    const end = at + HEADER_BYTES + length;
    if (length === 0 || length > MAX_RECORD_BYTES || end > data.length) break;
    const payload = data.subarray(at + HEADER_BYTES, end);
    if (crc32(payload) !== sum) break;
    records.push(payload.toString('utf8'));
    at = end;
  }
  return { records, used: at };
}

/** The name of journal file number `gen` (files are numbered from 1 and applied in that order). */
export function journalFileName(gen: number): string {
  return `chipless.journal.${gen}`;
}

/** The numbers of the journal files in `dir`, lowest first. */
export function journalGens(names: readonly string[]): number[] {
  const gens: number[] = [];
  for (const name of names) {
    const m = /^chipless\.journal\.([1-9][0-9]{0,14})$/.exec(name);
    if (m) gens.push(Number(m[1]));
  }
  return gens.sort((a, b) => a - b);
}

/**
 * Frames a payload as one record (header and payload in one buffer, for one write). The payload may
 * come in parts, written one after the other: a room entry is made of the JSON texts it joins (its
 * head, its new events, the row's), and writing them as they are saves joining them into one string
 * first (~3.5 KB a command of garbage at 1,000 rooms; bench/README.md, session 8).
 */
export function journalRecord(payload: string | readonly string[]): Buffer {
  let length = 0;
  if (typeof payload === 'string') length = Buffer.byteLength(payload);
  else for (const part of payload) length += Buffer.byteLength(part);
  if (length === 0 || length > MAX_RECORD_BYTES) {
    throw new Error(`journal record of ${length} bytes (must be 1 to ${MAX_RECORD_BYTES})`);
  }
  const buf = Buffer.allocUnsafe(HEADER_BYTES + length);
  if (typeof payload === 'string') buf.write(payload, HEADER_BYTES, 'utf8');
  else {
    let at = HEADER_BYTES;
    for (const part of payload) at += buf.write(part, at, 'utf8');
  }
  buf.writeUInt32LE(length, 0);
  buf.writeUInt32LE(crc32(buf.subarray(HEADER_BYTES)), 4);
  return buf;
}

/** An open journal file, appended to by one process. */
export interface JournalWriter {
  /**
   * Appends one record (the payload, or its parts joined) with one `write`; when it returns, the record
   * survives the process being killed.
   */
  append(payload: string | readonly string[]): void;
  /** Bytes in the file now. */
  size(): number;
  close(): void;
}

/** Opens (creating when needed) `file` for appending; what it holds stays (read it first). */
export function openJournal(file: string): JournalWriter {
  // 'a': O_APPEND, so every write lands at the end of the file.
  const fd = openSync(file, 'a');
  let bytes = fstatSync(fd).size;
  let open = true;
  let broken: Error | null = null;
  return {
    append(payload) {
      if (broken) throw broken;
      const buf = journalRecord(payload);
      let written = 0;
      try {
        // A write to a regular file is whole unless the disk is full or the process is being killed;
        // the loop makes a short write (which the kernel allows) no different from a whole one.
        while (written < buf.length) written += writeSync(fd, buf, written, buf.length - written);
      } catch (err) {
        // A failed write (a full disk) may have left part of the record: cut it off, or every record
        // appended after it would be unreadable. If even that fails, no later append is trusted.
        try {
          ftruncateSync(fd, bytes);
        } catch (cause) {
          broken = new Error(`journal ${file} could not be repaired after a failed write`, { cause });
        }
        throw err;
      }
      bytes += buf.length;
    },
    size: () => bytes,
    close() {
      if (!open) return;
      open = false;
      closeSync(fd);
    },
  };
}
