/**
 * The SQLite store's side of its writer thread (the thread itself is sqlite-writer.ts): starts it,
 * follows the lsn it has applied, lets callers wait for an lsn (`settle`), hears its failures, and
 * stops it. Used by sqlite-store.ts, which holds one for as long as it is open.
 */
import { type ResourceLimits, Worker } from 'node:worker_threads';
import type { FromWriter, ToWriter, WriterData } from './sqlite-writer';

/**
 * How the writer thread is started: the script the Worker runs, and the module that script loads
 * (null when the script is the writer itself). From the TypeScript sources (tsx, Vitest) a worker
 * does not inherit the loader, so a plain-JavaScript boot script registers tsx and then loads the
 * writer. From the compiled server (`npm start`, scripts/server-build.mjs) this module is bundled into a
 * chunk of dist/server that main.js and room-thread.js share, and the writer is its sibling
 * sqlite-writer.js, which runs as it is.
 */
const WRITER_ENTRY: { script: URL; module: string | null } = import.meta.url.endsWith('.ts')
  ? {
      script: new URL('../worker-boot.mjs', import.meta.url),
      module: new URL('./sqlite-writer.ts', import.meta.url).href,
    }
  : { script: new URL('./sqlite-writer.js', import.meta.url), module: null };

/**
 * The writer thread's young generation (MB, V8's `maxYoungGenerationSizeMb`: two semi-spaces and a
 * third for large objects). V8's default, 48, lets the thread's new space grow to 32 MB, all of it
 * resident, for garbage that dies within a batch (the 1 MiB journal reads and their parsed entries).
 * Session 18 measured 6 against the default with the rooms on the event loop: ~45 MB less peak RSS,
 * but p99 higher in 9 pairs of 12, and p99 was the target missed then, so it was reverted. With the
 * rooms on a thread of their own (room-thread.ts) p99 has room and RSS has none (peak 466–497 MB at
 * 1,000 rooms): in four runs in turns, 6 gave 440–452 MB against 467–476, p99 no worse (median of six
 * rounds 22.7 against 44 ms on a drifting box). bench/README.md, sessions 18 and 21.
 */
export const WRITER_YOUNG_GENERATION_MB = 6;

/** A caller waiting until the thread has applied entry `lsn`. */
interface Waiter {
  lsn: number;
  resolve: () => void;
  reject: (err: Error) => void;
}

/** The running writer thread, as the store's thread sees it. */
export class WriterThread {
  /** The lsn of the last journal entry the database holds. */
  appliedLsn: number;
  private readonly worker: Worker;
  private readonly exited: Promise<void>;
  private readonly waiters: Waiter[] = [];
  private failed: Error | null = null;
  /** Set once the store is closing or abandoned. */
  private closing = false;
  /** Set when close has told the thread to stop (its exit is then no failure). */
  private stopped = false;

  /**
   * Starts the thread on `data`. `appliedLsn` is the last lsn the database holds now; `onApplied` is
   * told of each lsn the thread has applied since (before the callers waiting for it are answered);
   * `onError` of what goes wrong out of any caller's sight.
   */
  constructor(
    data: WriterData,
    appliedLsn: number,
    private readonly onApplied: (lsn: number) => void,
    private readonly onError: (err: Error) => void,
  ) {
    this.appliedLsn = appliedLsn;
    this.worker = new Worker(WRITER_ENTRY.script, {
      workerData: { module: WRITER_ENTRY.module, ...data } satisfies WriterData & { module: string | null },
      resourceLimits: { maxYoungGenerationSizeMb: WRITER_YOUNG_GENERATION_MB },
    });
    this.exited = new Promise<void>((resolve) => this.worker.once('exit', () => resolve()));
    this.holdProcess();
    this.worker.on('error', (err) => this.fail(err));
    void this.exited.then(() => this.fail(new Error('it exited')));
    this.worker.on('message', (message: FromWriter) => this.receive(message));
  }

  /**
   * The thread keeps the process alive only while a caller waits for it or the store is closing: a
   * process that ends without closing the store leaves the rest in the journal, and the next open
   * replays it.
   */
  private holdProcess(): void {
    if (this.waiters.length > 0 || this.closing) this.worker.ref();
    else this.worker.unref();
  }

  private fail(err: Error): void {
    if (this.failed || this.stopped) return;
    this.failed = new Error(`SQLite store: the writer thread stopped (${err.message})`, { cause: err });
    this.onError(this.failed);
    for (const w of this.waiters.splice(0)) w.reject(this.failed);
  }

  private receive(message: FromWriter): void {
    switch (message.type) {
      case 'applied': {
        this.appliedLsn = message.lsn;
        this.onApplied(this.appliedLsn);
        let kept = 0;
        for (const w of this.waiters) {
          if (w.lsn <= this.appliedLsn) w.resolve();
          else this.waiters[kept++] = w;
        }
        this.waiters.length = kept;
        this.holdProcess();
        break;
      }
      case 'skipped':
        this.onError(
          new Error(
            `SQLite store: journal entries did not fit the database: ${JSON.stringify(message.entries)}`,
          ),
        );
        break;
      case 'error':
        this.onError(new Error(`SQLite store writer: ${message.message}`));
        break;
      case 'failed': {
        // A batch failed (a full disk): the journal keeps its entries and the thread tries again each
        // interval. Whoever waits for it (a load, listIdle, readCounters) hears so now rather than
        // waiting for as long as the disk stays full, holding its room's queue (each new wait asks
        // the thread to try again at once).
        const err = new Error(`SQLite store writer: ${message.message}`);
        this.onError(err);
        for (const w of this.waiters.splice(0)) w.reject(err);
        this.holdProcess();
        break;
      }
      case 'stopped':
        break;
    }
  }

  /** Resolves once the writer has applied entry `lsn`. */
  settle(lsn: number): Promise<void> {
    if (this.appliedLsn >= lsn) return Promise.resolve();
    if (this.failed) return Promise.reject(this.failed);
    return new Promise<void>((resolve, reject) => {
      this.waiters.push({ lsn, resolve, reject });
      this.holdProcess();
      this.worker.postMessage({ type: 'poll' } satisfies ToWriter);
    });
  }

  /** The thread's V8 limits as Node reports them (`Worker#resourceLimits`). */
  resourceLimits(): ResourceLimits {
    return this.worker.resourceLimits ?? {};
  }

  /**
   * For the store's close: waits until the thread has applied entry `lastLsn`, then stops it (or
   * terminates it, when it failed) and waits for it to exit. Resolves with whether it applied them.
   */
  async stop(lastLsn: number): Promise<boolean> {
    this.closing = true;
    this.holdProcess();
    let applied = false;
    try {
      await this.settle(lastLsn);
      applied = true;
    } catch {
      // The writer failed (already reported): the journal keeps what it did not apply.
    }
    if (this.failed) {
      void this.worker.terminate();
    } else {
      this.stopped = true;
      this.worker.postMessage({ type: 'stop' } satisfies ToWriter);
    }
    await this.exited;
    return applied;
  }

  /** For the store's abandon: terminates the thread wherever it is; whoever waits for it is refused. */
  async abandon(): Promise<void> {
    this.closing = true;
    this.stopped = true;
    for (const w of this.waiters.splice(0)) w.reject(new Error('SQLite store: abandoned'));
    await this.worker.terminate();
  }
}
