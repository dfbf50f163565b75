/**
 * `npm start` runs the server compiled by scripts/server-build.mjs (the process tests in this folder
 * start it that way). Here: when it is rebuilt, and that the build is what it is meant to be.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  buildServer,
  removeOldChunks,
  SERVER_OUT,
  serverBuildIsStale,
} from '../../../scripts/server-build.mjs';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

describe('the compiled server', () => {
  it("removes earlier builds' chunks older than a minute, and passes over one another build removed first (regression)", () => {
    const dir = mkdtempSync(join(tmpdir(), 'chipless-chunks-'));
    try {
      const now = Date.now();
      const file = (name: string, ageMs: number) => {
        writeFileSync(join(dir, name), '');
        const at = (now - ageMs) / 1000;
        utimesSync(join(dir, name), at, at);
      };
      file('main.js', 120_000);
      file('chunk-AAAAAAAA.js', 120_000);
      file('chunk-AAAAAAAA.js.map', 120_000);
      file('chunk-BBBBBBBB.js', 30_000);
      file('chunk-CCCCCCCC.js', 120_000);
      // chunk-DDDDDDDD.js was listed, then removed by a build running at the same time.
      const names = [...readdirSync(dir), 'chunk-DDDDDDDD.js'];
      removeOldChunks(dir, names, new Set([join(dir, 'chunk-CCCCCCCC.js')]), now);
      expect(readdirSync(dir).sort()).toEqual(['chunk-BBBBBBBB.js', 'chunk-CCCCCCCC.js', 'main.js']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('is stale while any server, engine or shared source differs from what it was built from, newer or older, and not after', async () => {
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
        // Older than the build (a release unpacked with its files' times kept): stale too (session 36).
        utimesSync(path, atime, new Date(built - 3_600_000));
        expect(serverBuildIsStale(), `${source}, older`).toBe(true);
      } finally {
        utimesSync(path, atime, mtime);
      }
      expect(serverBuildIsStale(), source).toBe(false);
    }
  });

  it('has the server and its threads as plain modules: packages imported, no keepNames wrappers', async () => {
    await buildServer();
    const read = (name: string) => readFileSync(join(SERVER_OUT, name), 'utf8');
    const main = read('main.js');
    const roomThread = read('room-thread.js');
    const writer = read('sqlite-writer.js');
    // The chunks the entries share, and those loaded with import() (the Redis modules), beside them.
    const chunks = readdirSync(SERVER_OUT).filter((name) => /-[A-Z0-9]{8}\.js$/.test(name));
    const code = [main, roomThread, writer, ...chunks.map(read)];
    // Packages stay in node_modules (one copy, as the tests and tsx load them).
    expect(main).toMatch(/^import .* from "socket\.io";$/m);
    expect(writer).toMatch(/^import .* from "better-sqlite3";$/m);
    // esbuild's keepNames helper (what tsx compiles with): a property dictionary per named closure.
    for (const text of code) expect(text).not.toContain('__name(');
    // The store starts the writer from the compiled sibling, not through the tsx boot script, and
    // main.ts the room thread.
    expect(
      code.filter((text) => text.includes('new URL("./sqlite-writer.js", import.meta.url)')),
    ).toHaveLength(1);
    expect(main).toContain('new URL("./room-thread.js", import.meta.url)');
    // The Redis client and adapter are loaded only in Redis mode: from chunks of their own, by import().
    const redisChunks = chunks.filter((name) => /^redis-(store|adapter)-/.test(name));
    expect(redisChunks).toHaveLength(2);
    for (const name of redisChunks) expect(main).toContain(`import("./${name}")`);
    const importsRedis = (text: string) =>
      /^import .* from "(redis|@socket\.io\/redis-adapter)";$/m.test(text);
    expect([main, roomThread, writer].some(importsRedis)).toBe(false);
    // What the entries import statically, chunk by chunk, never reaches a Redis package.
    const staticImports = (text: string) =>
      [...text.matchAll(/^import .*"\.\/(.+\.js)";$|^} from "\.\/(.+\.js)";$/gm)].map((m) => m[1] ?? m[2]!);
    const reached = new Set<string>();
    const visit = (text: string) => {
      for (const name of staticImports(text)) {
        if (reached.has(name)) continue;
        reached.add(name);
        visit(read(name));
      }
    };
    for (const entry of [main, roomThread, writer]) visit(entry);
    expect(reached.size).toBeGreaterThan(0);
    for (const name of reached)
      expect({ name, redis: importsRedis(read(name)) }).toEqual({ name, redis: false });
  });
});
