/**
 * `npm start` runs the server compiled by scripts/server-build.mjs (the process tests in this folder
 * start it that way). Here: when it is rebuilt, and that the build is what it is meant to be.
 */
import { readFileSync, statSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { buildServer, SERVER_OUT, serverBuildIsStale } from '../../../scripts/server-build.mjs';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

describe('the compiled server', () => {
  it('is stale while any server, engine or shared source is newer than it, and not after', async () => {
    await buildServer();
    expect(serverBuildIsStale()).toBe(false);
    const built = statSync(join(SERVER_OUT, 'main.js')).mtimeMs;
    for (const source of [
      'src/engine/types.ts',
      'src/shared/protocol.ts',
      'src/server/store/sqlite-writer.ts',
    ]) {
      const path = join(ROOT, source);
      const { atime, mtime } = statSync(path);
      try {
        utimesSync(path, atime, new Date(built + 60_000));
        expect(serverBuildIsStale(), source).toBe(true);
      } finally {
        utimesSync(path, atime, mtime);
      }
      expect(serverBuildIsStale(), source).toBe(false);
    }
  });

  it('has the server and its writer thread as plain modules: packages imported, no keepNames wrappers', async () => {
    await buildServer();
    const main = readFileSync(join(SERVER_OUT, 'main.js'), 'utf8');
    const writer = readFileSync(join(SERVER_OUT, 'sqlite-writer.js'), 'utf8');
    // Packages stay in node_modules (one copy, as the tests and tsx load them).
    expect(main).toMatch(/^import .* from "socket\.io";$/m);
    expect(writer).toMatch(/^import .* from "better-sqlite3";$/m);
    // esbuild's keepNames helper (what tsx compiles with): a property dictionary per named closure.
    expect(main).not.toContain('__name(');
    expect(writer).not.toContain('__name(');
    // The store starts the writer from the compiled sibling, not through the tsx boot script.
    expect(main).toContain('new URL("./sqlite-writer.js", import.meta.url)');
  });
});
