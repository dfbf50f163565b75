// Starts a worker thread written in TypeScript from the sources (the SQLite store's writer,
// store/sqlite-writer.ts; the room thread, room-thread.ts). A worker thread does not inherit the
// TypeScript loader of the thread that made it (tsx when the server runs from the sources, Vitest's in
// tests), so it registers tsx for itself, then loads the module named in workerData.module. Plain
// JavaScript, so it needs no loader to run. The compiled server starts its workers' built files directly.
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData.module);
