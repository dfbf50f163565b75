/**
 * Builds the application on an HTTP server from injected parts (store, config, logger, clock, Socket.IO
 * adapter): the static site and JSON API on HTTP, the realtime protocol on Socket.IO, the room service
 * between them, analytics and the idle-room cleanup. main.ts composes it for production; tests do the same
 * with a temporary data dir (see test-helpers.ts).
 */
import type { Server as HttpServer, IncomingMessage } from 'node:http';
import { fileURLToPath } from 'node:url';
import { Server, type ServerOptions } from 'socket.io';
import { MAX_MESSAGE_BYTES } from '../shared/limits';
import { createAnalytics } from './analytics';
import { createBroadcaster } from './broadcaster';
import { type Cleanup, startCleanup } from './cleanup';
import { type Config, ConfigError, readOrCreateSecretFile } from './config';
import { createConnectionLimit, type EngineEvents, oneSocketPerConnection } from './connection-limit';
import { createHttpApi } from './http-api';
import { createIdentity } from './identity';
import type { Logger } from './logger';
import { type EngineServer, limitQueuedBytes } from './outgoing-limit';
import { clientIp } from './rate-limit';
import { RoomService } from './room-service';
import { directRooms, type Rooms } from './rooms';
import { snapshotParser } from './snapshot-encoder';
import { attachGateway, type ChiplessServer } from './socket-gateway';
import { createStaticSite } from './static-site';
import type { RoomStore } from './store/room-store';
import { type RoomThread, threadRooms } from './thread-rooms';

/** Where `vite build` puts the web app (vite.config.ts). */
export const DEFAULT_WEB_DIR = fileURLToPath(new URL('../../dist/web', import.meta.url));

/**
 * Socket.IO closes a connection whose single message exceeds this. It is above MAX_MESSAGE_BYTES on
 * purpose: messages between the two get the protocol's 'Invalid request' answer and the connection
 * goes on; only absurd ones (over 4x the limit) cost the sender its connection (it reconnects and resumes).
 */
const TRANSPORT_MAX_BYTES = 4 * MAX_MESSAGE_BYTES;

export interface ApplicationParts {
  /**
   * Where the rooms are, one of the two: a store, for the room service on this thread (Redis mode, and
   * tests that need an injected clock), or the room thread (thread-rooms.ts), which runs the room service
   * over the SQLite store it holds (rooms.ts).
   */
  store?: RoomStore;
  roomThread?: RoomThread;
  config: Config;
  logger: Logger;
  /** Clock (ms); tests may pass a fake one. The room thread keeps its own (Date.now). */
  now?: () => number;
  /** Socket.IO adapter constructor (e.g. from @socket.io/redis-adapter) for several processes. */
  adapter?: ServerOptions['adapter'];
  /** Built web app; default dist/web. */
  webDir?: string;
}

/** The running application. */
export interface Application {
  io: ChiplessServer;
  rooms: Rooms;
  cleanup: Cleanup;
  /**
   * Graceful stop: refuse new connections and commands, finish the queued commands, then disconnect
   * every socket and close the HTTP server. The store or the room thread stays open (its owner closes it).
   */
  close(): Promise<void>;
  /** Crash-like stop for tests: drop every connection at once, no draining. */
  destroy(): void;
}

/** Attaches the application to `httpServer` (not yet listening, or listening). */
export function createApplication(httpServer: HttpServer, parts: ApplicationParts): Application {
  const { store, roomThread, config, logger } = parts;
  if ((store === undefined) === (roomThread === undefined))
    throw new TypeError('createApplication: give it a store or a room thread, not both');
  const now = parts.now ?? Date.now;
  const secret = config.sessionSecret ?? sessionSecretFor(config);
  const identity = createIdentity(secret);
  // Counters of commands are bumped where the room service runs; these are the HTTP API's.
  const analytics = createAnalytics((store ?? roomThread)!, logger, now);

  // The client IP per-IP limits key on (rate-limit.ts).
  const ipOf = (req: IncomingMessage) => clientIp(req.headers, req.socket.remoteAddress, config.trustProxy);

  // Set by close(): from then on GET /readyz sends traffic elsewhere.
  let closing: Promise<void> | null = null;
  // GET /readyz: no traffic to a process that is stopping, or whose store (Redis) does not answer.
  const notReady = async (): Promise<string | undefined> => {
    if (closing) return 'shutting down';
    if (!store?.ping) return undefined;
    try {
      await store.ping();
    } catch (err) {
      logger.debug({ err }, 'readiness: the store did not answer');
      return 'store not answering';
    }
    return closing ? 'shutting down' : undefined;
  };

  const api = createHttpApi({
    config,
    analytics,
    logger,
    now,
    clientIp: ipOf,
    notReady,
  });
  const site = createStaticSite({
    webDir: parts.webDir ?? DEFAULT_WEB_DIR,
    publicUrl: config.publicUrl,
    trustProxy: config.trustProxy,
  });

  // Registered before Socket.IO attaches: engine.io then passes us every request outside /socket.io/.
  httpServer.on('request', (req, res) => {
    void (async () => {
      try {
        // Answers the API and the site do not write themselves (400, 405, 500) are no documents either.
        res.setHeader('X-Content-Type-Options', 'nosniff');
        res.setHeader('X-Frame-Options', 'DENY');
        // A request target that is no URL (`GET http://[`) is the client's error, not ours.
        if (!URL.canParse(req.url ?? '/', 'http://x')) {
          res.statusCode = 400;
          res.end();
          return;
        }
        if (await api(req, res)) return;
        if (await site(req, res)) return;
        res.statusCode = 405;
        res.setHeader('Allow', 'GET, HEAD');
        res.end();
      } catch (err) {
        logger.error({ err, url: req.url }, 'http request failed');
        if (!res.headersSent) res.statusCode = 500;
        res.end();
      }
    })();
  });

  // Connections open and opened a minute per IP (connection-limit.ts).
  const connectionLimit = createConnectionLimit({
    maxOpenPerIp: config.connectionsPerIp,
    handshakesPerIpPerMin: config.connectRatePerIpPerMin,
    clientIp: ipOf,
    now,
    onRefused: (ip, reason) => logger.debug({ ip, reason }, 'connection refused'),
  });
  const io: ChiplessServer = new Server(httpServer, {
    allowRequest: connectionLimit.allowRequest,
    maxHttpBufferSize: TRANSPORT_MAX_BYTES,
    // Snapshots reuse the room JSON the store just wrote instead of serialising the room again.
    parser: snapshotParser,
    serveClient: false,
    ...(parts.adapter ? { adapter: parts.adapter } : {}),
  });
  // A phone that stops reading is dropped once its backlog passes a budget (outgoing-limit.ts).
  const stopLimiting = limitQueuedBytes(io.engine as unknown as EngineServer, {
    onDrop: (_conn, queuedBytes) => logger.warn({ queuedBytes }, 'connection not reading; dropped'),
  });
  const stopCounting = connectionLimit.attach(io.engine as unknown as EngineEvents);
  oneSocketPerConnection(io);
  const broadcaster = createBroadcaster(io);
  const rooms = store
    ? directRooms(
        new RoomService({
          store,
          logger,
          now,
          broadcaster,
          onEvents: ({ byHost, events }) => analytics.recordEvents(events, byHost),
        }),
        store,
        broadcaster,
      )
    : threadRooms(roomThread!, io, broadcaster, logger);
  const stopGateway = attachGateway({ io, rooms, identity, config, logger, now, broadcaster });
  const cleanup = startCleanup({ io, rooms, config, logger, now });

  return {
    io,
    rooms,
    cleanup,
    close() {
      closing ??= (async () => {
        cleanup.stop();
        stopGateway();
        stopLimiting();
        stopCounting();
        if (httpServer.listening) httpServer.close();
        rooms.stopAccepting();
        await rooms.drain();
        // io.close() waits for every WebSocket to finish its closing handshake, which a phone that
        // stopped reading (or lost its network) never answers: `ws` waits 30 s for it, three times
        // main.ts's whole shutdown budget. It also waits for the HTTP server's close, which waits for
        // every connection, such as a beacon whose body never finishes arriving. Phones that answer
        // get CLOSE_GRACE_MS; then the rest are ended, WebSockets and HTTP connections alike.
        const webSockets = openWebSockets(io);
        const closed = io.close();
        let grace: NodeJS.Timeout | undefined;
        await Promise.race([closed, new Promise((resolve) => (grace = setTimeout(resolve, CLOSE_GRACE_MS)))]);
        clearTimeout(grace);
        for (const ws of webSockets) ws.terminate();
        httpServer.closeAllConnections();
        await closed;
      })();
      return closing;
    },
    destroy() {
      cleanup.stop();
      stopGateway();
      stopLimiting();
      stopCounting();
      rooms.stopAccepting();
      const webSockets = openWebSockets(io);
      io.engine.close();
      for (const ws of webSockets) ws.terminate();
      if (httpServer.listening) httpServer.close();
      httpServer.closeAllConnections();
    },
  };
}

/**
 * How long a graceful stop lets connected phones answer their WebSocket's closing handshake (a phone
 * on a table's Wi-Fi answers in well under a second) before their connections are ended anyway.
 */
const CLOSE_GRACE_MS = 1000;

/** The `ws` WebSockets of the connections open now (long-polling ones have none). */
function openWebSockets(io: ChiplessServer): Array<{ terminate(): void }> {
  const clients = (io.engine as unknown as { clients: Record<string, { transport: { socket?: unknown } }> })
    .clients;
  const sockets: Array<{ terminate(): void }> = [];
  for (const conn of Object.values(clients)) {
    const ws = conn.transport.socket as { terminate?: unknown } | undefined;
    if (typeof ws?.terminate === 'function') sockets.push(ws as { terminate(): void });
  }
  return sockets;
}

/** The secret when SESSION_SECRET is unset: SQLite keeps a generated one in DATA_DIR. */
function sessionSecretFor(config: Config): string {
  if (config.store === 'sqlite') return readOrCreateSecretFile(config.dataDir);
  throw new ConfigError(
    'SESSION_SECRET is required with STORE=redis (every process must sign tokens with the same secret)',
  );
}
