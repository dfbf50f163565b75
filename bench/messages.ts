/** IPC messages between the load benchmark's orchestrator (load.ts) and its worker processes (load-worker.ts). */
import type { RoomSnapshot } from '../src/shared/protocol';

/** 'server' drives the real Chipless server; 'floor' drives the bare rebroadcast server (floor-server.ts). */
export type TargetMode = 'server' | 'floor';

/** What one worker process is asked to drive. */
export interface WorkerSetup {
  type: 'setup';
  mode: TargetMode;
  url: string;
  /** Rooms this worker drives (6 sockets each). */
  rooms: number;
  /** Index of this worker's first room (names, seeds). */
  firstRoom: number;
  /** Commands per room per second (think time mean = 1000 / rate ms). */
  ratePerRoom: number;
  /** Rooms being set up at once by this worker. */
  setupConcurrency: number;
  seed: number;
}

/** Orchestrator → worker. */
export type ToWorker =
  | WorkerSetup
  /** Start playing (not measured yet). */
  | { type: 'play' }
  /** From now on, commands emitted are measured. */
  | { type: 'measure' }
  /** Stop emitting, wait for commands in flight, report. */
  | { type: 'stop' }
  /** Disconnect every socket and exit. */
  | { type: 'close' };

/** Counters of one worker over the measured window. */
export interface WorkerCounts {
  /** Commands emitted while measuring. */
  sent: number;
  /** Completed: acked with a new version and every socket of the room holding it. */
  completed: number;
  /** Refused by the server (ok: false), by error text. */
  errors: Record<string, number>;
  /** Acked with no new version (the engine ignored it). */
  noops: number;
  /** Not acked or not seen by every socket within the timeout. */
  timeouts: number;
  /** Times a room had no legal move to make (waited and retried). */
  stuck: number;
  /** Socket disconnects during the run, any reason. */
  disconnects: number;
  /** 'gone' messages received. */
  gone: number;
  /** Hands started (newHand commands completed) while measuring. */
  hands: number;
}

/** All counters at zero. */
export function emptyCounts(): WorkerCounts {
  return {
    sent: 0,
    completed: 0,
    errors: {},
    noops: 0,
    timeouts: 0,
    stuck: 0,
    disconnects: 0,
    gone: 0,
    hands: 0,
  };
}

/** Worker → orchestrator. */
export type FromWorker =
  | { type: 'ready'; setupMs: number; sockets: number }
  | { type: 'failed'; error: string }
  | {
      type: 'results';
      /** Round-trip latencies (ms) of measured commands: emit → every socket of the room holds the new version. */
      latencies: number[];
      counts: WorkerCounts;
      /** Measured window as this worker saw it (ms). */
      windowMs: number;
      /** This worker's CPU time over the measured window (ms). */
      cpuMs: number;
      /**
       * How late this worker's event loop ran a 10 ms timer over the measured window (ms; before
       * session 21 the timer's whole interval, 10 ms more).
       */
      loopDelay: { p50: number; p99: number; max: number };
      /** Mean size (bytes, JSON) of the snapshots received while measuring (sampled). */
      snapshotBytes: number;
      /** A snapshot seen mid-game, to make the floor's payload the same size and shape. */
      sampleSnapshot: RoomSnapshot | null;
    }
  | { type: 'closed' };
