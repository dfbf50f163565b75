/**
 * A load-generator process (forked by load.ts): drives some rooms of 6 socket.io-client bots
 * (websocket transport only) against the real server or the floor server, and measures each
 * command's round trip: from emit until every socket of the room holds the version it produced.
 */
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { io, type Socket } from 'socket.io-client';
import type { Room } from '../src/engine/types';
import type { Ack, RoomSnapshot, SessionCredentials } from '../src/shared/protocol';
import { LazySnapshot, lazyParser } from './lazy-parser';
import { emptyCounts, type FromWorker, type ToWorker, type WorkerCounts, type WorkerSetup } from './messages';
import { seededRandom } from './stats';
import { BOT_CHIPS, type Move, nextMove } from './strategy';

const PLAYERS_PER_ROOM = 6;
/** A command not acked, or not seen by every socket of its room, within this is counted as a timeout. */
const COMMAND_TIMEOUT_MS = 5_000;
/** A room with no move to make looks again after this. */
const STUCK_RETRY_MS = 250;
/** Every Nth snapshot received is measured for its size (stringifying all of them would load the worker). */
const SIZE_SAMPLE_EVERY = 200;

type AnySocket = Socket;

function send(msg: FromWorker): void {
  process.send?.(msg);
}

/** One bot: a socket, its player id, and when it first saw each recent version. */
class Bot {
  readonly socket: AnySocket;
  playerId = '';
  version = 0;
  /** [version, performance.now()] of the last snapshots received, oldest first. */
  private readonly seen: Array<[number, number]> = [];

  constructor(socket: AnySocket) {
    this.socket = socket;
  }

  /** Records a snapshot this socket received; returns true when it is newer than what it had. */
  observe(version: number, at: number): boolean {
    if (version <= this.version) return false;
    this.version = version;
    this.seen.push([version, at]);
    if (this.seen.length > 16) this.seen.shift();
    return true;
  }

  /** When this socket first held a version ≥ v (undefined if it does not, or the record is gone). */
  firstAt(v: number): number | undefined {
    for (const [version, at] of this.seen) if (version >= v) return at;
    return undefined;
  }
}

interface InFlight {
  t0: number;
  measured: boolean;
  baseVersion: number;
  ackVersion: number | null;
  isNewHand: boolean;
  timer: NodeJS.Timeout;
}

let config: WorkerSetup;
let playing = false;
let measuring = false;
let stopping = false;
const rooms: RoomDriver[] = [];
const latencies: number[] = [];
const trace: string[] = [];
const counts: WorkerCounts = emptyCounts();
let snapshotsReceived = 0;
let sizeSamples = 0;
let sizeSum = 0;
let sampleSnapshot: RoomSnapshot | null = null;
let sampleSize = Number.POSITIVE_INFINITY;

/** Drives one room: decides the next move from the newest snapshot, sends it, times it. */
class RoomDriver {
  readonly bots: Bot[] = [];
  roomCode = '';
  latest: RoomSnapshot | null = null;
  private inFlight: InFlight | null = null;
  private timer: NodeJS.Timeout | null = null;
  private idle: (() => void) | null = null;

  constructor(
    readonly index: number,
    readonly random: () => number,
  ) {}

  /** Attaches the room listeners of a bot. */
  add(bot: Bot): void {
    this.bots.push(bot);
    bot.socket.on('room', (snapshot: RoomSnapshot) => this.onSnapshot(bot, snapshot));
    bot.socket.on('gone', () => {
      counts.gone++;
    });
    bot.socket.on('disconnect', () => {
      if (!stopping) counts.disconnects++;
    });
  }

  onSnapshot(bot: Bot, snapshot: RoomSnapshot): void {
    const at = performance.now();
    snapshotsReceived++;
    if (measuring && snapshotsReceived % SIZE_SAMPLE_EVERY === 0) {
      const size = snapshot instanceof LazySnapshot ? snapshot.size : JSON.stringify(snapshot).length;
      sizeSum += size;
      sizeSamples++;
      // The floor broadcasts one snapshot: keep the one closest to the mean size seen while measuring.
      const mean = sizeSum / sizeSamples;
      if (snapshot.room?.status === 'PLAYING' && Math.abs(size - mean) <= Math.abs(sampleSize - mean)) {
        sampleSnapshot = snapshot instanceof LazySnapshot ? snapshot.toJSON() : snapshot;
        sampleSize = size;
      }
    }
    if (!bot.observe(snapshot.version, at)) return;
    if (!this.latest || snapshot.version > this.latest.version) this.latest = snapshot;
    this.tryComplete();
  }

  /** Starts the play loop: the first command at a random point of the first think time. */
  start(): void {
    this.schedule(this.random() * this.thinkMs());
  }

  /** Resolves once nothing is in flight and no command will be sent. */
  stop(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (!this.inFlight) return Promise.resolve();
    return new Promise((resolve) => {
      this.idle = resolve;
    });
  }

  private thinkMs(): number {
    return (500 + this.random() * 1000) / config.ratePerRoom;
  }

  private schedule(delay: number): void {
    if (stopping) return;
    this.timer = setTimeout(() => this.fire(), Math.max(0, delay));
  }

  private move(): Move | null {
    if (config.mode === 'floor') {
      // The same client work as against the server: parse the newest snapshot and decide a move on
      // it (JSON.parse of ~3.8 KB and the strategy, on the same event loop that times the broadcasts).
      // The decision is dropped: the floor's snapshot is a sample, not this room; it draws no number
      // from the room's seeded sequence, so the floor's think times stay what they were.
      if (this.latest) nextMove(this.latest.room, () => 0.5);
      const bot = this.bots[Math.floor(this.random() * this.bots.length)]!;
      return { actorId: bot.playerId, command: { type: 'act', action: 'CALL' } };
    }
    return this.latest ? nextMove(this.latest.room, this.random) : null;
  }

  private fire(): void {
    this.timer = null;
    if (stopping || this.inFlight) return;
    const move = this.move();
    const bot = move && this.bots.find((b) => b.playerId === move.actorId);
    if (!move || !bot) {
      if (measuring) counts.stuck++;
      this.schedule(STUCK_RETRY_MS);
      return;
    }
    const t0 = performance.now();
    const flight: InFlight = {
      t0,
      measured: measuring,
      baseVersion: this.latest?.version ?? 0,
      ackVersion: null,
      isNewHand: move.command.type === 'newHand',
      timer: setTimeout(() => {
        if (this.inFlight !== flight) return;
        if (flight.measured) counts.timeouts++;
        this.finish();
      }, COMMAND_TIMEOUT_MS),
    };
    this.inFlight = flight;
    if (flight.measured) counts.sent++;
    bot.socket.emit(
      'command',
      { commandId: randomUUID(), roomCode: this.roomCode, command: move.command },
      (ack: Ack<{ version: number }>) => {
        if (this.inFlight !== flight) return;
        if (!ack.ok) {
          if (flight.measured) counts.errors[ack.error] = (counts.errors[ack.error] ?? 0) + 1;
          this.finish();
        } else if (ack.data.version <= flight.baseVersion) {
          if (flight.measured) counts.noops++;
          this.finish();
        } else {
          flight.ackVersion = ack.data.version;
          this.tryComplete();
        }
      },
    );
  }

  private tryComplete(): void {
    const flight = this.inFlight;
    if (!flight || flight.ackVersion === null) return;
    let last = 0;
    for (const bot of this.bots) {
      if (bot.version < flight.ackVersion) return;
      const at = bot.firstAt(flight.ackVersion);
      if (at === undefined) return;
      last = Math.max(last, at);
    }
    if (flight.measured) {
      latencies.push(last - flight.t0);
      if (process.env.BENCH_TRACE)
        trace.push(`${Math.round(flight.t0)} ${(last - flight.t0).toFixed(3)} ${this.index}`);
      counts.completed++;
      if (flight.isNewHand) counts.hands++;
    }
    this.finish();
  }

  private finish(): void {
    const flight = this.inFlight;
    if (!flight) return;
    clearTimeout(flight.timer);
    this.inFlight = null;
    if (stopping) {
      this.idle?.();
      this.idle = null;
      return;
    }
    this.schedule(flight.t0 + this.thinkMs() - performance.now());
  }
}

/** Connects one bot and waits for its session (player id). */
function connectBot(): Promise<Bot> {
  return new Promise((resolve, reject) => {
    const socket = io(config.url, {
      transports: ['websocket'],
      parser: lazyParser,
      reconnection: false,
      forceNew: true,
      timeout: 30_000,
      auth: {},
    });
    const bot = new Bot(socket);
    const timer = setTimeout(() => reject(new Error('no session within 30 s')), 30_000);
    socket.once('session', (creds: SessionCredentials) => {
      clearTimeout(timer);
      bot.playerId = creds.playerId;
      resolve(bot);
    });
    socket.once('connect_error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
  });
}

async function request<T>(socket: AnySocket, event: string, payload: unknown): Promise<T> {
  const ack = (await socket.timeout(30_000).emitWithAck(event, payload)) as Ack<T>;
  if (!ack.ok) throw new Error(`${event} refused: ${ack.error}`);
  return ack.data;
}

async function command(driver: RoomDriver, bot: Bot, cmd: Move['command']): Promise<number> {
  const data = await request<{ version: number }>(bot.socket, 'command', {
    commandId: randomUUID(),
    roomCode: driver.roomCode,
    command: cmd,
  });
  return data.version;
}

/** Waits until every bot of the room holds at least `version`. */
async function settled(driver: RoomDriver, version: number): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (driver.bots.some((b) => b.version < version)) {
    if (Date.now() > deadline) throw new Error(`room ${driver.roomCode} did not converge on v${version}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Real server: host creates, 5 join, host approves all and starts the game. */
async function setupServerRoom(driver: RoomDriver): Promise<void> {
  const host = await connectBot();
  driver.add(host);
  const created = await request<RoomSnapshot>(host.socket, 'createRoom', {
    commandId: randomUUID(),
    name: 'Host',
    startingChips: BOT_CHIPS,
  });
  driver.roomCode = created.room.roomCode;
  driver.onSnapshot(host, created);
  const joiners = await Promise.all(
    Array.from({ length: PLAYERS_PER_ROOM - 1 }, async (_, k) => {
      const bot = await connectBot();
      driver.add(bot);
      const joined = await request<RoomSnapshot>(bot.socket, 'joinRoom', {
        commandId: randomUUID(),
        roomCode: driver.roomCode,
        name: `Bot ${k + 1}`,
        startingChips: BOT_CHIPS,
      });
      driver.onSnapshot(bot, joined);
      return bot;
    }),
  );
  let version = 0;
  for (const bot of joiners) {
    version = await command(driver, host, { type: 'approve', playerId: bot.playerId });
  }
  version = await command(driver, host, { type: 'startGame' });
  await settled(driver, version);
  if ((driver.latest?.room as Room | undefined)?.status !== 'PLAYING') {
    throw new Error(`room ${driver.roomCode} did not start`);
  }
}

/** Floor server: 6 sockets join one broadcast room. */
async function setupFloorRoom(driver: RoomDriver): Promise<void> {
  driver.roomCode = `F${String(driver.index).padStart(4, '0')}`;
  await Promise.all(
    Array.from({ length: PLAYERS_PER_ROOM }, async () => {
      const bot = await connectBot();
      driver.add(bot);
      const snapshot = await request<RoomSnapshot>(bot.socket, 'join', { roomCode: driver.roomCode });
      driver.onSnapshot(bot, snapshot);
    }),
  );
}

async function setup(msg: WorkerSetup): Promise<void> {
  config = msg;
  const started = performance.now();
  for (let i = 0; i < msg.rooms; i++) {
    const index = msg.firstRoom + i;
    rooms.push(new RoomDriver(index, seededRandom(msg.seed * 100_003 + index)));
  }
  let next = 0;
  const lane = async () => {
    while (next < rooms.length) {
      const driver = rooms[next++]!;
      if (msg.mode === 'floor') await setupFloorRoom(driver);
      else await setupServerRoom(driver);
    }
  };
  await Promise.all(Array.from({ length: msg.setupConcurrency }, lane));
  send({ type: 'ready', setupMs: Math.round(performance.now() - started), sockets: rooms.length * 6 });
}

/**
 * The loop's delay is sampled with a timer every LOOP_RESOLUTION_MS; Node's histogram holds the time
 * between its ticks, the resolution included (an idle loop: p50 ~10.2, p99 ~10.3 ms), so what is sent
 * is how late the tick came. Results before session 21 hold the tick's whole interval.
 */
const LOOP_RESOLUTION_MS = 10;
const loop = monitorEventLoopDelay({ resolution: LOOP_RESOLUTION_MS });
let windowStart = 0;
let cpuStart = process.cpuUsage();

process.on('message', (msg: ToWorker) => {
  switch (msg.type) {
    case 'setup':
      setup(msg).catch((err: unknown) => send({ type: 'failed', error: String(err) }));
      break;
    case 'play':
      if (!playing) {
        playing = true;
        for (const driver of rooms) driver.start();
      }
      break;
    case 'measure':
      measuring = true;
      windowStart = performance.now();
      cpuStart = process.cpuUsage();
      loop.reset();
      loop.enable();
      break;
    case 'stop': {
      const windowMs = performance.now() - windowStart;
      measuring = false;
      stopping = true;
      loop.disable();
      const cpu = process.cpuUsage(cpuStart);
      Promise.all(rooms.map((r) => r.stop())).then(() => {
        const late = (ns: number) => Math.max(0, Math.round((ns / 1e6 - LOOP_RESOLUTION_MS) * 100) / 100);
        if (process.env.BENCH_TRACE)
          writeFileSync(
            `${process.env.BENCH_TRACE}.${process.pid}`,
            [`# timeOrigin ${performance.timeOrigin}`, ...trace].join('\n'),
          );
        send({
          type: 'results',
          latencies,
          counts,
          windowMs: Math.round(windowMs),
          cpuMs: Math.round((cpu.user + cpu.system) / 1000),
          loopDelay: { p50: late(loop.percentile(50)), p99: late(loop.percentile(99)), max: late(loop.max) },
          snapshotBytes: sizeSamples ? Math.round(sizeSum / sizeSamples) : 0,
          sampleSnapshot,
        });
      });
      break;
    }
    case 'close':
      stopping = true;
      for (const driver of rooms) for (const bot of driver.bots) bot.socket.disconnect();
      send({ type: 'closed' });
      setTimeout(() => process.exit(0), 100);
      break;
  }
});

process.on('disconnect', () => process.exit(0));
