/**
 * A full disk under the SQLite store, on a real small filesystem: a 8 MB tmpfs mounted for this file
 * (root only), filled up by a filler file as the host's laptop fills up, and freed again by deleting it.
 * Servers run as `npm start` runs them (`src/server/main.ts` in a process of its own, the rooms on the
 * room thread). What must hold:
 *
 * - While the disk is full the server stays up; a command answers exactly 'Something went wrong' and
 *   changes nothing; a read that needs the writer thread (a `resume` of a room with a pending write,
 *   `/api/stats`) fails at once instead of hanging, and so does not hold its room's queue.
 * - Nothing acknowledged is lost: after a SIGKILL on the full disk the journal has no torn end, and
 *   the next start (once there is room) replays it; every acknowledged command is stored at its
 *   version, no refused one is.
 * - Once the disk has room again the same process takes commands again, and its writer thread applies
 *   the journal (no restart).
 * - A start on a full disk stops with one line naming DATA_DIR and what to do (the lock, the database
 *   or the journal's replay cannot be written); it leaves nothing that breaks the next start. The
 *   session-secret file is never left empty.
 *
 * Without a way to mount the filesystem (not root, no tmpfs) the suite is skipped with a message,
 * or fails when CI is set.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import {
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmdirSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { ConfigError, readOrCreateSecretFile, SESSION_SECRET_FILE } from '../config';
import { freePort } from '../free-port';
import { sleep, TestClient } from '../test-helpers';
import { startRoomThread } from '../thread-rooms';
import { journalFileName, journalGens, readJournal } from './sqlite-journal';
import { createSqliteStore } from './sqlite-store';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const SWW = { ok: false, error: 'Something went wrong' };

/** Mounts a small tmpfs; null (and why) when this machine does not let us. */
function mountSmallDisk(): { dir: string } | { why: string } {
  const dir = mkdtempSync(join(tmpdir(), 'chipless-disk-full-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=8m,mode=0700', 'tmpfs', dir], { stdio: 'pipe' });
    return { dir };
  } catch (err) {
    rmdirSync(dir);
    const stderr = (err as { stderr?: Buffer }).stderr?.toString().trim();
    return { why: stderr || (err instanceof Error ? err.message : String(err)) };
  }
}

const disk = mountSmallDisk();
if ('why' in disk) {
  if (process.env.CI) throw new Error(`disk-full: cannot mount a small tmpfs (${disk.why})`);
  console.warn(`[disk-full] SKIPPED: cannot mount a small tmpfs here (${disk.why}); run as root`);
}
const MOUNT = 'dir' in disk ? disk.dir : '';
const FILLER = join(MOUNT, 'filler');

let unmounted = false;
function unmount(): void {
  if (!MOUNT || unmounted) return;
  unmounted = true;
  try {
    execFileSync('umount', [MOUNT], { stdio: 'pipe' });
  } catch {
    // Still busy (a child not reaped yet): detach it now, the kernel frees it when the last user goes.
    execFileSync('umount', ['-l', MOUNT], { stdio: 'pipe' });
  }
  rmdirSync(MOUNT);
}
// Never leave the mount behind, even when the worker ends without afterAll.
process.once('exit', unmount);

/** Fills the disk to its last byte. */
function fillDisk(): void {
  const fd = openSync(FILLER, 'a');
  try {
    for (const chunk of [Buffer.alloc(256 * 1024, 1), Buffer.alloc(4096, 1), Buffer.alloc(1, 1)]) {
      try {
        for (;;) writeSync(fd, chunk);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
      }
    }
  } finally {
    closeSync(fd);
  }
}
const freeDisk = () => rmSync(FILLER, { force: true });

const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  freeDisk();
});
afterAll(async () => {
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  await sleep(100);
  unmount();
});

/** `src/server/main.ts` on `dataDir`, as `npm start` runs it (the room thread on). */
function spawnServer(dataDir: string, port: number, env: Record<string, string> = {}) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      SKIP_WEB_BUILD: '1',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      SESSION_SECRET: '',
      COMMAND_RATE_PER_SEC: '10000',
      COMMAND_BURST: '10000',
      JOIN_RATE_PER_MIN: '1000',
      JOIN_RATE_PER_IP_PER_MIN: '1000',
      ...env,
      DATA_DIR: dataDir,
      PORT: String(port),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (b: Buffer) => {
    stdout += b.toString();
  });
  child.stderr?.on('data', (b: Buffer) => {
    stderr += b.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, exited, stdout: () => stdout, stderr: () => stderr };
}

/** Starts a server and waits until it answers /healthz. */
async function launch(dataDir: string) {
  const port = await freePort();
  const server = spawnServer(dataDir, port);
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${url}/healthz`)).ok) break;
    } catch {
      // not yet
    }
    if (i > 200 || server.child.exitCode !== null)
      throw new Error(`server did not start:\n${server.stdout()}${server.stderr()}`);
    await sleep(50);
  }
  return { ...server, url };
}

/** Starts a server that must not start: its exit code and what it wrote to stderr. */
async function failedStart(dataDir: string, env: Record<string, string> = {}) {
  const server = spawnServer(dataDir, await freePort(), env);
  return [await server.exited, server.stderr()] as const;
}

/** Status and body of GET `path`, or 'no answer' after 2 s. */
async function get(url: string, path: string): Promise<[number, unknown] | 'no answer'> {
  try {
    const res = await fetch(`${url}${path}`, { signal: AbortSignal.timeout(2000) });
    return [res.status, await res.json()];
  } catch {
    return 'no answer';
  }
}

/** A host streaming settings changes into its room, each with a smallBlind of its own. */
class Host {
  /** Every answer, in order: the version acknowledged, or the error. */
  readonly answers: Array<{
    commandId: string;
    smallBlind: number;
    ok: boolean;
    version?: number;
    error?: string;
  }> = [];
  private next = 1;
  code = '';

  constructor(public client: TestClient) {}

  async send(): Promise<void> {
    const smallBlind = this.next++;
    const commandId = randomUUID();
    const res = await this.client
      .command(this.code, { type: 'updateSettings', smallBlind, bigBlind: 5000 }, commandId)
      .catch((err: Error) => ({ ok: false as const, error: `no answer: ${err.message}` }));
    this.answers.push(
      res.ok
        ? { commandId, smallBlind, ok: true, version: res.data.version }
        : { commandId, smallBlind, ok: false, error: res.error },
    );
  }

  /** Sends until `stop()`, one command at a time. */
  async stream(stop: () => boolean): Promise<void> {
    while (!stop()) {
      await this.send();
      await sleep(1);
    }
  }

  get acked() {
    return this.answers.filter((a) => a.ok);
  }
  get lastAcked() {
    return this.acked[this.acked.length - 1]!;
  }
  /** How many of the last answers were refusals. */
  get failingFor(): number {
    let n = 0;
    for (let i = this.answers.length - 1; i >= 0 && !this.answers[i]!.ok; i--) n++;
    return n;
  }
}

async function until(what: string, check: () => boolean, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(5);
  }
}

describe.skipIf(!MOUNT)('SQLite store on a disk that fills up (real 8 MB tmpfs)', () => {
  it('streaming phones: refused cleanly while full, working again once freed, and after a SIGKILL on the full disk every acknowledged command is there', async () => {
    const dataDir = join(MOUNT, 'stream');
    mkdirSync(dataDir);
    const server = await launch(dataDir);
    const hosts: Host[] = [];
    for (const name of ['Hana', 'Ines']) {
      const host = new Host(await TestClient.connect(server.url));
      const created = await host.client.createRoom(name, 5000);
      if (!created.ok) throw new Error(created.error);
      host.code = created.data.room.roomCode;
      hosts.push(host);
    }

    // 1. The disk fills while both phones stream. /api/stats first makes the writer thread apply
    //    everything and start its 5 s wait again, so the commands acknowledged while the filler grows
    //    are still only in the journal when the disk is full (the writer cannot apply them then).
    let stop = false;
    const streams = hosts.map((h) => h.stream(() => stop));
    await until('30 acks each', () => hosts.every((h) => h.acked.length >= 30));
    expect(await get(server.url, '/api/stats')).toEqual([200, { totalHandsDealt: 0 }]);
    for (const h of hosts) {
      await h.send();
      expect(h.answers[h.answers.length - 1]).toMatchObject({ ok: true });
    }
    fillDisk();
    await until('10 refusals in a row each', () => hosts.every((h) => h.failingFor >= 10));
    for (const h of hosts) for (const a of h.answers) if (!a.ok) expect(a.error).toBe(SWW.error);

    // While full: the process is up; what needs the writer fails at once rather than hanging, and
    // leaves the room's queue free (the host's next command answers too).
    expect(server.child.exitCode).toBeNull();
    expect(await get(server.url, '/healthz')).toEqual([200, { ok: true }]);
    expect(await get(server.url, '/api/stats')).toEqual([503, { error: 'Stats unavailable' }]);
    const phone = await TestClient.connect(server.url, { token: hosts[0]!.client.token });
    expect(await phone.resume(hosts[0]!.code).catch((e: Error) => e.message)).toEqual(SWW);
    phone.close();
    stop = true;
    await Promise.all(streams);
    for (const h of hosts) {
      await h.send();
      expect(h.answers[h.answers.length - 1]).toMatchObject(SWW);
    }

    // 2. Space again: the same process acknowledges the next versions, and its writer applies the
    //    journal (stats read through it; the resume reads the database).
    freeDisk();
    for (const h of hosts) {
      const before = h.lastAcked.version!;
      for (let i = 0; i < 5; i++) await h.send();
      expect(h.answers.slice(-5).map((a) => a.version)).toEqual([1, 2, 3, 4, 5].map((i) => before + i));
    }
    expect(await get(server.url, '/api/stats')).toEqual([200, { totalHandsDealt: 0 }]);
    const back = await TestClient.connect(server.url, { token: hosts[1]!.client.token });
    const resumed = await back.resume(hosts[1]!.code);
    expect(resumed.ok && resumed.data.version).toBe(hosts[1]!.lastAcked.version);
    back.close();

    // 3. Full again, a few more refusals, then the process is killed on the full disk.
    fillDisk();
    for (const h of hosts) for (let i = 0; i < 30 && h.failingFor < 5; i++) await h.send();
    for (const h of hosts) expect(h.failingFor).toBe(5);
    server.child.kill('SIGKILL');
    await server.exited;
    for (const h of hosts) h.client.close();

    // The journal ends with whole records (a failed append is cut off), and a start while the disk
    // is still full says so in one line and changes nothing.
    const journals = () =>
      journalGens(readdirSync(dataDir)).map((g) => readFileSync(join(dataDir, journalFileName(g))));
    const left = journals();
    expect(left.length).toBeGreaterThan(0);
    for (const g of journalGens(readdirSync(dataDir)))
      expect(readJournal(join(dataDir, journalFileName(g))).droppedBytes).toBe(0);
    expect(await failedStart(dataDir)).toEqual([
      1,
      `SQLite store: the disk of ${dataDir} is full (database or disk is full). Free some space on it, then start again.\n`,
    ]);
    expect(journals()).toEqual(left);

    // 4. Freed: the next start replays the journal; every room is at its last acknowledged version,
    //    with that command's settings, and play goes on.
    freeDisk();
    const again = await launch(dataDir);
    for (const h of hosts) {
      const client = await TestClient.connect(again.url, { token: h.client.token });
      const snap = await client.resume(h.code);
      expect(snap.ok && [snap.data.version, snap.data.room.settings.smallBlind]).toEqual([
        h.lastAcked.version,
        h.lastAcked.smallBlind,
      ]);
      h.client = client;
      await h.send();
      expect(h.answers[h.answers.length - 1]).toMatchObject({ ok: true, version: h.acked.length + 1 });
      client.close();
    }
    again.child.kill('SIGTERM');
    expect(await again.exited).toBe(0);

    // The stored chain of command ids: every acknowledged one at its version, no refused one.
    const store = createSqliteStore({ dataDir });
    try {
      for (const h of hosts) {
        const stored = await store.load(h.code);
        expect(stored!.version).toBe(h.lastAcked.version);
        const applied = new Map(stored!.appliedCommands.map((c) => [c.commandId, c.version]));
        expect(h.acked.filter((a) => applied.get(a.commandId) !== a.version)).toEqual([]);
        expect(h.answers.filter((a) => !a.ok && applied.has(a.commandId))).toEqual([]);
        expect(h.answers.filter((a) => !a.ok).length).toBeGreaterThanOrEqual(16);
      }
    } finally {
      await store.close();
    }
  }, 30_000);

  it('a start on a full disk stops with one line naming DATA_DIR; once freed the next start works', async () => {
    const dataDir = join(MOUNT, 'fresh');
    mkdirSync(dataDir);
    fillDisk();
    const line = `SQLite store: the disk of ${dataDir} is full (database or disk is full). Free some space on it, then start again.\n`;
    expect(await failedStart(dataDir)).toEqual([1, line]);
    expect(await failedStart(dataDir, { ROOM_THREAD: 'false' })).toEqual([1, line]);
    // No secret was written (the store opens first), and what the lock left does not stop the next start.
    expect(existsSync(join(dataDir, SESSION_SECRET_FILE))).toBe(false);
    expect(journalGens(readdirSync(dataDir))).toEqual([]);

    freeDisk();
    const server = await launch(dataDir);
    const host = await TestClient.connect(server.url);
    const created = await host.createRoom('Hana', 5000);
    expect(created.ok && created.data.version).toBe(1);
    host.close();
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    expect(readFileSync(join(dataDir, SESSION_SECRET_FILE), 'utf8')).toMatch(/^[A-Za-z0-9_-]{43}\n$/);
  });

  it('the room thread reports a full disk by name and message, every time (no "[object Object]")', async () => {
    const dataDir = join(MOUNT, 'thread');
    mkdirSync(dataDir);
    fillDisk();
    for (let i = 0; i < 8; i++) {
      const err = await startRoomThread({ dataDir, logLevel: 'silent' }).then(
        () => new Error('started'),
        (e: unknown) => e as Error,
      );
      expect([err.name, err.message]).toEqual([
        'DataDirFullError',
        `SQLite store: the disk of ${dataDir} is full (database or disk is full). Free some space on it, then start again.`,
      ]);
    }
  });

  it('the session secret is never left empty by a full disk: a clear error, and the next start makes it', () => {
    const dataDir = join(MOUNT, 'secret');
    mkdirSync(dataDir);
    fillDisk();
    const file = join(dataDir, SESSION_SECRET_FILE);
    let thrown: unknown;
    try {
      readOrCreateSecretFile(dataDir);
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(ConfigError);
    expect((thrown as Error).message).toBe(
      `The disk of ${dataDir} is full: ${file} could not be written. Free some space on it, or set SESSION_SECRET, then start again.`,
    );
    expect(existsSync(file)).toBe(false);

    freeDisk();
    const secret = readOrCreateSecretFile(dataDir);
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(readOrCreateSecretFile(dataDir)).toBe(secret);
  });
});
