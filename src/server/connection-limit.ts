/**
 * Connections per IP: how many may be open at once (CONNECTIONS_PER_IP) and how many may be opened a
 * minute (CONNECT_RATE_PER_IP_PER_MIN), counted by this process.
 *
 * Without them one client could open sockets until the process ran out of memory or descriptors (each
 * open connection holds a few KB and a descriptor), or open and close them in a loop, each handshake
 * costing a signed token and a presence change (session 33's security audit). A poker table is up to
 * ten phones on one home Wi-Fi, each with a tab or two and a reconnection after every wake: the
 * defaults (300 open; 600 handshakes a minute, the burst too) leave several tables behind one address
 * room to spare, each phone reconnecting at once several times a minute (a restart, a Wi-Fi blip).
 * A connection dropped without a close (a Wi-Fi blip) stays counted until Engine.IO's ping timeout
 * (25 + 20 s) while its phone's new one counts too: at 100 open, three tables of ten phones with two
 * tabs each were refused for up to ~45 s after a blip (session 34's review).
 * The open cap bounds memory; the rate only bounds the churn's CPU, a fraction of a millisecond a
 * handshake, so it is generous: at 120 (2 a second once the burst is spent), three tables of ten
 * phones with two tabs each waited ~28 s on "Reconnecting…" after their second blip in a minute.
 *
 * Two checks, both on Engine.IO's handshake (a request without a session id; its polls and its
 * WebSocket upgrade are not handshakes):
 * - `allowRequest`, before anything is built for the request: refused with HTTP 403 when the IP has
 *   that many connections open or no handshake tokens left. socket.io-client treats it as a failed
 *   connection attempt and tries again with its back-off, so a phone over the limit gets in once a
 *   slot frees, with nothing lost (its room is resumed as after any reconnection).
 * - the engine's `connection` event: the count there is exact (a WebSocket handshake finishes after
 *   `allowRequest`, so many could pass it at once); a connection over the limit is closed at once.
 *
 * With several processes each counts its own connections: a client may hold the limit on each.
 * Behind a reverse proxy, TRUST_PROXY must be set, or every phone counts as the proxy's address.
 */
import type { IncomingMessage } from 'node:http';
import { KeyedRateLimiter } from './rate-limit';

/** What Socket.IO's `allowRequest` option is called with. */
export type AllowRequest = (
  req: IncomingMessage,
  callback: (err: string | null, success: boolean) => void,
) => void;

/** The Engine.IO server's part this module uses (its `connection` event). */
export interface EngineEvents {
  on(event: 'connection', listener: (conn: EngineConnection) => void): unknown;
  off(event: 'connection', listener: (conn: EngineConnection) => void): unknown;
}

/** The Engine.IO connection's part this module uses. */
export interface EngineConnection {
  request: IncomingMessage;
  once(event: 'close', listener: () => void): unknown;
  close(): void;
}

export interface ConnectionLimitOptions {
  /** Connections open at once per IP; 0 = no limit. */
  maxOpenPerIp: number;
  /** Handshakes per minute per IP (the burst too); 0 = no limit. */
  handshakesPerIpPerMin: number;
  /** The key of a request's client (rate-limit.ts clientIp). */
  clientIp: (req: IncomingMessage) => string;
  now: () => number;
  /** Told of each refusal (logged at debug by the caller). */
  onRefused?: (ip: string, reason: 'open' | 'rate') => void;
}

/**
 * The answer a refused handshake carries (Engine.IO sends it as the message of a long-polling
 * handshake's 403 or a WebSocket upgrade's 400).
 */
export const TOO_MANY_CONNECTIONS = 'Too many connections';

export interface ConnectionLimit {
  /** For `new Server(http, { allowRequest })`. */
  allowRequest: AllowRequest;
  /** Starts counting the engine's connections; returns the stop function. */
  attach(engine: EngineEvents): () => void;
  /** Connections open now from `ip` (tests). */
  openFrom(ip: string): number;
  /** IPs with a connection open (tests: the map empties as connections close). */
  readonly trackedIps: number;
}

/** The connect error of a second Socket.IO socket on one connection (then closed). */
const ONE_SOCKET_PER_CONNECTION = 'One socket per connection';

/** The namespace's part `oneSocketPerConnection` uses (its middleware). */
export interface NamespaceMiddleware {
  use(fn: (socket: MiddlewareSocket, next: (err?: Error) => void) => void): unknown;
}

/** The socket's part `oneSocketPerConnection` uses. */
interface MiddlewareSocket {
  conn: { close(): void };
  on(event: 'disconnect', listener: (this: MiddlewareSocket) => void): unknown;
}

/**
 * One Socket.IO socket at a time on each Engine.IO connection. Socket.IO makes a socket of every
 * CONNECT packet that arrives before the first socket is registered: one long-polling POST of 64 KB
 * carried ~21,000, each a fresh signed identity, so one connection (of the 300 an IP may hold) held
 * thousands of sockets (the connection-limit review: 17,500 on 5 connections). The phones open one
 * socket on '/' per connection, and connect again on a new connection; a second CONNECT while one is
 * live refuses it before any identity is made, and closes the connection (only a hand-made client does
 * this). A CONNECT after its socket disconnected is a phone's (socket.connect() again) and is let in.
 */
export function oneSocketPerConnection(namespace: NamespaceMiddleware): void {
  const live = new WeakSet<object>();
  // One listener shared by every socket (Socket.IO calls it with the socket as `this`), not a closure
  // per socket: socket-gateway.ts's listeners are shared for the memory at 6,000 sockets.
  function release(this: MiddlewareSocket) {
    live.delete(this.conn);
  }
  namespace.use((socket, next) => {
    const conn = socket.conn;
    if (live.has(conn)) {
      next(new Error(ONE_SOCKET_PER_CONNECTION));
      conn.close();
      return;
    }
    live.add(conn);
    socket.on('disconnect', release);
    next();
  });
}

export function createConnectionLimit(options: ConnectionLimitOptions): ConnectionLimit {
  const { maxOpenPerIp, handshakesPerIpPerMin, clientIp, now, onRefused } = options;
  const open = new Map<string, number>();
  const handshakes =
    handshakesPerIpPerMin > 0
      ? new KeyedRateLimiter(handshakesPerIpPerMin / 60, handshakesPerIpPerMin)
      : null;
  const atLimit = (ip: string) => maxOpenPerIp > 0 && (open.get(ip) ?? 0) >= maxOpenPerIp;

  const allowRequest: AllowRequest = (req, callback) => {
    const ip = clientIp(req);
    if (atLimit(ip)) {
      onRefused?.(ip, 'open');
      callback(TOO_MANY_CONNECTIONS, false);
      return;
    }
    if (handshakes && !handshakes.take(ip, now())) {
      onRefused?.(ip, 'rate');
      callback(TOO_MANY_CONNECTIONS, false);
      return;
    }
    callback(null, true);
  };

  const onConnection = (conn: EngineConnection) => {
    const ip = clientIp(conn.request);
    if (atLimit(ip)) {
      onRefused?.(ip, 'open');
      conn.close();
      return;
    }
    open.set(ip, (open.get(ip) ?? 0) + 1);
    conn.once('close', () => {
      const left = (open.get(ip) ?? 1) - 1;
      if (left > 0) open.set(ip, left);
      else open.delete(ip);
    });
  };

  return {
    allowRequest,
    attach(engine) {
      engine.on('connection', onConnection);
      // Full handshake buckets are forgotten, so the limiter holds only the IPs that connected lately.
      const sweep = handshakes ? setInterval(() => handshakes.sweep(now()), 60_000) : undefined;
      sweep?.unref();
      return () => {
        engine.off('connection', onConnection);
        clearInterval(sweep);
      };
    },
    openFrom: (ip) => open.get(ip) ?? 0,
    get trackedIps() {
      return open.size;
    },
  };
}
