// Starts the SQLite store's writer thread (sqlite-writer.ts). A worker thread does not inherit the
// TypeScript loader of the thread that made it (tsx when the server runs, Vitest's in tests), so it
// registers tsx for itself, then loads the writer. Plain JavaScript, so it needs no loader to run.
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData.module);
