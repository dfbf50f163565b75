/**
 * Test support for the scale-out and crash suites: real server processes, started as `npm start`
 * starts one (`node scripts/start.mjs`: the compiled server in dist/server, rebuilt first when older
 * than its sources), and real Socket.IO clients that record every acknowledgement and broadcast.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { io, type Socket } from 'socket.io-client';
import type { Room } from '../../engine/types';
import { mergeSnapshot } from '../../shared/log-delta';
import type {
  Ack,
  ClientToServerEvents,
  RoomSnapshot,
  ServerToClientEvents,
  SessionCredentials,
  WireCommand,
} from '../../shared/protocol';
import { freePort } from '../free-port';

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

const running = new Set<ChildProcess>();
// Last resort: never leave a server behind when the test worker exits.
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/** A server process started by a test. */
export interface ServerProcess {
  port: number;
  url: string;
  child: ChildProcess;
  /** Everything it wrote (stdout and stderr), for failure messages. */
  output: () => string;
  /** Resolves when the process has exited. */
  exited: Promise<void>;
  /** SIGKILL (a crash) or SIGTERM (graceful), then waits for the exit. */
  kill: (signal?: NodeJS.Signals) => Promise<void>;
}

/**
 * Starts the server as `npm start` does (`scripts/start.mjs`: the compiled build of
 * `src/server/main.ts`) in its own Node process, with `env` added to the environment (PORT is chosen
 * here unless given), and resolves once GET /healthz answers 200.
 */
export async function startServerProcess(
  env: Record<string, string>,
  timeoutMs = 20_000,
): Promise<ServerProcess> {
  const port = env.PORT ? Number(env.PORT) : await freePort();
  const child = spawn(process.execPath, ['scripts/start.mjs'], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      LOG_LEVEL: 'warn',
      SKIP_WEB_BUILD: '1',
      HOST: '127.0.0.1',
      ...env,
      PORT: String(port),
      // Bots send faster than a human: the rate limits are not what these tests are about.
      COMMAND_RATE_PER_SEC: env.COMMAND_RATE_PER_SEC ?? '1000',
      COMMAND_BURST: env.COMMAND_BURST ?? '1000',
      JOIN_RATE_PER_MIN: env.JOIN_RATE_PER_MIN ?? '1000',
      JOIN_RATE_PER_IP_PER_MIN: env.JOIN_RATE_PER_IP_PER_MIN ?? '1000',
      FAILED_LOOKUP_RATE_PER_MIN: env.FAILED_LOOKUP_RATE_PER_MIN ?? '1000',
      CONNECTIONS_PER_IP: env.CONNECTIONS_PER_IP ?? '1000',
      CONNECT_RATE_PER_IP_PER_MIN: env.CONNECT_RATE_PER_IP_PER_MIN ?? '100000',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-20_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<void>((done) => {
    child.once('exit', () => {
      running.delete(child);
      done();
    });
  });
  const url = `http://127.0.0.1:${port}`;
  const proc: ServerProcess = {
    port,
    url,
    child,
    output: () => output,
    exited,
    async kill(signal = 'SIGKILL') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };

  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`server exited during start (code ${child.exitCode}):\n${output}`);
    }
    try {
      const res = await fetch(`${url}/healthz`);
      if (res.ok) return proc;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await proc.kill();
      throw new Error(`server did not answer /healthz within ${timeoutMs} ms:\n${output}`);
    }
    await sleep(100);
  }
}

/** SIGKILLs every server process still running (for afterAll, also after a failure). */
export async function killAllServers(): Promise<void> {
  await Promise.all(
    [...running].map(
      (child) =>
        new Promise<void>((done) => {
          if (child.exitCode !== null || child.signalCode !== null) return done();
          child.once('exit', () => done());
          child.kill('SIGKILL');
        }),
    ),
  );
}

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

type ClientSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

/** A command the server acknowledged as applied. */
export interface AckedCommand {
  commandId: string;
  type: string;
  version: number;
  /** The room command as sent (absent for createRoom / joinRoom). */
  command?: WireCommand;
}

/**
 * A player's phone: one Socket.IO connection at a time (to any server process), its credentials,
 * every snapshot it was sent (by version) and every command acknowledged to it.
 */
export class TestPlayer {
  socket: ClientSocket | null = null;
  creds: SessionCredentials | null = null;
  roomCode = '';
  /**
   * Every version received (broadcasts and acks) as the phone holds it: folded with mergeSnapshot
   * (broadcasts carry only new log events), recorded when its log is known whole.
   */
  readonly snapshots = new Map<number, RoomSnapshot>();
  latest: RoomSnapshot | null = null;
  /** A broadcast's log started past what was held: the log has a hole until a full snapshot arrives. */
  private holeSince: number | null = null;
  readonly acked: AckedCommand[] = [];
  private waiters: Array<{ version: number; resolve: () => void }> = [];

  constructor(readonly label: string) {}

  get id(): string {
    if (!this.creds) throw new Error(`${this.label} has no session yet`);
    return this.creds.playerId;
  }

  /** Connects to `url`, presenting the stored token when there is one; resolves with the session. */
  async connect(url: string): Promise<void> {
    this.socket?.disconnect();
    const socket: ClientSocket = io(url, {
      transports: ['websocket'],
      reconnection: false,
      forceNew: true,
      auth: this.creds ? { token: this.creds.token } : {},
    });
    this.socket = socket;
    socket.on('room', (snap) => this.record(snap));
    const session = new Promise<SessionCredentials>((resolveSession, reject) => {
      socket.once('session', resolveSession);
      socket.once('connect_error', reject);
    });
    this.creds = await withTimeout(session, 5000, `${this.label}: no session from ${url}`);
  }

  disconnect(): void {
    this.socket?.disconnect();
    this.socket = null;
  }

  private record(snap: RoomSnapshot): void {
    const merged = mergeSnapshot(this.latest, snap);
    this.latest = merged.snapshot;
    if (snap.logFrom === undefined && this.holeSince !== null && snap.version >= this.holeSince) {
      this.holeSince = null;
    }
    if (merged.missing && this.holeSince === null) {
      // As the phone does: ask for the whole room again (a broadcast was lost or two crossed).
      this.holeSince = merged.snapshot.version;
      this.resume().catch(() => {
        // The process may be gone; the next connect resumes.
        this.holeSince = null;
      });
    }
    if (this.holeSince === null) this.snapshots.set(this.latest.version, this.latest);
    this.waiters = this.waiters.filter((w) => {
      if (snap.version < w.version) return true;
      w.resolve();
      return false;
    });
  }

  private sock(): ClientSocket {
    if (!this.socket) throw new Error(`${this.label} is not connected`);
    return this.socket;
  }

  async createRoom(name: string, startingChips: number): Promise<RoomSnapshot> {
    const commandId = randomUUID();
    const res = await withTimeout(
      this.sock().emitWithAck('createRoom', { commandId, name, startingChips }),
      5000,
      `${this.label}: createRoom`,
    );
    const snap = unwrap(res, `${this.label}: createRoom`);
    this.roomCode = snap.room.roomCode;
    this.acked.push({ commandId, type: 'createRoom', version: snap.version });
    this.record(snap);
    return snap;
  }

  async joinRoom(roomCode: string, name: string, startingChips: number): Promise<RoomSnapshot> {
    const commandId = randomUUID();
    const res = await withTimeout(
      this.sock().emitWithAck('joinRoom', { commandId, roomCode, name, startingChips }),
      5000,
      `${this.label}: joinRoom`,
    );
    const snap = unwrap(res, `${this.label}: joinRoom`);
    this.roomCode = roomCode;
    this.acked.push({ commandId, type: 'joinRoom', version: snap.version });
    this.record(snap);
    return snap;
  }

  /** Re-subscribes to the player's room (after connecting again). */
  async resume(): Promise<RoomSnapshot> {
    const res = await withTimeout(
      this.sock().emitWithAck('resume', { roomCode: this.roomCode }),
      5000,
      `${this.label}: resume`,
    );
    const snap = unwrap(res, `${this.label}: resume`);
    this.record(snap);
    return snap;
  }

  /** Sends a room command; records it when acknowledged as applied. */
  async send(command: WireCommand, commandId: string = randomUUID()): Promise<Ack<{ version: number }>> {
    const res = await withTimeout(
      this.sock().emitWithAck('command', { commandId, roomCode: this.roomCode, command }),
      5000,
      `${this.label}: ${command.type}`,
    );
    if (res.ok) this.acked.push({ commandId, type: command.type, version: res.data.version, command });
    return res;
  }

  /** Sends a command that must be applied; returns the version it produced. */
  async must(command: WireCommand): Promise<number> {
    const res = await this.send(command);
    if (!res.ok) throw new Error(`${this.label}: ${command.type} refused: ${res.error}`);
    return res.data.version;
  }

  /** Resolves once a snapshot of at least `version` has arrived. */
  async waitForVersion(version: number, timeoutMs = 5000): Promise<RoomSnapshot> {
    if (!this.latest || this.latest.version < version) {
      await withTimeout(
        new Promise<void>((resolveWait) => this.waiters.push({ version, resolve: resolveWait })),
        timeoutMs,
        `${this.label}: version ${version} never arrived (latest ${this.latest?.version})`,
      );
    }
    return this.latest!;
  }
}

function unwrap<T>(res: Ack<T>, what: string): T {
  if (!res.ok) throw new Error(`${what} refused: ${res.error}`);
  return res.data;
}

export async function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      p,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`timeout after ${ms} ms: ${what}`)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** Chips in the room: stacks plus pots must equal everything bought in (left players included). */
export function chipTotals(room: Room): { held: number; invested: number } {
  const players = Object.values(room.players);
  const held =
    players.reduce((s, p) => s + p.stack, 0) +
    room.gameState.pots.reduce((s, p) => s + p.amount, 0) +
    room.ledger.reduce((s, l) => s + l.finalChips, 0);
  const invested =
    players.reduce((s, p) => s + p.totalInvestment, 0) +
    room.ledger.reduce((s, l) => s + l.totalInvestment, 0);
  return { held, invested };
}

/**
 * Drives a hand from where it is to SHOWDOWN with every winner declared: whoever's turn it is calls,
 * the host advances stages, then declares the first eligible player the winner of each pot.
 * Waits after each step until every player has the new version (they must all converge).
 */
export async function playHandToShowdown(host: TestPlayer, players: TestPlayer[]): Promise<void> {
  const byId = new Map(players.map((p) => [p.id, p]));
  for (let step = 0; step < 200; step++) {
    const snap = host.latest!;
    const gs = snap.room.gameState;
    let version: number;
    if (gs.stage === 'SHOWDOWN') {
      const potTotal = gs.pots.reduce((s, p) => s + p.amount, 0);
      if (potTotal === 0 || snap.room.status !== 'PLAYING') return;
      const eligible = gs.pots.find((p) => p.amount > 0)?.eligiblePlayers ?? [];
      version = await host.must({ type: 'declareWinners', winnerIds: eligible.slice(0, 1) });
    } else if (gs.currentTurnPlayerId) {
      const actor = byId.get(gs.currentTurnPlayerId);
      if (!actor) throw new Error(`turn of unknown player ${gs.currentTurnPlayerId}`);
      version = await actor.must({ type: 'act', action: 'CALL' });
    } else if (gs.canAdvanceStage) {
      version = await host.must({ type: 'advanceStage' });
    } else {
      throw new Error(`hand stuck at ${gs.stage}: ${JSON.stringify(gs)}`);
    }
    await Promise.all(players.map((p) => p.waitForVersion(version)));
  }
  throw new Error('hand did not reach showdown in 200 steps');
}
