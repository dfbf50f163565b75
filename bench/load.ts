/**
 * `npm run bench`: the load benchmark. Starts the real server as `npm start` does (SQLite in a temp
 * DATA_DIR, and again with STORE=redis when REDIS_URL is set), drives N rooms × 6 socket.io-client bots
 * from separate worker processes, then does the same against a bare rebroadcast server (the floor).
 * Prints a table and writes bench/results/<date>.json. See bench/README.md.
 *
 *   npm run bench -- --quick                  50 rooms, 10 s per target, one round (under a minute)
 *   npm run bench                             1,000 rooms, 3 rounds of 20 s per target, in turns
 *   npm run bench -- --rooms 1000 --duration 60 --rounds 1 --store sqlite
 *   options: --rooms N --duration S --rounds N --warmup S --store sqlite|redis|none --workers W --rate R (commands/room/s)
 *            --seed N --setup-concurrency N --no-floor --floor-redis --floor-redis-save --floor-hop --floor-rooms --cpu-prof (server writes a .cpuprofile to bench/results/prof)
 *            --nice=-N (scheduling priority of the measured processes; see README)
 */
import { type ChildProcess, execFileSync, fork, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  createWriteStream,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';
import { NODE_BUNDLE } from '../scripts/server-build.mjs';
import { freePort } from '../src/server/free-port';
import { deleteKeysWithPrefix } from '../src/server/scale-out/redis-available';
import type { RoomSnapshot } from '../src/shared/protocol';
import { emptyCounts, type FromWorker, type TargetMode, type ToWorker, type WorkerCounts } from './messages';
import { type RoundsSummary, summarizeRounds } from './rounds';
import { type LatencySummary, machineCpuMs, processCpuMs, processMemoryMb, summarize } from './stats';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const { values: args } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    rooms: { type: 'string' },
    duration: { type: 'string' },
    warmup: { type: 'string' },
    store: { type: 'string' },
    workers: { type: 'string' },
    rate: { type: 'string' },
    seed: { type: 'string' },
    'setup-concurrency': { type: 'string' },
    'no-floor': { type: 'boolean', default: false },
    'floor-redis': { type: 'boolean', default: false },
    'floor-redis-save': { type: 'boolean', default: false },
    'floor-hop': { type: 'boolean', default: false },
    'floor-rooms': { type: 'boolean', default: false },
    'cpu-prof': { type: 'boolean', default: false },
    nice: { type: 'string' },
    rounds: { type: 'string' },
  },
  strict: true,
});

const rooms = Number(args.rooms ?? (args.quick ? 50 : 1000));
const params = {
  quick: args.quick ?? false,
  rooms,
  players: 6,
  sockets: rooms * 6,
  durationS: Number(args.duration ?? (args.quick ? 10 : 20)),
  warmupS: Number(args.warmup ?? (args.quick ? 2 : 10)),
  ratePerRoom: Number(args.rate ?? 1),
  workers: Number(args.workers ?? Math.min(4, Math.max(1, Math.ceil(rooms / 500)))),
  setupConcurrency: Number(args['setup-concurrency'] ?? 25),
  seed: Number(args.seed ?? 1),
  stores: (args.store
    ? args.store === 'none'
      ? []
      : [args.store]
    : process.env.REDIS_URL
      ? ['sqlite', 'redis']
      : ['sqlite']) as Array<'sqlite' | 'redis'>,
  floor: !args['no-floor'],
  /**
   * A diagnostic target after the stores in each round: the floor server storing each command's
   * snapshot in Redis with one `SET` before it acks and broadcasts (floor-server.ts). Its ratio to the
   * floor is what one Redis round trip alone costs on this box; it gets no verdict.
   */
  floorRedis: args['floor-redis'] ?? false,
  /**
   * Another diagnostic target: the floor whose Redis write has the shape of the real save (one EVALSHA
   * with the room's JSON and the snapshot event, a script that writes the hash, the TTL and the activity
   * index and PUBLISHes the event back to this process). No verdict.
   */
  floorRedisSave: args['floor-redis-save'] ?? false,
  /**
   * Another diagnostic target: the floor with each command sent to a worker thread and back (the snapshot
   * event's text copied on the way back) before it acks and broadcasts: the hop that rooms on a thread
   * of their own would add to every command. No verdict.
   */
  floorHop: args['floor-hop'] ?? false,
  /**
   * Another diagnostic target: the floor with the real room work (the RoomService, the engine and the
   * SQLite store, a real room for each of the floor's) on a worker thread, whose snapshot text the
   * socket thread acks and broadcasts: a server with its rooms on a thread of their own, less the
   * gateway's checks and presence (floor-rooms-thread.ts). No verdict.
   */
  floorRooms: args['floor-rooms'] ?? false,
  /**
   * Times every target (stores, then the floor) is measured, in turns. This box's speed drifts by tens
   * of percent from one minute to the next (the same code measured 305–390 µs a command); with turns,
   * each ratio to the floor is taken from the same round, and the verdict from the median round.
   */
  rounds: Number(args.rounds ?? (args.quick ? 1 : 3)),
  cpuProf: args['cpu-prof'] ?? false,
  /**
   * Scheduling priority (nice, -20..19) given to the server, floor and load workers. On a shared box a
   * negative value keeps other people's builds from queueing in front of the measured processes;
   * recorded in the results because it changes what the numbers mean. Needs root for values below 0.
   */
  nice: args.nice === undefined ? null : Number(args.nice),
};
for (const [k, v] of Object.entries(params)) {
  if (k !== 'nice' && typeof v === 'number' && !(v > 0)) throw new Error(`--${k} must be a positive number`);
}
if (params.nice !== null && !(Number.isInteger(params.nice) && params.nice >= -20 && params.nice <= 19)) {
  throw new Error('--nice must be an integer from -20 to 19');
}

/** Applies --nice to a process we started (the measured server, the floor, a load worker). */
function prioritise(pid: number | undefined): void {
  if (params.nice === null || pid === undefined) return;
  try {
    os.setPriority(pid, params.nice);
  } catch (err) {
    console.warn(`could not set nice ${params.nice} on ${pid}: ${(err as Error).message}`);
  }
}
for (const s of params.stores) {
  if (s !== 'sqlite' && s !== 'redis') throw new Error(`--store must be sqlite or redis, not ${s}`);
}
if (params.stores.includes('redis') && !process.env.REDIS_URL) {
  throw new Error('--store redis needs REDIS_URL (e.g. redis://127.0.0.1:6379)');
}
if ((params.floorRedis || params.floorRedisSave) && !process.env.REDIS_URL) {
  throw new Error('--floor-redis and --floor-redis-save need REDIS_URL (e.g. redis://127.0.0.1:6379)');
}

/** One measured target: the real server on a store, or the floor. */
interface TargetResult {
  target: 'sqlite' | 'redis' | 'floor' | 'floor-redis' | 'floor-redis-save' | 'floor-hop' | 'floor-rooms';
  /** Which turn of --rounds (1-based). */
  round: number;
  setupMs: number;
  windowMs: number;
  commandsPerSecond: number;
  latencyMs: LatencySummary;
  counts: WorkerCounts;
  /**
   * CPU of the server process over the window: % of one core, and per completed command (µs). The
   * per-command cost barely depends on other load on the machine, so it compares runs on a noisy box.
   */
  server: {
    cpuPercentOfOneCore: number;
    cpuMicrosPerCommand: number;
    rssMbMaxInWindow: number;
    peakRssMb: number;
  };
  generator: { workers: number; cpuPercentOfOneCore: number; loopDelayP99Ms: number; loopDelayMaxMs: number };
  /**
   * CPU used by everything else on the machine during the window (other people's builds and tests on a
   * shared box), in % of one core. Above ~20% the latencies of this run are not trustworthy.
   */
  otherCpuPercentOfOneCore: number;
  /**
   * CPU time the hypervisor gave to other VMs while this one's vCPUs had work (`steal` in /proc/stat),
   * in % of one core. It slows everything here alike, the floor too, but it comes and goes within a
   * run; above ~20% the latencies of this run are not trustworthy. Absent in files written before.
   */
  stealPercentOfOneCore?: number;
  snapshotBytes: number;
  log?: string;
}

function shell(cmd: string): string {
  try {
    return execFileSync('sh', ['-c', cmd], { encoding: 'utf8' }).trim();
  } catch {
    return 'unknown';
  }
}

function machineInfo() {
  const cpus = os.cpus();
  return {
    hostname: os.hostname(),
    cpuModel: cpus[0]?.model ?? 'unknown',
    cpus: cpus.length,
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    kernel: os.release(),
    node: process.version,
    ulimitNoFile: shell('ulimit -n'),
    ulimitNoFileHard: shell('ulimit -Hn'),
    ephemeralPorts: shell('cat /proc/sys/net/ipv4/ip_local_port_range').replace(/\s+/g, '-'),
    somaxconn: shell('cat /proc/sys/net/core/somaxconn'),
    loadAverage: os.loadavg().map((x) => Math.round(x * 100) / 100),
    gitCommit: shell(`git -C ${JSON.stringify(root)} rev-parse --short HEAD`),
    gitDirty: shell(`git -C ${JSON.stringify(root)} status --porcelain src | wc -l`) !== '0',
  };
}

function waitExit(child: ChildProcess, ms: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((r) => {
    const timer = setTimeout(() => r(false), ms);
    child.once('exit', () => {
      clearTimeout(timer);
      r(true);
    });
  });
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  if (!(await waitExit(child, 15_000))) {
    child.kill('SIGKILL');
    await waitExit(child, 5_000);
  }
}

interface Target {
  pid: number;
  url: string;
  stop: () => Promise<void>;
  logFile?: string;
}

/** Extra node flags for the measured server and the floor (BENCH_SERVER_FLAGS, e.g. '--trace-gc'). */
function serverFlags(): string[] {
  return process.env.BENCH_SERVER_FLAGS?.split(' ').filter(Boolean) ?? [];
}

/** Extra node flags for the load workers (BENCH_WORKER_FLAGS). */
function workerFlags(): string[] {
  return process.env.BENCH_WORKER_FLAGS?.split(' ').filter(Boolean) ?? [];
}

/**
 * Where a target's stdout and stderr go: the run's temporary directory (deleted at the end), or
 * BENCH_LOG_DIR when set (kept, one file per target and round: for `--trace-gc-nvp` and the like).
 */
function serverLogFile(tmp: string, name: string): string {
  const dir = process.env.BENCH_LOG_DIR;
  if (!dir) return join(tmp, `${name}.log`);
  mkdirSync(dir, { recursive: true });
  return join(dir, `${name}-${new Date().toISOString().replace(/[:.]/g, '-')}.log`);
}

/**
 * The real server started as `npm start` starts it: `node scripts/start.mjs`, which runs the compiled
 * server (dist/server, rebuilt first when older than its sources) in its own process, so the child pid
 * is the server.
 */
async function startServer(store: 'sqlite' | 'redis', tmp: string): Promise<Target> {
  const port = await freePort();
  const dataDir = join(tmp, `data-${store}`);
  mkdirSync(dataDir, { recursive: true });
  const logFile = serverLogFile(tmp, `server-${store}`);
  const log = createWriteStream(logFile);
  // Each Redis target gets keys of its own, deleted when it stops: as SQLite gets a fresh DATA_DIR. With
  // the default prefix, every run left its 1,000 rooms (~220 MB in Redis) in the user's `chipless:`
  // namespace until their TTL, and later runs measured a Redis still holding (and expiring) them.
  const keyPrefix = `chipless-bench-${randomBytes(6).toString('hex')}:`;
  const execArgv = serverFlags();
  if (params.cpuProf) {
    const profDir = join(here, 'results', 'prof');
    mkdirSync(profDir, { recursive: true });
    // Default file names (CPU.<date>.<pid>.<thread>.cpuprofile): the writer thread writes its own.
    execArgv.push('--cpu-prof', `--cpu-prof-dir=${profDir}`);
  }
  const child = spawn(process.execPath, [...execArgv, join(root, 'scripts/start.mjs')], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      STORE: store,
      ...(store === 'redis' ? { REDIS_KEY_PREFIX: keyPrefix } : {}),
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn',
      SESSION_SECRET: randomBytes(32).toString('hex'),
      NODE_ENV: 'production',
      // The bench needs no web app, and every bot connects from 127.0.0.1: the per-IP join limit
      // (meant for people guessing room codes) would refuse all but the first few hundred joins, and
      // the per-IP connection limits all but the first 300 sockets.
      SKIP_WEB_BUILD: 'true',
      JOIN_RATE_PER_MIN: '1000000',
      JOIN_RATE_PER_IP_PER_MIN: '1000000',
      CONNECTIONS_PER_IP: '0',
      CONNECT_RATE_PER_IP_PER_MIN: '0',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  prioritise(child.pid);
  child.stdout?.pipe(log);
  child.stderr?.pipe(log);
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) {
      throw new Error(`server (${store}) exited with ${child.exitCode}; log:\n${tail(logFile)}`);
    }
    try {
      const res = await fetch(`${url}/healthz`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server (${store}) not healthy within 120 s; log:\n${tail(logFile)}`);
    }
    await sleep(200);
  }
  const stop = async () => {
    await stopChild(child);
    if (store === 'redis') await deleteKeysWithPrefix(keyPrefix, process.env.REDIS_URL);
  };
  return { pid: child.pid!, url, logFile, stop };
}

/**
 * The floor server (bench/floor-server.ts) compiled the way the server is (scripts/server-build.mjs's
 * options) into dist/bench, so neither side runs through a TypeScript loader; broadcasting `snapshot`
 * (or a synthetic one). With `variant`, the diagnostic variants: those that store each command in Redis
 * first (`--floor-redis`, `--floor-redis-save`), under a key prefix of their own deleted on stop, and
 * the one that sends each command to a worker thread and back first (`--floor-hop`), and the one whose
 * thread does the real room work (`--floor-rooms`, with a data directory of its own under `tmp`).
 */
async function startFloor(
  snapshot: RoomSnapshot | null,
  tmp: string,
  variant: 'set' | 'save' | 'hop' | 'rooms' | null = null,
): Promise<Target> {
  const env: NodeJS.ProcessEnv = { ...process.env };
  const keyPrefix = `chipless-bench-floor-${randomBytes(6).toString('hex')}:`;
  const withRedis = variant === 'set' || variant === 'save';
  if (withRedis) {
    env.FLOOR_REDIS_URL = process.env.REDIS_URL;
    env.FLOOR_KEY_PREFIX = keyPrefix;
    env.FLOOR_REDIS_SHAPE = variant;
  }
  if (variant === 'hop') env.FLOOR_HOP = '1';
  if (variant === 'rooms') env.FLOOR_ROOMS = mkdtempSync(join(tmp, 'floor-rooms-'));
  if (snapshot) {
    const file = join(tmp, 'floor-snapshot.json');
    writeFileSync(file, JSON.stringify(snapshot));
    env.FLOOR_SNAPSHOT = file;
  }
  const floorOut = process.env.BENCH_LOG_DIR ? openSync(serverLogFile(tmp, 'floor'), 'a') : 'inherit';
  const child = fork(FLOOR_BUILD, [], {
    execArgv: serverFlags(),
    env,
    cwd: root,
    stdio: ['ignore', floorOut, floorOut, 'ipc'],
  });
  if (typeof floorOut === 'number') closeSync(floorOut); // the child holds its own copy
  prioritise(child.pid);
  const port = await new Promise<number>((r, reject) => {
    child.once('message', (m) => r((m as { port: number }).port));
    child.once('exit', (code) => reject(new Error(`floor server exited with ${code}`)));
  });
  const stop = async () => {
    await stopChild(child);
    if (withRedis) await deleteKeysWithPrefix(keyPrefix, process.env.REDIS_URL);
  };
  return { pid: child.pid!, url: `http://127.0.0.1:${port}`, stop };
}

/** Where the compiled floor goes: inside the repo, so its imports find node_modules. */
const FLOOR_BUILD = join(root, 'dist', 'bench', 'floor-server.mjs');

/**
 * Builds the floor, and for `--floor-rooms` its rooms' thread and, beside it, the SQLite store's writer
 * thread (the store, bundled into the rooms' thread, starts its sibling sqlite-writer.js, as in
 * dist/server).
 */
async function buildFloor(): Promise<void> {
  await build({ ...NODE_BUNDLE, entryPoints: [join(here, 'floor-server.ts')], outfile: FLOOR_BUILD });
  if (!params.floorRooms) return;
  await build({
    ...NODE_BUNDLE,
    entryPoints: [join(here, 'floor-rooms-thread.ts')],
    outfile: join(dirname(FLOOR_BUILD), 'floor-rooms-thread.mjs'),
  });
  await build({
    ...NODE_BUNDLE,
    entryPoints: [join(root, 'src', 'server', 'store', 'sqlite-writer.ts')],
    outfile: join(dirname(FLOOR_BUILD), 'sqlite-writer.js'),
  });
}

function tail(file: string, lines = 30): string {
  try {
    return readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
  } catch {
    return '';
  }
}

/** A forked load worker with a request/response helper over IPC. */
class Worker {
  readonly child: ChildProcess;
  private waiters: Array<(m: FromWorker) => void> = [];

  constructor() {
    this.child = fork(join(here, 'load-worker.ts'), [], {
      execArgv: ['--import', 'tsx', '--max-old-space-size=4096', ...workerFlags()],
      cwd: root,
    });
    prioritise(this.child.pid);
    this.child.on('message', (m) => {
      const msg = m as FromWorker;
      const waiters = this.waiters;
      this.waiters = [];
      for (const w of waiters) w(msg);
    });
  }

  send(msg: ToWorker): void {
    this.child.send(msg);
  }

  /** Sends `msg` and resolves with the next message of type `expect` (rejects on 'failed' or exit). */
  request<T extends FromWorker['type']>(msg: ToWorker, expect: T): Promise<Extract<FromWorker, { type: T }>> {
    return new Promise((resolveMsg, reject) => {
      const onExit = (code: number | null) => reject(new Error(`load worker exited with ${code}`));
      this.child.once('exit', onExit);
      const wait = (m: FromWorker) => {
        if (m.type === expect) {
          this.child.off('exit', onExit);
          resolveMsg(m as Extract<FromWorker, { type: T }>);
        } else if (m.type === 'failed') {
          this.child.off('exit', onExit);
          reject(new Error(`load worker failed: ${m.error}`));
        } else this.waiters.push(wait);
      };
      this.waiters.push(wait);
      this.send(msg);
    });
  }
}

function mergeCounts(all: WorkerCounts[]): WorkerCounts {
  const total: WorkerCounts = emptyCounts();
  for (const c of all) {
    for (const key of [
      'sent',
      'completed',
      'noops',
      'timeouts',
      'stuck',
      'disconnects',
      'gone',
      'hands',
    ] as const) {
      total[key] += c[key];
    }
    for (const [err, n] of Object.entries(c.errors)) total.errors[err] = (total.errors[err] ?? 0) + n;
  }
  return total;
}

/** Drives `target` with the bots and measures it. */
async function measure(
  name: TargetResult['target'],
  mode: TargetMode,
  target: Target,
): Promise<{ result: Omit<TargetResult, 'round'>; sample: RoomSnapshot | null }> {
  const label = `[${name}]`;
  const workers = Array.from({ length: params.workers }, () => new Worker());
  try {
    const perWorker = Math.ceil(params.rooms / params.workers);
    const setupStart = Date.now();
    console.log(
      `${label} setting up ${params.rooms} rooms (${params.sockets} sockets, ${params.workers} workers)…`,
    );
    await Promise.all(
      workers.map((w, i) =>
        w.request(
          {
            type: 'setup',
            mode,
            url: target.url,
            rooms: Math.max(0, Math.min(perWorker, params.rooms - i * perWorker)),
            firstRoom: i * perWorker,
            ratePerRoom: params.ratePerRoom,
            setupConcurrency: params.setupConcurrency,
            seed: params.seed,
          },
          'ready',
        ),
      ),
    );
    const setupMs = Date.now() - setupStart;
    console.log(`${label} ready in ${(setupMs / 1000).toFixed(1)} s; warming up ${params.warmupS} s…`);
    for (const w of workers) w.send({ type: 'play' });
    await sleep(params.warmupS * 1000);

    const cpu0 = processCpuMs(target.pid);
    const workerCpu0 = workers.map((w) => processCpuMs(w.child.pid!));
    const machine0 = machineCpuMs();
    const self0 = process.cpuUsage();
    const t0 = Date.now();
    for (const w of workers) w.send({ type: 'measure' });
    console.log(`${label} measuring ${params.durationS} s…`);
    let rssMax = 0;
    while (Date.now() - t0 < params.durationS * 1000) {
      await sleep(Math.min(1000, params.durationS * 1000 - (Date.now() - t0)));
      rssMax = Math.max(rssMax, processMemoryMb(target.pid).rssMb);
    }
    const results = await Promise.all(workers.map((w) => w.request({ type: 'stop' }, 'results')));
    const elapsed = Date.now() - t0;
    const cpuMs = processCpuMs(target.pid) - cpu0;
    const workerCpuMs = workers.reduce((sum, w, i) => sum + processCpuMs(w.child.pid!) - workerCpu0[i]!, 0);
    const memory = processMemoryMb(target.pid);
    const selfCpu = process.cpuUsage(self0);
    const machine = machineCpuMs();
    const otherMs =
      machine.busyMs - machine0.busyMs - cpuMs - workerCpuMs - (selfCpu.user + selfCpu.system) / 1000;
    const stealMs = machine.stealMs - machine0.stealMs;

    const latencies = results.flatMap((r) => r.latencies);
    const counts = mergeCounts(results.map((r) => r.counts));
    const windowMs = Math.max(...results.map((r) => r.windowMs));
    const sizes = results.filter((r) => r.snapshotBytes > 0);
    const result: Omit<TargetResult, 'round'> = {
      target: name,
      setupMs,
      windowMs,
      commandsPerSecond: Math.round((counts.completed / (windowMs / 1000)) * 10) / 10,
      latencyMs: summarize(latencies),
      counts,
      server: {
        cpuPercentOfOneCore: Math.round((cpuMs / elapsed) * 1000) / 10,
        cpuMicrosPerCommand: Math.round(
          (cpuMs * 1000) / Math.max(1, counts.completed * (elapsed / windowMs)),
        ),
        rssMbMaxInWindow: Math.max(rssMax, memory.rssMb),
        peakRssMb: memory.peakRssMb,
      },
      generator: {
        workers: params.workers,
        cpuPercentOfOneCore: Math.round((workerCpuMs / elapsed) * 1000) / 10,
        loopDelayP99Ms: Math.max(...results.map((r) => r.loopDelay.p99)),
        loopDelayMaxMs: Math.max(...results.map((r) => r.loopDelay.max)),
      },
      otherCpuPercentOfOneCore: Math.max(0, Math.round((otherMs / elapsed) * 1000) / 10),
      stealPercentOfOneCore: Math.round((stealMs / elapsed) * 1000) / 10,
      snapshotBytes: sizes.length
        ? Math.round(sizes.reduce((s, r) => s + r.snapshotBytes, 0) / sizes.length)
        : 0,
    };
    const sample = results.find((r) => r.sampleSnapshot)?.sampleSnapshot ?? null;
    await Promise.all(workers.map((w) => w.request({ type: 'close' }, 'closed').catch(() => undefined)));
    return { result, sample };
  } finally {
    await Promise.all(workers.map((w) => stopChild(w.child)));
  }
}

/** Other load (% of one core) above which a run's latencies are flagged as not trustworthy. */
const NOISY_OTHER_CPU = 20;

function fmt(n: number, digits = 1): string {
  return Number.isFinite(n) ? n.toFixed(digits) : '—';
}

function printTable(runs: TargetResult[]): void {
  const rounds = Math.max(...runs.map((r) => r.round));
  const header = [
    'target',
    'cmd/s',
    'p50 ms',
    'p95 ms',
    'p99 ms',
    'max ms',
    'p50/floor',
    'p99/floor',
    'srv CPU%',
    'srv µs/cmd',
    'srv RSS MB',
    'gen CPU%',
    'other CPU%',
    'steal%',
    'errors',
    'timeouts',
  ];
  const rows = runs.map((r) => {
    const errors = Object.values(r.counts.errors).reduce((a, b) => a + b, 0);
    // Each run is compared with the floor of its own round.
    const floor = runs.find((f) => f.target === 'floor' && f.round === r.round);
    return [
      rounds > 1 ? `${r.target} r${r.round}` : r.target,
      fmt(r.commandsPerSecond),
      fmt(r.latencyMs.p50, 2),
      fmt(r.latencyMs.p95, 2),
      fmt(r.latencyMs.p99, 2),
      fmt(r.latencyMs.max, 1),
      floor && r !== floor ? fmt(r.latencyMs.p50 / floor.latencyMs.p50, 2) : '',
      floor && r !== floor ? fmt(r.latencyMs.p99 / floor.latencyMs.p99, 2) : '',
      fmt(r.server.cpuPercentOfOneCore),
      String(r.server.cpuMicrosPerCommand),
      fmt(r.server.peakRssMb),
      fmt(r.generator.cpuPercentOfOneCore),
      fmt(r.otherCpuPercentOfOneCore),
      fmt(r.stealPercentOfOneCore ?? Number.NaN),
      String(errors),
      String(r.counts.timeouts),
    ];
  });
  printRows(header, rows);
}

function printRows(header: string[], rows: string[][]): void {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padStart(widths[i]!)).join('  ');
  console.log(`\n${line(header)}`);
  for (const row of rows) console.log(line(row));
  console.log('');
}

function printSummary(summary: Record<string, RoundsSummary>): void {
  const header = [
    'median of rounds',
    'p50 ms',
    'p95 ms',
    'p99 ms',
    'p50/floor',
    'p99/floor',
    'srv µs/cmd',
    'max RSS MB',
  ];
  const rows = Object.entries(summary).map(([target, s]) => [
    `${target} (${s.rounds})`,
    fmt(s.latencyMs.p50, 2),
    fmt(s.latencyMs.p95, 2),
    fmt(s.latencyMs.p99, 2),
    s.ratioToFloor ? fmt(s.ratioToFloor.p50, 2) : '',
    s.ratioToFloor ? fmt(s.ratioToFloor.p99, 2) : '',
    String(s.cpuMicrosPerCommand),
    fmt(s.peakRssMb),
  ]);
  printRows(header, rows);
}

async function main(): Promise<void> {
  const machine = machineInfo();
  const started = new Date();
  console.log(
    `chipless load bench: ${params.rooms} rooms × 6 = ${params.sockets} sockets, ${params.ratePerRoom} cmd/room/s, ` +
      `${params.durationS} s measured (+${params.warmupS} s warm-up), stores: ${params.stores.join(', ')}` +
      `${params.floor ? ' + floor' : ''}; ${machine.cpus} CPUs, ulimit -n ${machine.ulimitNoFile}` +
      `${params.nice === null ? '' : `; nice ${params.nice}`}`,
  );
  const limit = Number(machine.ulimitNoFile);
  if (Number.isFinite(limit) && limit < params.sockets + 1024) {
    console.warn(
      `WARNING: ulimit -n is ${limit}; the server needs one descriptor per socket (${params.sockets}) plus its own. ` +
        'Raise it (ulimit -n 65536) or use fewer rooms.',
    );
  }
  if (params.floor || params.floorRedis || params.floorRedisSave || params.floorHop || params.floorRooms)
    await buildFloor();
  const tmp = mkdtempSync(join(os.tmpdir(), 'chipless-bench-'));
  const runs: TargetResult[] = [];
  const failures: Array<{ target: string; error: string }> = [];
  let sample: RoomSnapshot | null = null;
  try {
    for (let round = 1; round <= params.rounds; round++) {
      if (params.rounds > 1) console.log(`round ${round} of ${params.rounds}`);
      for (const store of params.stores) {
        let server: Target | undefined;
        try {
          server = await startServer(store, tmp);
          const measured = await measure(store, 'server', server);
          runs.push({ ...measured.result, round });
          sample ??= measured.sample;
          const errors = Object.entries(measured.result.counts.errors);
          if (errors.length)
            console.log(`[${store}] refused commands: ${JSON.stringify(Object.fromEntries(errors))}`);
        } catch (err) {
          console.error(`[${store}] FAILED: ${err instanceof Error ? err.message : String(err)}`);
          if (server?.logFile) console.error(tail(server.logFile));
          failures.push({ target: store, error: String(err) });
        } finally {
          await server?.stop();
        }
      }
      const diagnostics = [
        ...(params.floorRedis ? [['floor-redis', 'set'] as const] : []),
        ...(params.floorRedisSave ? [['floor-redis-save', 'save'] as const] : []),
        ...(params.floorHop ? [['floor-hop', 'hop'] as const] : []),
        ...(params.floorRooms ? [['floor-rooms', 'rooms'] as const] : []),
      ];
      for (const [name, shape] of diagnostics) {
        const server = await startFloor(sample, tmp, shape);
        try {
          runs.push({ ...(await measure(name, 'floor', server)).result, round });
        } finally {
          await server.stop();
        }
      }
      if (params.floor) {
        const floorServer = await startFloor(sample, tmp);
        try {
          runs.push({ ...(await measure('floor', 'floor', floorServer)).result, round });
        } finally {
          await floorServer.stop();
        }
      }
    }
    printTable(runs);
    const summary = summarizeRounds(runs);
    if (params.rounds > 1) printSummary(summary);

    const ratios = Object.fromEntries(
      Object.entries(summary)
        .filter(([, s]) => s.ratioToFloor !== null)
        .map(([target, s]) => [target, s.ratioToFloor]),
    );
    const targets = Object.fromEntries(
      Object.entries(summary)
        .filter(([target]) => target === 'sqlite' || target === 'redis')
        .map(([target, s]) => {
          const floorRuns = runs.filter((r) => r.target === 'floor');
          const own = runs.filter((r) => r.target === target);
          const others = [...own, ...floorRuns].map((r) =>
            Math.max(r.otherCpuPercentOfOneCore, r.stealPercentOfOneCore ?? 0),
          );
          return [
            target,
            {
              p99AtMost25ms: s.latencyMs.p99 <= 25,
              p50AtMost1_5xFloor: s.ratioToFloor ? s.ratioToFloor.p50 <= 1.5 : null,
              /**
               * Another load on the machine, or time stolen by the hypervisor, above this (% of one core)
               * during one of its runs or the floor's makes the numbers unfair.
               */
              noisy: Math.max(0, ...others) > NOISY_OTHER_CPU,
              rssAtMost500MB: s.peakRssMb <= 500,
              atFullScale: params.rooms >= 1000 && params.ratePerRoom >= 1,
            },
          ];
        }),
    );
    const of = params.rounds > 1 ? ` (median of ${params.rounds} rounds; RSS: the highest)` : '';
    for (const [store, t] of Object.entries(targets)) {
      if (t.noisy) {
        console.log(
          `[${store}] WARNING: other processes used, or the hypervisor stole, over ${NOISY_OTHER_CPU}% of a core ` +
            "during this run or the floor's; latencies and ratios are not trustworthy (see the other CPU% and " +
            'steal% columns). Run again on a quieter machine.',
        );
      }
      console.log(
        `[${store}] targets${of}: p99 ≤ 25 ms ${t.p99AtMost25ms ? 'PASS' : 'FAIL'}; ` +
          `p50 ≤ 1.5× floor ${t.p50AtMost1_5xFloor === null ? 'n/a' : t.p50AtMost1_5xFloor ? 'PASS' : 'FAIL'}; ` +
          `RSS ≤ 500 MB ${t.rssAtMost500MB ? 'PASS' : 'FAIL'}${t.atFullScale ? '' : ' (not at the 1,000-room target scale)'}`,
      );
    }

    const resultsDir = join(here, 'results');
    mkdirSync(resultsDir, { recursive: true });
    const day = started.toISOString().slice(0, 10);
    // <date>.json is the full target run; quick and other sizes get their own files.
    const suffix = params.quick ? '-quick' : params.rooms !== 1000 ? `-${params.rooms}-rooms` : '';
    const file = join(resultsDir, `${day}${suffix}.json`);
    const { stores, ...rest } = params;
    writeFileSync(
      file,
      `${JSON.stringify(
        {
          startedAt: started.toISOString(),
          finishedAt: new Date().toISOString(),
          command: `npm run bench -- ${process.argv.slice(2).join(' ')}`.trim(),
          machine,
          // With the extra node flags: an A/B of flags is otherwise two runs of the same commit.
          params: {
            ...rest,
            stores,
            serverFlags: serverFlags(),
            workerFlags: workerFlags(),
          },
          runs,
          summary,
          ratiosToFloor: ratios,
          targets,
          failures,
        },
        null,
        2,
      )}\n`,
    );
    console.log(`results: ${file}`);
    if (failures.length) process.exitCode = 1;
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
