/**
 * Composition root (`npm start`): environment -> config -> store (SQLite: on the room thread,
 * thread-rooms.ts, unless ROOM_THREAD=false) -> session secret -> Socket.IO adapter (Redis pub/sub
 * with STORE=redis) -> web build (when missing or stale) -> HTTP server -> application -> listen.
 * SIGTERM/SIGINT stop it gracefully: no new connections or commands, queued commands finish, sockets
 * close, the store closes, exit 0. The room thread ending on its own ends the process (exit 1):
 * without it no room can be served, and the store keeps every acknowledged command.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import type { ServerOptions } from 'socket.io';
import { type Application, createApplication, DEFAULT_WEB_DIR } from './app';
import { type Config, ConfigError, loadConfig, randomSecret, readOrCreateSecretFile } from './config';
import { lowerHelperThreads } from './helper-threads';
import { createLogger, type Logger } from './logger';
import { onUntrustedForwardedFor } from './rate-limit';
import { createStore } from './store';
import type { RoomStore } from './store/room-store';
import { SQLITE_FILE_NAME } from './store/sqlite-store';
import { type RoomThread, startRoomThread } from './thread-rooms';
import { buildWebIfStale } from './web-build';

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** The version in package.json, or null when it cannot be read. */
function packageVersion(): string | null {
  try {
    const { version } = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as {
      version?: unknown;
    };
    return typeof version === 'string' ? version : null;
  } catch {
    return null;
  }
}

/** Longest a graceful shutdown may take before the process exits anyway. */
const SHUTDOWN_TIMEOUT_MS = 10_000;

/**
 * SESSION_SECRET, else the generated one: in DATA_DIR (SQLite) or shared through Redis. SQLite:
 * `storedDatabase` is the database file found before the store opened, if any; a secret generated
 * beside it is one that was lost (logged as an error).
 */
async function resolveSessionSecret(
  config: Config,
  logger: Logger,
  storedDatabase: string | undefined,
): Promise<string> {
  if (config.sessionSecret) return config.sessionSecret;
  if (config.store === 'sqlite') return readOrCreateSecretFile(config.dataDir, { logger, storedDatabase });
  if (!config.redisUrl) throw new ConfigError('REDIS_URL is required when STORE=redis');
  const { sharedSessionSecret } = await import('./store/redis-session-secret');
  return sharedSessionSecret(config.redisUrl, randomSecret(), { keyPrefix: config.redisKeyPrefix });
}

/** The Socket.IO adapter for the store: Redis pub/sub when rooms live in Redis, else in-memory. */
async function createAdapter(
  config: Config,
  logger: Logger,
): Promise<{ adapter?: ServerOptions['adapter']; close: () => Promise<void> }> {
  if (config.store !== 'redis' || !config.redisUrl) return { close: async () => {} };
  const { createRedisAdapter } = await import('./redis-adapter');
  return createRedisAdapter(config.redisUrl, {
    keyPrefix: config.redisKeyPrefix,
    // Presence asks the other processes now and then (presence.ts); a frozen one must not hold a
    // room's commands for long (presence.ts then uses what this process knows for a while).
    requestsTimeoutMs: 750,
    onError: (err) => logger.warn({ err }, 'redis adapter connection error'),
  });
}

/** What a failed listen means to the person who ran `npm start`: a ConfigError (no stack) for the usual two. */
function listenError(err: NodeJS.ErrnoException, config: Config): Error {
  const where = `${config.host ?? 'every address'}, port ${config.port}`;
  if (err.code === 'EADDRINUSE')
    return new ConfigError(
      `Port ${config.port} is already in use (${where}): another Chipless or another program listens there. Stop it, or set PORT to a free port.`,
    );
  if (err.code === 'EACCES')
    return new ConfigError(
      `Not allowed to listen on port ${config.port} (${where}): ports below 1024 need privileges. Set PORT to 1024 or above.`,
    );
  if (err.code === 'EADDRNOTAVAIL')
    return new ConfigError(
      `HOST ${config.host} is not an address of this machine: set HOST to one of its addresses.`,
    );
  return err;
}

async function main(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig(process.env);
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n`);
    process.exit(1);
  }
  const logger = createLogger(config.logLevel);
  if (!config.trustProxy) {
    onUntrustedForwardedFor(() =>
      logger.warn(
        "a request came with an X-Forwarded-For header while TRUST_PROXY is off: behind a reverse proxy, every phone has the proxy's address and all of them share its per-IP rate limits (joins, connections). If your proxy appends its client's address to X-Forwarded-For (nginx: $proxy_add_x_forwarded_for), set TRUST_PROXY=true; without a proxy, a client wrote the header and it is ignored (said once per process)",
      ),
    );
  }
  // Before the heap grows: from the next garbage collection on, V8 sizes the heap with this factor.
  if (config.heapGrowingPercent > 0)
    setFlagsFromString(`--heap-growing-percent=${config.heapGrowingPercent}`);

  const database = join(config.dataDir, SQLITE_FILE_NAME);
  let store: RoomStore | undefined;
  let roomThread: RoomThread | undefined;
  try {
    if (config.store === 'sqlite' && config.roomThread) {
      roomThread = await startRoomThread({
        dataDir: config.dataDir,
        logLevel: config.logLevel,
        onUnexpectedExit: (code, err) => {
          logger.fatal({ code, err }, 'the room thread stopped; exiting');
          logger.flush();
          process.exit(1);
        },
      });
    } else {
      store = await createStore(config, logger);
    }
  } catch (err) {
    throw config.store === 'sqlite' ? storeOpenError(err, database, config.dataDir) : err;
  }
  // A database that holds rooms: a secret made beside it now is one that was lost. Not merely a file:
  // a first start that failed on a full disk leaves an empty database and no secret (session 36's
  // review).
  const idle = roomThread ?? store;
  const storedDatabase =
    config.store === 'sqlite' && idle && (await idle.listIdle(Number.POSITIVE_INFINITY)).length > 0
      ? database
      : undefined;
  const sessionSecret = await resolveSessionSecret(config, logger, storedDatabase);
  if (config.store === 'redis' && config.redisUrl) {
    // Rooms are only as safe as Redis keeps them: say so at start when it would lose them.
    const { warnAboutRedisDurability } = await import('./store/redis-durability');
    await warnAboutRedisDurability(config.redisUrl, !config.sessionSecret, logger);
  }
  const adapter = await createAdapter(config, logger);
  if (!config.skipWebBuild) await buildWebIfStale(REPO_ROOT, DEFAULT_WEB_DIR, logger);

  const httpServer = createServer();
  const app: Application = createApplication(httpServer, {
    ...(store ? { store } : {}),
    ...(roomThread ? { roomThread } : {}),
    config: { ...config, sessionSecret },
    logger,
    ...(adapter.adapter ? { adapter: adapter.adapter } : {}),
  });

  await new Promise<void>((resolveListen, reject) => {
    httpServer.once('error', (err: NodeJS.ErrnoException) => reject(listenError(err, config)));
    httpServer.listen(config.port, config.host, () => {
      httpServer.off('error', reject);
      resolveListen();
    });
  });
  // Every helper the process starts with exists by now (V8's at start, the store's writer when it
  // opened). The room thread is no helper: the commands wait for it as for the event loop.
  const helperThreads = lowerHelperThreads(config.helperThreadsNice, roomThread?.threadIds).length;
  const address = httpServer.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  // What an operator checks first (session 36's operability audit): which build, where the rooms and
  // the secret are, and the settings a proxy or a deploy gets wrong. Never the secret itself.
  logger.info(
    {
      url: `http://${config.host ?? 'localhost'}:${port}`,
      port,
      version: packageVersion(),
      store: config.store,
      ...(config.store === 'sqlite'
        ? { dataDir: config.dataDir, roomThread: roomThread !== undefined }
        : { redisKeyPrefix: config.redisKeyPrefix }),
      secretFrom: config.sessionSecret ? 'SESSION_SECRET' : config.store === 'sqlite' ? 'DATA_DIR' : 'Redis',
      trustProxy: config.trustProxy,
      publicUrl: config.publicUrl ?? null,
      roomIdleMs: config.roomIdleMs,
      playingIdleMs: config.playingIdleMs,
      helperThreads,
    },
    'Chipless is listening',
  );

  let stopping = false;
  const shutdown = async (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    const force = setTimeout(() => {
      logger.error('shutdown timed out; exiting');
      process.exit(1);
    }, SHUTDOWN_TIMEOUT_MS);
    force.unref();
    try {
      await app.close();
      await adapter.close();
      await store?.close();
      await roomThread?.close();
      logger.info('stopped');
      logger.flush();
      process.exit(0);
    } catch (err) {
      logger.error({ err }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));
}

/**
 * Errors besides ConfigError whose message says what is wrong and what to do: printed as one line,
 * without a stack. By name: from the room thread they arrive as plain Errors carrying it.
 */
const ONE_LINE_ERRORS = new Set(['DataDirFullError', 'DataDirInUseError', 'StoreOpenError']);

/**
 * Whether an error opening the store is about the file or its folder (then StoreOpenError): SQLite's
 * can't-open, not-a-database, corrupt, read-only and permission errors, and the folder's own. Anything
 * else (a native module built for another Node: `npm rebuild`; a bug) keeps its own message and stack.
 * By code or by SQLite's words: from the room thread errors arrive as plain Errors with their message.
 */
function aboutTheFile(err: Error): boolean {
  const code = (err as NodeJS.ErrnoException).code ?? '';
  if (/^SQLITE_(CANTOPEN|NOTADB|CORRUPT|READONLY|PERM)/.test(code)) return true;
  if (['EEXIST', 'ENOTDIR', 'EACCES', 'EPERM', 'EROFS'].includes(code)) return true;
  return /unable to open database file|file is not a database|database disk image is malformed|attempt to write a readonly database|EEXIST|ENOTDIR|EACCES|EPERM|EROFS/.test(
    err.message,
  );
}

/**
 * The SQLite store could not open: a one-line error naming the file and what to check. SQLite's own
 * words ("unable to open database file", "file is not a database"), with a stack from the room
 * thread's messaging, named no path (session 36's operability audit). A full disk and a DATA_DIR in
 * use keep their own messages.
 */
function storeOpenError(err: unknown, database: string, dataDir: string): unknown {
  if (!(err instanceof Error) || ONE_LINE_ERRORS.has(err.name) || !aboutTheFile(err)) return err;
  const opened = new Error(
    `SQLite store: cannot open ${database} (${err.message.split('\n')[0]}). Check that DATA_DIR (${dataDir}) is a directory this user can write, and that the file is a Chipless database; a damaged one can be restored from a backup (README.md, Backups).`,
    { cause: err },
  );
  opened.name = 'StoreOpenError';
  return opened;
}

main().catch((err: unknown) => {
  if (err instanceof ConfigError || (err instanceof Error && ONE_LINE_ERRORS.has(err.name))) {
    process.stderr.write(`${err.message}\n`);
  } else {
    process.stderr.write(
      `Chipless failed to start: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
    );
  }
  process.exit(1);
});
