/**
 * Test support shared by every server-side suite (integration, scale-out, fuzz): a real server
 * in this process on a free port with a temporary data dir, and real Socket.IO clients with promise
 * helpers. Nothing is mocked.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { io as ioClient, type Socket } from 'socket.io-client';
import { applyCommand, createRoom } from '../engine';
import type { Command, Room } from '../engine/types';
import { mergeSnapshot } from '../shared/log-delta';
import type {
  Ack,
  ClientToServerEvents,
  GoneReason,
  RoomSnapshot,
  ServerToClientEvents,
  SessionCredentials,
} from '../shared/protocol';
import { type Application, type ApplicationParts, createApplication } from './app';
import { type Config, loadConfig } from './config';
import { createLogger } from './logger';
import { createStore } from './store';
import type { RoomStore } from './store/room-store';
import type { SqliteStore } from './store/sqlite-store';
import { type RoomThread, startRoomThread } from './thread-rooms';

/** Options of startServer. */
export interface StartServerOptions {
  /** Data directory to use (kept afterwards); default a fresh temporary one (removed by close). */
  dataDir?: string;
  /** A store to use instead of opening one from the config (the caller closes it). */
  store?: RoomStore;
  /** Environment overrides (PORT, ROOM_IDLE_MS, COMMAND_RATE_PER_SEC, ...). */
  env?: Record<string, string>;
  /** Built web app to serve; default dist/web. */
  webDir?: string;
  /** Clock. */
  now?: () => number;
  /** Socket.IO adapter (scale-out tests). */
  adapter?: ApplicationParts['adapter'];
  /**
   * Run the rooms on the room thread (thread-rooms.ts), as `npm start` does in SQLite mode. Its store is
   * then on that thread: the server's `store` reads rooms and counters through it, and cannot write rooms.
   * Not with `store` or `now`. Default: set TEST_ROOM_THREAD=1 (vitest.config.ts) for every server
   * started without a store or a clock.
   */
  roomThread?: boolean;
}

/** A server started by a test. */
export interface TestServer {
  url: string;
  port: number;
  dataDir: string;
  config: Config;
  store: RoomStore;
  app: Application;
  /** Graceful stop (drains commands, closes the store it opened). Removes a temporary data dir unless `keepData`. */
  close(options?: { keepData?: boolean }): Promise<void>;
  /**
   * Crash-like stop: connections dropped at once, no draining, the store left as it was (its
   * connection is abandoned, as a killed process would). The data dir is kept for a restart.
   */
  stopAbruptly(): Promise<void>;
}

/** Rate limits a test server uses unless `env` says otherwise: tests send faster than people. */
const TEST_RATE_LIMITS = {
  COMMAND_RATE_PER_SEC: '1000',
  COMMAND_BURST: '1000',
  JOIN_RATE_PER_MIN: '1000',
  JOIN_RATE_PER_IP_PER_MIN: '1000',
  FAILED_LOOKUP_RATE_PER_MIN: '1000',
  CONNECTIONS_PER_IP: '1000',
  CONNECT_RATE_PER_IP_PER_MIN: '100000',
};

/** Starts the application in this process on 127.0.0.1 and a free port. */
export async function startServer(options: StartServerOptions = {}): Promise<TestServer> {
  const temporary = options.dataDir === undefined;
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'chipless-test-'));
  const config = loadConfig({
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    ...TEST_RATE_LIMITS,
    ...options.env,
    DATA_DIR: dataDir,
  });
  const logger = createLogger(config.logLevel);
  if (options.roomThread && (options.store || options.now))
    throw new TypeError('startServer: a room thread has its own store and clock');
  // The 'server-room-thread' project (vitest.config.ts) runs the suites again on the room thread.
  const threaded =
    options.roomThread ??
    (process.env.TEST_ROOM_THREAD === '1' && options.store === undefined && options.now === undefined);
  const roomThread = threaded ? await startRoomThread({ dataDir, logLevel: config.logLevel }) : undefined;
  const ownStore = options.store === undefined;
  const store = roomThread ? storeThrough(roomThread) : (options.store ?? (await createStore(config)));
  const httpServer = createServer();
  const app = createApplication(httpServer, {
    ...(roomThread ? { roomThread } : { store }),
    config,
    logger,
    ...(options.now ? { now: options.now } : {}),
    ...(options.adapter ? { adapter: options.adapter } : {}),
    ...(options.webDir ? { webDir: options.webDir } : {}),
  });
  await new Promise<void>((resolve) =>
    httpServer.listen(options.env?.PORT ? config.port : 0, '127.0.0.1', resolve),
  );
  const address = httpServer.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  let stopped = false;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    dataDir,
    config,
    store,
    app,
    async close(closeOptions = {}) {
      if (stopped) return;
      stopped = true;
      await app.close();
      if (roomThread) await roomThread.close();
      else if (ownStore) await store.close();
      if (temporary && !closeOptions.keepData) rmSync(dataDir, { recursive: true, force: true });
    },
    async stopAbruptly() {
      if (stopped) return;
      stopped = true;
      app.destroy();
      if (roomThread) return roomThread.terminate();
      // The SQLite store keeps its directory locked while open: let go of it as a killed process would.
      if (ownStore && 'abandon' in store) await (store as SqliteStore).abandon();
    },
  };
}

/**
 * What a test can ask of a store on the room thread: the stored rooms, the counters and housekeeping.
 * Writing rooms is the room service's (through commands); closing is the thread's.
 */
function storeThrough(thread: RoomThread): RoomStore {
  const refuse = () => Promise.reject(new Error('startServer: this store is on the room thread (read only)'));
  return {
    load: (roomCode) => thread.request('record', roomCode),
    readCounters: (keys) => thread.readCounters(keys),
    create: refuse,
    save: refuse,
    delete: refuse,
    touch: (roomCodes, now) => thread.touch(roomCodes, now),
    listIdle: (before) => thread.listIdle(before),
    increment: (counters) => thread.increment(counters),
    close: refuse,
  };
}

/** Writes a minimal built web app (index.html with placeholder head tags and one hashed asset) into a temp dir. */
export function fakeWebDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'chipless-web-'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(
    join(dir, 'index.html'),
    [
      '<!doctype html>',
      '<html lang="en">',
      '  <head>',
      '    <meta charset="UTF-8" />',
      '    <title>Placeholder</title>',
      '    <meta name="description" content="placeholder" />',
      '    <link rel="canonical" href="https://placeholder.invalid/" />',
      '    <script type="module" src="/assets/index-abc123.js"></script>',
      '  </head>',
      '  <body><div id="root"></div></body>',
      '</html>',
      '',
    ].join('\n'),
  );
  writeFileSync(
    join(dir, 'assets', 'index-abc123.js'),
    `console.log(${JSON.stringify('x'.repeat(4000))});\n`,
  );
  writeFileSync(join(dir, 'robots.txt'), 'User-agent: *\n');
  return dir;
}

/** A typed client socket. */
export type ClientSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

/** Waits for `promise`, failing with `message` after `ms`. */
export function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** Emits `event` with `payload` and resolves with the acknowledgement (raw: any event name and payload). */
export function emitWithAck<T = unknown>(
  socket: ClientSocket,
  event: string,
  payload: unknown,
  timeoutMs = 5000,
): Promise<Ack<T>> {
  const raw = socket as unknown as {
    timeout(ms: number): { emitWithAck(ev: string, ...args: unknown[]): Promise<unknown> };
  };
  return raw.timeout(timeoutMs).emitWithAck(event, payload) as Promise<Ack<T>>;
}

/**
 * A player's phone in tests: one connection, its credentials, every snapshot and 'gone' it received,
 * and helpers for the protocol's requests.
 */
export class TestClient {
  readonly socket: ClientSocket;
  creds: SessionCredentials | null = null;
  /** Snapshots received as broadcasts, in arrival order, as sent (their log is a delta: log-delta.ts). */
  readonly snapshots: RoomSnapshot[] = [];
  /** What a phone holds: every broadcast and acknowledged snapshot folded together (mergeSnapshot). */
  private held: RoomSnapshot | null = null;
  readonly gone: Array<{ roomCode: string; reason: GoneReason }> = [];
  private listeners: Array<() => void> = [];

  private constructor(socket: ClientSocket) {
    this.socket = socket;
    socket.on('session', (c) => {
      this.creds = c;
      this.notify();
    });
    socket.on('room', (s) => {
      this.snapshots.push(s);
      this.fold(s);
    });
    socket.on('gone', (g) => {
      this.gone.push(g);
      this.notify();
    });
  }

  /** Connects (presenting `token` when given) and resolves once the server sent the session. */
  static async connect(
    url: string,
    options: { token?: string; transports?: string[] } = {},
  ): Promise<TestClient> {
    const socket: ClientSocket = ioClient(url, {
      transports: options.transports ?? ['websocket'],
      reconnection: false,
      forceNew: true,
      auth: options.token ? { token: options.token } : {},
    });
    const client = new TestClient(socket);
    await withTimeout(
      new Promise<void>((resolve, reject) => {
        socket.once('session', () => resolve());
        socket.once('connect_error', reject);
      }),
      5000,
      `no session from ${url}`,
    );
    return client;
  }

  get playerId(): string {
    if (!this.creds) throw new Error('no session yet');
    return this.creds.playerId;
  }

  get token(): string {
    if (!this.creds) throw new Error('no session yet');
    return this.creds.token;
  }

  /**
   * The room as the phone holds it: the newest version received, with the whole log rebuilt from the
   * full snapshots in acknowledgements and the deltas in broadcasts. Undefined before any snapshot.
   */
  get latest(): RoomSnapshot | undefined {
    return this.held ?? undefined;
  }

  private fold(snapshot: RoomSnapshot): void {
    this.held = mergeSnapshot(this.held, snapshot).snapshot;
    this.notify();
  }

  /** Folds the full snapshot of a successful acknowledgement in, as the phone does. */
  private keep(ack: Ack<RoomSnapshot>): Ack<RoomSnapshot> {
    if (ack.ok) this.fold(ack.data);
    return ack;
  }

  /** Resolves when `predicate` holds (checked on every message received), or fails after `ms`. */
  waitFor(predicate: () => boolean, ms = 5000, what = 'condition'): Promise<void> {
    if (predicate()) return Promise.resolve();
    return withTimeout(
      new Promise<void>((resolve) => {
        const check = () => {
          if (!predicate()) return;
          this.listeners = this.listeners.filter((l) => l !== check);
          resolve();
        };
        this.listeners.push(check);
      }),
      ms,
      `timed out waiting for ${what}`,
    );
  }

  /** Resolves with the first broadcast snapshot of at least `version`. */
  async waitForVersion(version: number, ms = 5000): Promise<RoomSnapshot> {
    await this.waitFor(() => (this.latest?.version ?? 0) >= version, ms, `version ${version}`);
    return this.latest!;
  }

  createRoom(name: string, startingChips: number, commandId = randomUUID()): Promise<Ack<RoomSnapshot>> {
    return emitWithAck<RoomSnapshot>(this.socket, 'createRoom', { commandId, name, startingChips }).then(
      (a) => this.keep(a),
    );
  }

  joinRoom(
    roomCode: string,
    name: string,
    startingChips: number,
    commandId = randomUUID(),
  ): Promise<Ack<RoomSnapshot>> {
    return emitWithAck<RoomSnapshot>(this.socket, 'joinRoom', {
      commandId,
      roomCode,
      name,
      startingChips,
    }).then((a) => this.keep(a));
  }

  resume(roomCode: string): Promise<Ack<RoomSnapshot>> {
    return emitWithAck<RoomSnapshot>(this.socket, 'resume', { roomCode }).then((a) => this.keep(a));
  }

  command(roomCode: string, command: Command, commandId = randomUUID()): Promise<Ack<{ version: number }>> {
    return emitWithAck(this.socket, 'command', { commandId, roomCode, command });
  }

  /** Sends a command that must succeed; returns the version it produced. */
  async must(roomCode: string, command: Command): Promise<number> {
    const res = await this.command(roomCode, command);
    if (!res.ok) throw new Error(`${command.type} refused: ${res.error}`);
    return res.data.version;
  }

  close(): void {
    this.socket.disconnect();
  }

  private notify(): void {
    for (const l of [...this.listeners]) l();
  }
}

/** Unwraps a successful ack or throws with its error. */
export function okData<T>(ack: Ack<T>): T {
  if (!ack.ok) throw new Error(`expected ok, got error: ${ack.error}`);
  return ack.data;
}

/** Polls GET `url` + `path` and returns the parsed JSON body with the status. */
export async function getJson<T = unknown>(url: string, path: string): Promise<{ status: number; body: T }> {
  const res = await fetch(`${url}${path}`);
  return { status: res.status, body: (await res.json()) as T };
}

/** Sleeps `ms`. */
export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/**
 * Each thread of a process (this one by default) with its nice value: field 19 of
 * /proc/<pid>/task/<tid>/stat (Linux), counted after the command name, which is in parentheses and may
 * hold spaces.
 */
export function threadNices(pid: number | 'self' = 'self'): Map<number, number> {
  const nices = new Map<number, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
    // Field 3 is the first after the name.
    nices.set(Number(tid), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19 - 3]));
  }
  return nices;
}

/** A started two-player room whose names hold quotes, backslashes, non-ASCII and `</script>`. */
export function sampleRoom(): Room {
  let room = createRoom({
    roomCode: 'AB3DE',
    hostId: 'host',
    hostName: 'Hôst "quoted" \\ 🂡',
    startingChips: 50_00,
    now: 1,
  });
  const joined = applyCommand(room, 'p1', { type: 'join', name: '李 ♥ </script>', startingChips: 50_00 }, 2);
  if (!joined.ok || !joined.room) throw new Error('join refused');
  room = joined.room;
  const approved = applyCommand(room, 'host', { type: 'approve', playerId: 'p1' }, 3);
  if (!approved.ok || !approved.room) throw new Error('approve refused');
  const started = applyCommand(approved.room, 'host', { type: 'startGame' }, 4);
  if (!started.ok || !started.room) throw new Error('start refused');
  return started.room;
}
