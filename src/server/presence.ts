/**
 * Presence: the players with at least one socket in a room, on any server process. Every snapshot
 * carries it, so it is asked once per broadcast; asking every process each time (fetchSockets through
 * the Redis adapter: a PUBSUB NUMSUB, a request and one response per process) was most of the cost of
 * a broadcast in scale-out. Here:
 *
 * - This process's sockets are read live from the adapter's room table (no I/O, always current).
 * - With one process (the in-memory adapter) that is all there is: nothing is cached or sent.
 * - With several processes, the players other processes have in a room are asked once (fetchSockets)
 *   and kept until something says they may have changed:
 *   - another process announces a change in that room (`chipless:presence`, sent by each process when
 *     a player's first socket joins or last socket leaves the room there; one pub/sub hop);
 *   - the number of processes on the adapter changed (a process died or started; checked when presence
 *     is asked, at most every `serverCheckMs`, without waiting for the answer);
 *   - `maxAgeMs` passed (announcements are fire-and-forget: one lost while a Redis connection was
 *     down is corrected by then);
 *   - this process has no socket left in the room (the entry is dropped, which also bounds memory).
 *   A result that was invalidated while its request was on the way is not kept, and is asked again.
 * - While the number of processes, as last checked, is one (this process is alone on the adapter),
 *   nobody is asked: the other processes' players are none, held like an answer under the same rules.
 *   The adapter's fetchSockets would answer the same after a `PUBSUB NUMSUB` of its own; at 1,000
 *   rooms that round trip was made ~100 times a second, and the command whose broadcast found its
 *   room's answer stale waited for it. A process that appears is noticed by its first announcement
 *   (which also stops this shortcut until a count asked after it is in) or by the next count check,
 *   which drops every held answer.
 * - When a request fails (a process alive but unresponsive: frozen loop, SIGSTOP, partition; it times
 *   out after the adapter's requestsTimeout), presence is what this process sees plus what it still
 *   holds, without asking anyone, for `localOnlyMs`: broadcasts do not wait for the frozen process
 *   each time.
 *
 * The snapshot a process sends when a player appears or goes can cross a broadcast another process
 * made just before it learnt of the change (with an older presence and a newer version, which phones
 * prefer). So `onSettle` listeners are told to broadcast the room again (the gateway does, with the
 * stored state and presence as known then), `settleMs` after:
 *   - a change in the room on this process (by then the other processes normally have the news);
 *   - the news of a change on another process, when this process answered for that room from what it
 *     held since shortly before the change (`CLOCK_MARGIN_MS` before the sender's time): one of its
 *     broadcasts may have carried the old presence, however late the news came.
 */
import { createRequire } from 'node:module';
import type { ChiplessServer } from './socket-gateway';

/**
 * The server-side event a process sends (to the others) when its players in a room changed:
 * `(roomCode, at)`, `at` being the sender's Date.now().
 */
export const PRESENCE_CHANGED = 'chipless:presence';

/** Clocks of processes differ by less than this (ms); see the settle rules above. */
const CLOCK_MARGIN_MS = 1000;

/** Options of createPresence; the defaults are what the server runs with. */
export interface PresenceOptions {
  /**
   * Which Socket.IO rooms are game rooms whose presence matters (default: all). Changes in other rooms
   * are not announced. A socket's own room (its id) never is.
   */
  tracks?: (room: string) => boolean;
  /** How long another process's players in a room are kept at most (default 10 s). */
  maxAgeMs?: number;
  /** After a failed request to the other processes, do not ask them for this long (default 10 s). */
  localOnlyMs?: number;
  /** Delay of a settle broadcast after a change, or the news of one, in a room (default 300 ms). */
  settleMs?: number;
  /** How often at most the number of processes is checked (default 1 s). */
  serverCheckMs?: number;
  /** Clock (default Date.now). */
  now?: () => number;
}

/** Who is connected to each room, across processes: what snapshots show as each player's `connected`. */
export interface Presence {
  /** False with the in-memory adapter: one process, presence is local and nothing is sent. */
  readonly crossProcess: boolean;
  /** Ids of the players with at least one socket in the room, on any process. */
  online(roomCode: string): Promise<Set<string>>;
  /**
   * Calls `listener(roomCode)` when the room should be broadcast again (the settle rules above; only
   * with several processes). Returns a function that removes the listener; without listeners nothing
   * is scheduled.
   */
  onSettle(listener: (roomCode: string) => void): () => void;
  /** How many rooms' answers from other processes are held (only rooms with a socket here). */
  heldRooms(): number;
}

type InMemoryAdapterModule = typeof import('socket.io-adapter');
/** The in-memory adapter class Socket.IO uses when given none (loaded the way socket.io loads it). */
const InMemoryAdapter = (() => {
  const fromHere = createRequire(import.meta.url);
  const fromSocketIo = createRequire(fromHere.resolve('socket.io'));
  return (fromSocketIo('socket.io-adapter') as InMemoryAdapterModule).Adapter;
})();

/** Another process's players in one room, as last asked. */
interface RemoteEntry {
  /** Null while the request is on the way. */
  players: Set<string> | null;
  /** The request; null once answered. Resolves to null when it failed. */
  pending: Promise<Set<string> | null> | null;
  /** When the request was sent. */
  askedAt: number;
  /** When presence was last answered with `players` (-Infinity: never). */
  servedAt: number;
  /** The process-count epoch it belongs to. */
  epoch: number;
}

/** Server-side events, untyped (the typed server declares none). */
interface ServerSideEvents {
  on(event: string, listener: (...args: unknown[]) => void): unknown;
  serverSideEmit(event: string, ...args: unknown[]): boolean;
}

/** Presence over `io`'s adapter: local sockets, and with several processes their answers (the file comment). */
export function createPresence(io: ChiplessServer, options: PresenceOptions = {}): Presence {
  const nsp = io.of('/');
  const adapter = nsp.adapter;

  /** Players with a socket of this process in the room. */
  const localPlayers = (roomCode: string): Set<string> => {
    const players = new Set<string>();
    const ids = adapter.rooms.get(roomCode);
    if (!ids) return players;
    for (const id of ids) {
      const playerId = nsp.sockets.get(id)?.data.playerId;
      if (playerId !== undefined) players.add(playerId);
    }
    return players;
  };

  if (Object.getPrototypeOf(adapter) === InMemoryAdapter.prototype) {
    return {
      crossProcess: false,
      online: async (roomCode) => localPlayers(roomCode),
      onSettle: () => () => {},
      heldRooms: () => 0,
    };
  }

  const tracks = options.tracks ?? (() => true);
  const maxAgeMs = options.maxAgeMs ?? 10_000;
  const localOnlyMs = options.localOnlyMs ?? 10_000;
  const settleMs = options.settleMs ?? 300;
  const serverCheckMs = options.serverCheckMs ?? 1000;
  const now = options.now ?? Date.now;
  const events = nsp as unknown as ServerSideEvents;

  /**
   * Whether less than `ms` has passed since `since` (this clock). A clock stepped back since (NTP, a
   * resumed VM) says not: an age below zero would keep an answer, the local-only window or the checks'
   * spacing for the step's length on top (the clock audit, session 38).
   */
  const within = (since: number, ms: number) => {
    const age = now() - since;
    return age >= 0 && age < ms;
  };

  const remote = new Map<string, RemoteEntry>();
  let epoch = 0;
  /** When a request to the other processes last failed: local answers only for localOnlyMs from then. */
  let localOnlySince = Number.NEGATIVE_INFINITY;

  let servers = -1;
  let lastServerCheck = Number.NEGATIVE_INFINITY;
  let checkingServers = false;
  /**
   * Announcements heard (only other processes announce), and how many had been heard when the count
   * in `servers` was asked: one heard since means another process, whatever that count said.
   */
  let heard = 0;
  let heardAtCount = 0;
  /** Starts a check of the number of processes when one is due; a change invalidates every entry. */
  const checkServers = () => {
    if (checkingServers || within(lastServerCheck, serverCheckMs)) return;
    checkingServers = true;
    lastServerCheck = now();
    const heardBefore = heard;
    adapter.serverCount().then(
      (count) => {
        checkingServers = false;
        if (servers !== -1 && count !== servers) epoch++;
        servers = count;
        heardAtCount = heardBefore;
      },
      () => {
        checkingServers = false;
      },
    );
  };

  /** The answer while this process is alone on the adapter (no other players), held and served now. */
  const alone = (roomCode: string): Set<string> => {
    const players = new Set<string>();
    const t = now();
    remote.set(roomCode, { players, pending: null, askedAt: t, servedAt: t, epoch });
    return players;
  };

  /** Asks every process for the room's sockets; keeps the other processes' players unless invalidated meanwhile. */
  const ask = (roomCode: string): RemoteEntry => {
    const entry: RemoteEntry = {
      players: null,
      pending: null,
      askedAt: now(),
      servedAt: Number.NEGATIVE_INFINITY,
      epoch,
    };
    remote.set(roomCode, entry);
    entry.pending = nsp
      .in(roomCode)
      .fetchSockets()
      .then(
        (sockets) => {
          const players = new Set<string>();
          for (const s of sockets) if (!nsp.sockets.has(s.id)) players.add(s.data.playerId);
          entry.players = players;
          entry.pending = null;
          return players;
        },
        () => {
          localOnlySince = now();
          if (remote.get(roomCode) === entry) remote.delete(roomCode);
          return null;
        },
      );
    return entry;
  };

  const isCurrent = (roomCode: string, entry: RemoteEntry) =>
    remote.get(roomCode) === entry && entry.epoch === epoch && within(entry.askedAt, maxAgeMs);

  /** The other processes' players in the room; null when they cannot be asked now (local only). */
  const remotePlayers = async (roomCode: string): Promise<Set<string> | null> => {
    checkServers();
    let last: Set<string> | null = null;
    // A change announced while the request was on the way makes its answer unreliable: ask again,
    // a bounded number of times (under constant churn the newest answer is used).
    for (let attempt = 0; attempt < 3; attempt++) {
      let entry = remote.get(roomCode);
      if (entry && !isCurrent(roomCode, entry)) {
        remote.delete(roomCode);
        entry = undefined;
      }
      if (entry?.players) {
        entry.servedAt = now();
        return entry.players;
      }
      if (!entry) {
        if (within(localOnlySince, localOnlyMs)) return last;
        if (servers === 1 && heard === heardAtCount) return alone(roomCode);
        entry = ask(roomCode);
      }
      last = await entry.pending;
      if (last === null) return null;
      if (isCurrent(roomCode, entry)) {
        entry.servedAt = now();
        return last;
      }
    }
    return last;
  };

  /**
   * Drops, at most once per maxAgeMs, the answers past maxAgeMs held for rooms without a socket here.
   * A room is asked about after its last socket here left (the presence refresh of that leave), and
   * nothing else would ever drop that answer: one entry per room ever left would pile up.
   */
  let lastSweep = now();
  const sweep = () => {
    if (within(lastSweep, maxAgeMs)) return;
    lastSweep = now();
    for (const [room, entry] of remote) {
      if (entry.pending === null && !within(entry.askedAt, maxAgeMs) && !adapter.rooms.has(room))
        remote.delete(room);
    }
  };

  const settleListeners = new Set<(roomCode: string) => void>();
  /** Rooms with a settle broadcast scheduled; `again` when another change came after scheduling. */
  const settling = new Map<string, { timer: NodeJS.Timeout; again: boolean }>();
  const scheduleSettle = (roomCode: string) => {
    if (settleListeners.size === 0) return;
    const scheduled = settling.get(roomCode);
    if (scheduled) {
      scheduled.again = true;
      return;
    }
    const timer = setTimeout(() => {
      const again = settling.get(roomCode)?.again ?? false;
      settling.delete(roomCode);
      for (const listener of settleListeners) listener(roomCode);
      if (again) scheduleSettle(roomCode);
    }, settleMs);
    timer.unref();
    settling.set(roomCode, { timer, again: false });
  };

  /** A socket joined or left a room here: when that changed this process's players there, say so. */
  const onLocalChange = (room: string, socketId: string) => {
    if (room === socketId || !tracks(room)) return;
    const playerId = nsp.sockets.get(socketId)?.data.playerId;
    if (playerId !== undefined) {
      for (const other of adapter.rooms.get(room) ?? []) {
        if (other !== socketId && nsp.sockets.get(other)?.data.playerId === playerId) return;
      }
    }
    events.serverSideEmit(PRESENCE_CHANGED, room, now());
    scheduleSettle(room);
  };
  adapter.on('join-room', onLocalChange);
  adapter.on('leave-room', onLocalChange);
  adapter.on('delete-room', (room: string) => remote.delete(room));
  events.on(PRESENCE_CHANGED, (room, at) => {
    if (typeof room !== 'string') return;
    heard++;
    const entry = remote.get(room);
    remote.delete(room);
    const changedAt = typeof at === 'number' && Number.isFinite(at) ? at : now();
    if (entry && entry.servedAt >= changedAt - CLOCK_MARGIN_MS) scheduleSettle(room);
  });

  return {
    crossProcess: true,
    async online(roomCode) {
      sweep();
      const others = await remotePlayers(roomCode);
      // Read after the wait, so this process's part is current.
      const players = localPlayers(roomCode);
      if (others) for (const id of others) players.add(id);
      return players;
    },
    heldRooms: () => remote.size,
    onSettle(listener) {
      settleListeners.add(listener);
      return () => {
        settleListeners.delete(listener);
        if (settleListeners.size > 0) return;
        for (const { timer } of settling.values()) clearTimeout(timer);
        settling.clear();
      };
    },
  };
}
