// The server as plain JavaScript: `npm start` runs what this builds, not the TypeScript sources
// through tsx. A production process then has no loader thread and no esbuild `keepNames` wrapper
// on every named function (tsx compiles with it; each wrapped closure costs a property dictionary).
// esbuild bundles the server's own modules into dist/server/ (three entries: the server, the room thread and
// the SQLite writer thread, with the code they share and what they load with import() in chunks beside them) and
// leaves every package in node_modules as an import. Not minified, so stack traces
// name the functions; a linked source map is written next to each file for reading by hand.
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { readStamp, sourceStamp, writeStamp } from './source-stamp.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** Where the compiled server lands: two levels below the repo, as src/server is, so paths made from
 * `import.meta.url` (the web build in dist/web, the repo root) resolve the same from either. */
export const SERVER_OUT = join(ROOT, 'dist', 'server');
/** The sources the server is built from (the web app's are not part of it). */
const SOURCE_FOLDERS = ['src/server', 'src/engine', 'src/shared'].map((dir) => join(ROOT, dir));
const SOURCE_DIRS = [...SOURCE_FOLDERS, join(ROOT, 'scripts/source-stamp.mjs')];

/** esbuild options shared by the server build and the benchmark's floor server (bench/load.ts). */
export const NODE_BUNDLE = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: 'linked',
  logLevel: 'warning',
};

/** A chunk's file name (chunkNames below: the module's name and esbuild's hash), or its map's. */
const CHUNK = /-[A-Z0-9]{8}\.js(\.map)?$/;
/** The stamp of the sources the build in dist/server was made from (source-stamp.mjs). */
const STAMP = join(SERVER_OUT, 'sources.txt');
const ENTRIES = ['main.js', 'sqlite-writer.js', 'room-thread.js'];

/**
 * Whether dist/server is missing, or was made from other sources than the server, engine and shared
 * sources here now: any file added, removed, resized or with another modification time, older too
 * (source-stamp.mjs). A copy without the sources runs what it has.
 */
export function serverBuildIsStale() {
  if (!ENTRIES.every((name) => existsSync(join(SERVER_OUT, name)))) return true;
  // scripts/ comes with any copy that can run `npm start`: only the source folders tell.
  if (!SOURCE_FOLDERS.some((dir) => existsSync(dir))) return false;
  return sourceStamp(SOURCE_DIRS) !== readStamp(STAMP);
}

/**
 * Builds dist/server/main.js, dist/server/room-thread.js (the room thread, thread-rooms.ts) and
 * dist/server/sqlite-writer.js. Each file is written under a name of
 * this process's and renamed into place, so a server starting while another process builds never
 * loads a half-written file (two builds of the same sources write the same bytes).
 */
export async function buildServer() {
  mkdirSync(SERVER_OUT, { recursive: true });
  // Taken before the build: a source saved while it runs leaves the build stale, as it is.
  const stamp = sourceStamp(SOURCE_DIRS);
  const result = await build({
    ...NODE_BUNDLE,
    entryPoints: {
      main: join(ROOT, 'src/server/main.ts'),
      'room-thread': join(ROOT, 'src/server/room-thread.ts'),
      'sqlite-writer': join(ROOT, 'src/server/store/sqlite-writer.ts'),
    },
    outdir: SERVER_OUT,
    // Modules imported with import() (the Redis store and adapter) go to chunks of their own, loaded
    // only when a process asks for them: an SQLite server and its room thread never load the Redis
    // client. Modules both entries share go to chunks too. Chunks sit beside the entries, so a path
    // made from `import.meta.url` (the worker threads' scripts) resolves the same from either.
    splitting: true,
    chunkNames: '[name]-[hash]',
    write: false,
  });
  // Maps first, then the chunks, then the entries, so a file in place always has its map and the
  // chunks it imports.
  const rank = (path) => (path.endsWith('.map') ? 0 : CHUNK.test(path) ? 1 : 2);
  const files = [...result.outputFiles].sort((a, b) => rank(a.path) - rank(b.path));
  for (const file of files) {
    const temporary = `${file.path}.${process.pid}.tmp`;
    writeFileSync(temporary, file.contents);
    renameSync(temporary, file.path);
  }
  writeStamp(STAMP, stamp);
  removeOldChunks(SERVER_OUT, readdirSync(SERVER_OUT), new Set(files.map((file) => file.path)), Date.now());
}

/**
 * Removes chunks of earlier builds (their names hold their hashes) among `names` in `dir`, but those
 * this build `written` and any younger than a minute, in case a server started from the build before
 * is still loading it. A chunk already gone is passed over: two servers starting at once after a change
 * both build, and one removed an old chunk the other had just listed (a start failed with ENOENT in a
 * test run of session 37).
 */
export function removeOldChunks(dir, names, written, now) {
  for (const name of names) {
    const path = join(dir, name);
    if (!CHUNK.test(name) || written.has(path)) continue;
    const stats = statSync(path, { throwIfNoEntry: false });
    if (stats && now - stats.mtimeMs > 60_000) rmSync(path, { force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await buildServer();
