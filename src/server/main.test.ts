/**
 * Process-level: `src/server/main.ts` as `npm start` runs it. Starts on a free port, logs JSON with the
 * URL and never a token, and on SIGTERM finishes what it acknowledged, closes the store and exits 0.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { type AddressInfo, createServer as createNetServer } from 'node:net';
import { getPriority, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort } from './free-port';
import { hasRedisServer, PrivateRedis } from './scale-out/private-redis';
import { deleteKeysWithPrefix, REDIS_URL, redisGate, uniqueKeyPrefix } from './scale-out/redis-available';
import { durabilityWarnings } from './store/redis-durability';
import { createSqliteStore } from './store/sqlite-store';
import { okData, sleep, TestClient, threadNices } from './test-helpers';

const gate = await redisGate('main.ts helper threads');
const hasServer = hasRedisServer();
if (!hasServer) console.warn('[main.ts] Redis durability warnings SKIPPED: no redis-server binary on PATH');
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const children: ChildProcess[] = [];
const dirs: string[] = [];

afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null) c.kill('SIGKILL');
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function launch(env: Record<string, string>) {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      SKIP_WEB_BUILD: '1',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      ...env,
      PORT: String(port),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let output = '';
  child.stdout?.on('data', (b: Buffer) => {
    output += b.toString();
  });
  child.stderr?.on('data', (b: Buffer) => {
    output += b.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${url}/healthz`)).ok) break;
    } catch {
      // not yet
    }
    if (i > 200 || child.exitCode !== null) throw new Error(`server did not start:\n${output}`);
    await sleep(100);
  }
  return { url, child, exited, output: () => output };
}

/** The JSON log lines of a server's output (its other lines, such as npm's, left out). */
function logLines(output: string): { level: number; msg: string; [field: string]: unknown }[] {
  return output
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as { level: number; msg: string; [field: string]: unknown });
}

/** main.ts with `env` (a fresh DATA_DIR unless given) when it is expected not to start: its exit code and stderr. */
async function startFailing(
  env: Record<string, string>,
  nodeArgs: string[] = [],
): Promise<[number | null, string]> {
  const dataDir = env.DATA_DIR ?? mkdtempSync(join(tmpdir(), 'chipless-main-'));
  dirs.push(dataDir);
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', 'src/server/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, SKIP_WEB_BUILD: '1', LOG_LEVEL: 'warn', ...env, DATA_DIR: dataDir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let err = '';
  child.stderr?.on('data', (b: Buffer) => {
    err += b.toString();
  });
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  return [code, err];
}

describe('main.ts', () => {
  it('serves, logs JSON without tokens, and stops gracefully on SIGTERM with every ack committed', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'chipless-main-'));
    dirs.push(dataDir);
    const server = await launch({ DATA_DIR: dataDir, COMMAND_RATE_PER_SEC: '1000', COMMAND_BURST: '1000' });
    const host = await TestClient.connect(server.url);
    const code = okData(await host.createRoom('Hana', 5000)).room.roomCode;

    const acked: number[] = [];
    const stream = (async () => {
      for (let i = 1; i <= 1000; i++) {
        const res = await host
          .command(code, { type: 'updateSettings', smallBlind: i, bigBlind: 5000 })
          .catch(() => null);
        if (!res?.ok) return;
        acked.push(res.data.version);
      }
    })();
    while (acked.length < 10) await sleep(5);
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    await stream;
    host.close();

    const lines = logLines(server.output());
    const listening = lines.find((l) => l.msg === 'Chipless is listening');
    expect(listening?.url).toBe(server.url);
    // What an operator checks first, the secret never.
    expect(listening).toMatchObject({
      version: JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version,
      store: 'sqlite',
      secretFrom: 'DATA_DIR',
      trustProxy: false,
      publicUrl: null,
      roomIdleMs: expect.any(Number),
      playingIdleMs: expect.any(Number),
    });
    expect(server.output()).not.toContain(readFileSync(join(dataDir, 'session-secret'), 'utf8').trim());
    const commands = lines.filter((l) => l.msg === 'command');
    expect(commands.length).toBeGreaterThanOrEqual(acked.length);
    expect(commands[0]).toMatchObject({ room: code, actor: host.playerId, type: 'createRoom', ok: true });
    expect(typeof commands[0]?.ms).toBe('number');
    expect(lines.some((l) => l.msg === 'stopped')).toBe(true);
    expect(server.output()).not.toContain(host.token.split('.')[1]);

    const store = createSqliteStore({ dataDir });
    try {
      const stored = await store.load(code);
      expect(stored!.version).toBeGreaterThanOrEqual(Math.max(...acked));
      expect(stored!.room.settings.smallBlind).toBe(stored!.version - 1);
    } finally {
      await store.close();
    }
  });

  it('logs a generated session secret, and as an error when the rooms it signed tokens for stay', async () => {
    const start = async (dataDir: string, makeRoom = false) => {
      const server = await launch({ DATA_DIR: dataDir, SESSION_SECRET: '' });
      if (makeRoom) {
        const host = await TestClient.connect(server.url);
        okData(await host.createRoom('Hana', 5000));
        host.close();
      }
      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(0);
      const lines = logLines(server.output());
      // The absolute DATA_DIR, for an operator to see which directory a start used.
      expect(lines.find((l) => l.msg === 'Chipless is listening')?.dataDir).toBe(dataDir);
      return lines.filter((l) => l.msg.includes('session secret')).map((l) => [l.level, l.msg]);
    };
    const dataDir = mkdtempSync(join(tmpdir(), 'chipless-main-'));
    dirs.push(dataDir);
    const file = join(dataDir, 'session-secret');
    // A first start: no rooms yet, so no error.
    expect(await start(dataDir, true)).toEqual([[30, `generated a new session secret at ${file}`]]);
    expect(await start(dataDir)).toEqual([]);
    rmSync(file);
    const lost = await start(dataDir);
    expect(lost.map(([level]) => level)).toEqual([30, 50]);
    expect(lost[1]?.[1]).toContain('can no longer resume their seats');

    // A database without rooms (a first start that failed on a full disk left one, and no secret): a
    // new secret then loses nothing, and no error says it does (session 36's review).
    const empty = mkdtempSync(join(tmpdir(), 'chipless-main-'));
    dirs.push(empty);
    expect((await start(empty)).map(([level]) => level)).toEqual([30]);
    rmSync(join(empty, 'session-secret'));
    expect((await start(empty)).map(([level]) => level)).toEqual([30]);
  }, 90_000);

  it("warns once when X-Forwarded-For arrives while TRUST_PROXY is off (phones would share the proxy's limits)", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'chipless-main-'));
    dirs.push(dataDir);
    const server = await launch({ DATA_DIR: dataDir, TRUST_PROXY: '' });
    const visit = (headers: Record<string, string>) =>
      fetch(`${server.url}/api/analytics/visit`, {
        method: 'POST',
        headers: { 'Content-Type': 'text/plain', ...headers },
        body: JSON.stringify({ sessionId: 's1', newSession: false }),
      });
    expect((await visit({})).status).toBe(204);
    expect((await visit({ 'X-Forwarded-For': '203.0.113.7' })).status).toBe(204);
    expect((await visit({ 'X-Forwarded-For': '203.0.113.8' })).status).toBe(204);
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    const warnings = logLines(server.output()).filter((l) => l.msg.includes('X-Forwarded-For'));
    expect(warnings.map((l) => l.level)).toEqual([40]);
    expect(warnings[0]?.msg).toContain('set TRUST_PROXY=true');
  }, 30_000);

  it.skipIf(!hasServer)(
    'with Redis, warns at start of a Redis that would lose rooms (redis-durability.ts)',
    async () => {
      const redisWarnings = async (redis: PrivateRedis, env: Record<string, string>) => {
        const server = await launch({ STORE: 'redis', REDIS_URL: redis.url, SESSION_SECRET: '', ...env });
        server.child.kill('SIGTERM');
        expect(await server.exited).toBe(0);
        return logLines(server.output())
          .filter((l) => l.msg.startsWith('Redis '))
          .map((l) => [l.level, l.msg]);
      };
      const inMemory = new PrivateRedis(['--save', '', '--appendonly', 'no']);
      const appendOnly = new PrivateRedis(['--save', '', '--appendonly', 'yes']);
      try {
        await inMemory.start();
        await appendOnly.start();
        const memoryOnly = { appendonly: 'no', save: '', maxmemory: '0', 'maxmemory-policy': 'noeviction' };
        const WARN = 40;
        expect(await redisWarnings(inMemory, {})).toEqual(
          durabilityWarnings(memoryOnly, true).map((w) => [WARN, w]),
        );
        expect(durabilityWarnings(memoryOnly, true)).toHaveLength(1);
        expect(await redisWarnings(inMemory, { SESSION_SECRET: 'a-secret-of-32-characters-------' })).toEqual(
          durabilityWarnings(memoryOnly, false).map((w) => [WARN, w]),
        );
        expect(await redisWarnings(appendOnly, {})).toEqual([]);
      } finally {
        await Promise.all([inMemory.dispose(), appendOnly.dispose()]);
      }
    },
    60_000,
  );

  it('exits 1 with a clear message, no stack, when its port or DATA_DIR is taken or HOST is not an address here', async () => {
    const taken = createNetServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as AddressInfo).port;
    try {
      expect(await startFailing({ HOST: '127.0.0.1', PORT: String(port) })).toEqual([
        1,
        `Port ${port} is already in use (127.0.0.1, port ${port}): another Chipless or another program listens there. Stop it, or set PORT to a free port.\n`,
      ]);
    } finally {
      taken.close();
    }
    expect(await startFailing({ HOST: '192.0.2.254', PORT: '0' })).toEqual([
      1,
      'HOST 192.0.2.254 is not an address of this machine: set HOST to one of its addresses.\n',
    ]);
    const dataDir = mkdtempSync(join(tmpdir(), 'chipless-main-'));
    const first = await launch({ DATA_DIR: dataDir });
    for (const ROOM_THREAD of ['true', 'false']) {
      expect(await startFailing({ HOST: '127.0.0.1', PORT: '0', DATA_DIR: dataDir, ROOM_THREAD })).toEqual([
        1,
        `SQLite store: ${dataDir} is in use by another Chipless server. One server process per DATA_DIR; to run several processes, use STORE=redis.\n`,
      ]);
    }
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
  });

  it('a DATA_DIR that cannot hold the database, or a file that is not one: one line naming the file', async () => {
    const notADir = join(mkdtempSync(join(tmpdir(), 'chipless-main-')), 'file');
    dirs.push(dirname(notADir));
    writeFileSync(notADir, 'not a directory');
    const garbage = mkdtempSync(join(tmpdir(), 'chipless-main-'));
    writeFileSync(join(garbage, 'chipless.sqlite'), 'x'.repeat(4096));
    for (const [dataDir, reason] of [
      [notADir, 'EEXIST'],
      [garbage, 'file is not a database'],
    ] as const) {
      for (const ROOM_THREAD of ['true', 'false']) {
        const [code, err] = await startFailing({
          HOST: '127.0.0.1',
          PORT: '0',
          DATA_DIR: dataDir,
          ROOM_THREAD,
        });
        expect(code).toBe(1);
        expect(err.trim().split('\n')).toHaveLength(1);
        expect(err).toContain(`SQLite store: cannot open ${join(dataDir, 'chipless.sqlite')} (`);
        expect(err, `${dataDir} ${ROOM_THREAD}`).toContain(reason);
      }
    }
  });

  it('an error opening the store that is not about the file keeps its own words and stack (a native module built for another Node)', async () => {
    // better-sqlite3 loads its addon when the database opens: after a Node upgrade without
    // `npm rebuild` that fails, and read as "damaged database" it sent operators to move their rooms
    // aside (session 36's review).
    const dir = mkdtempSync(join(tmpdir(), 'chipless-main-'));
    dirs.push(dir);
    const preload = join(dir, 'no-addon.cjs');
    writeFileSync(
      preload,
      `const Module = require('node:module');
const load = Module._load;
Module._load = function (request, ...rest) {
  if (request === 'bindings') return () => { throw new Error('The module better_sqlite3.node was compiled against a different Node.js version. Please try re-compiling or re-installing (npm rebuild).'); };
  return load.call(this, request, ...rest);
};
`,
    );
    const [code, err] = await startFailing({ HOST: '127.0.0.1', PORT: '0', ROOM_THREAD: 'false' }, [
      '--require',
      preload,
    ]);
    expect(code).toBe(1);
    expect(err).toContain('compiled against a different Node.js version');
    expect(err).not.toContain('cannot open');
    expect(err).toContain('Chipless failed to start: Error:');
  });

  it('exits 1 with a clear message on a bad configuration', async () => {
    const [code, err] = await startFailing({ STORE: 'mongo' });
    expect(code).toBe(1);
    expect(err).toContain('Invalid environment: STORE');
  });
});

// With the Redis store: the SQLite store's writer thread lowers itself once it has booted, and under
// tsx (as here) it starts threads of its own (seen: one more thread about a second after the start), so
// which threads exist when main.ts looks, and at what priority, depends on timing. Without it, every
// thread the process has after the start exists from the start.
describe.skipIf(gate.skip)('main.ts helper threads (Redis store)', () => {
  it("runs every thread but the event loop's at the helpers' nice value (10 by default, 0 leaves them)", async () => {
    gate.check();
    const keyPrefix = uniqueKeyPrefix('main-threads');
    const base = getPriority();
    try {
      for (const [env, expected] of [
        [{}, Math.max(base, 10)],
        [{ HELPER_THREADS_NICE: '15' }, Math.max(base, 15)],
        [{ HELPER_THREADS_NICE: '0' }, base],
      ] as const) {
        const server = await launch({ STORE: 'redis', REDIS_URL, REDIS_KEY_PREFIX: keyPrefix, ...env });
        const pid = server.child.pid!;
        const nices = threadNices(pid);
        // V8's platform threads at least, and tsx's loader.
        expect(nices.size).toBeGreaterThanOrEqual(5);
        expect(nices.get(pid)).toBe(base);
        for (const [tid, nice] of nices)
          if (tid !== pid) expect({ tid, nice }).toEqual({ tid, nice: expected });
        const listening = logLines(server.output()).find((l) => l.msg === 'Chipless is listening');
        // The threads main.ts changed: all but the event loop, none when told to leave them.
        expect(listening?.helperThreads).toBe(expected === base ? 0 : nices.size - 1);
        server.child.kill('SIGTERM');
        expect(await server.exited).toBe(0);
      }
    } finally {
      await deleteKeysWithPrefix(keyPrefix);
    }
  });
});
