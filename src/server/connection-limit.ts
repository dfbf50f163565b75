/**
 * Connections per IP: how many may be open at once (CONNECTIONS_PER_IP) and how many may be opened a
 * minute (CONNECT_RATE_PER_IP_PER_MIN), counted by this process.
 *
 * Without them one client could open sockets until the process ran out of memory or descriptors (each
 * open connection holds a few KB and a descriptor), or open and close them in a loop, each handshake
 * costing a signed token and a presence change (session 33's security audit). A poker table is up to
 * ten phones on one home Wi-Fi, each with a tab or two and a reconnection after every wake: the
 * defaults (100 open, 120 a minute) leave a whole bar of tables behind one address room to spare.
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

/** The answer a refused handshake carries (Engine.IO sends it as the 403's message). */
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
