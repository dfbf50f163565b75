/**
 * WAL checkpoints for the SQLite store, off the event loop. SQLite's automatic checkpoint (every 1,000
 * WAL pages) runs inside whichever write crosses the threshold: at ~1,000 commands a second that is a
 * dozen times a second, each copying pages into the database file and fsyncing it while every room
 * waits (up to ~60 ms per stall, ~15% of the event loop; measured in bench/README.md). Here a worker
 * thread with its own connection runs PASSIVE checkpoints, which never block the writer. A passive
 * checkpoint cannot rewind a WAL that is written to all the time, so when the WAL has grown past a
 * limit the worker pauses and the main connection runs a RESTART checkpoint, which has little left to
 * copy, and the WAL file is reused from its start. If the worker cannot run, automatic checkpoints
 * are turned back on.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { Database } from 'better-sqlite3';

/** Options of the checkpointer. */
export interface CheckpointerOptions {
  /** Pause between two background checkpoints (ms). Default 200. */
  intervalMs?: number;
  /** WAL size (bytes) above which the WAL is rewound (a short RESTART checkpoint). Default 64 MiB. */
  walLimitBytes?: number;
  /** Told of a failed checkpoint or a failed worker (the store goes on; nothing is lost). */
  onError?: (err: Error) => void;
}

/** A running checkpointer. */
export interface Checkpointer {
  /** Stops the worker and closes its connection. */
  stop(): Promise<void>;
}

/** SQLite's default automatic checkpoint threshold (pages), restored when the worker fails. */
const SQLITE_DEFAULT_AUTOCHECKPOINT = 1000;

// CommonJS run by the worker thread (eval), so it needs no TypeScript loader.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { fileMustExist: true });
db.pragma('busy_timeout = 1000');
const limitFrames = Math.ceil(workerData.walLimitBytes / db.pragma('page_size', { simple: true }));
let timer = null;
let paused = false;
function tick() {
  timer = null;
  try {
    const result = db.pragma('wal_checkpoint(PASSIVE)')[0];
    if (result && result.log >= limitFrames) {
      paused = true;
      parentPort.postMessage({ type: 'rewind' });
      return;
    }
  } catch (err) {
    parentPort.postMessage({ type: 'error', message: String((err && err.message) || err) });
  }
  timer = setTimeout(tick, workerData.intervalMs);
}
timer = setTimeout(tick, workerData.intervalMs);
parentPort.on('message', (message) => {
  if (message === 'resume' && paused) {
    paused = false;
    timer = setTimeout(tick, workerData.intervalMs);
  } else if (message === 'stop') {
    if (timer) clearTimeout(timer);
    db.close();
    parentPort.close();
  }
});
`;

/**
 * Turns off automatic checkpoints on `db` (the store's connection to `file`, in WAL mode) and
 * checkpoints from a worker thread instead.
 */
export function startCheckpointer(
  db: Database,
  file: string,
  options: CheckpointerOptions = {},
): Checkpointer {
  const require = createRequire(import.meta.url);
  const onError = options.onError ?? (() => {});
  db.pragma('wal_autocheckpoint = 0');
  let stopped = false;
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: {
      driver: require.resolve('better-sqlite3'),
      file,
      intervalMs: options.intervalMs ?? 200,
      walLimitBytes: options.walLimitBytes ?? 64 * 1024 * 1024,
    },
  });
  // Never keeps the process alive on its own.
  worker.unref();
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  const fallBack = () => {
    if (stopped || !db.open) return;
    db.pragma(`wal_autocheckpoint = ${SQLITE_DEFAULT_AUTOCHECKPOINT}`);
  };
  worker.on('message', (message: { type: string; message?: string }) => {
    if (message.type === 'rewind') {
      if (stopped || !db.open) return;
      try {
        db.pragma('wal_checkpoint(RESTART)');
      } catch (err) {
        onError(err as Error);
      }
      worker.postMessage('resume');
    } else if (message.type === 'error') {
      onError(new Error(`WAL checkpoint failed: ${message.message}`));
    }
  });
  worker.on('error', (err) => {
    onError(err);
    fallBack();
  });
  void exited.then(fallBack);
  return {
    async stop() {
      if (stopped) return exited;
      stopped = true;
      // Unreferenced, the worker would not keep the event loop alive while the caller awaits this.
      worker.ref();
      worker.postMessage('stop');
      return exited;
    },
  };
}
