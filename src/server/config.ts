/**
 * Server settings, all from environment variables (listed in README.md), parsed once at the boundary.
 */
import { randomBytes } from 'node:crypto';
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { isHttpUrl, isSitePath, PLAIN_EMAIL } from '../shared/links';
import { DEFAULT_HELPER_THREADS_NICE } from './helper-threads';
import type { Logger } from './logger';
import { isDiskFull } from './store/disk-full';

/**
 * A whole number written in decimal digits, `def` when unset or empty (as for text below: `PORT= npm
 * start` is the default port, not port 0). Number() alone took '' as 0, and '0x10' or '1e3' as numbers.
 */
const int = (def: number, min = 0, max = Number.MAX_SAFE_INTEGER) =>
  z
    .string()
    .optional()
    .transform((s) => (s === undefined || s.trim() === '' ? undefined : s.trim()))
    .pipe(z.string().regex(/^\d+$/, 'must be a whole number').optional())
    .transform((s) => (s === undefined ? def : Number(s)))
    .pipe(z.number().int().min(min).max(max));
/** The longest delay Node's timers take (ms); a longer one fires after 1 ms, every 1 ms for an interval. */
const MAX_TIMER_MS = 2_147_483_647;
/** Empty strings count as unset, so `FOO= npm start` behaves like no FOO. */
const optionalText = z
  .string()
  .optional()
  .transform((s) => (s && s.trim() !== '' ? s.trim() : undefined));

/**
 * How far V8 lets the heap grow past the live data before the next full garbage collection, in
 * percent (V8's --heap-growing-percent; 0 = V8's own choice). V8 picks up to 4x when collecting is cheap:
 * at 1,000 rooms it let ~115 MB of live data grow to ~370-400 MB of heap (peak RSS 500-613 MB). 150
 * (2.5x) kept the peak RSS at 448-456 MB for about the same CPU; 100 (2x) gave ~404 MB but cost
 * 60-100 µs more CPU per command and doubled p95. Measured in bench/README.md.
 */
const DEFAULT_HEAP_GROWING_PERCENT = 150;

const envSchema = z.object({
  PORT: int(3000).pipe(z.number().max(65535)),
  HOST: optionalText,
  DATA_DIR: z.string().min(1).default('./data'),
  STORE: z.enum(['sqlite', 'redis']).default('sqlite'),
  REDIS_URL: optionalText,
  REDIS_KEY_PREFIX: z.string().max(100).default('chipless:'),
  SESSION_SECRET: optionalText.pipe(z.string().min(16).optional()),
  // Both become links on the landing (mailto: and href): a plain address, and an http(s) URL or a path
  // of this site, so a mistyped or planted value (`javascript:`, `data:`, `//other.site`, `?bcc=`)
  // stops the start instead of reaching every phone. Empty hides the link.
  CONTACT_EMAIL: z
    .string()
    .default('hello@chipless.app')
    .refine((s) => s === '' || PLAIN_EMAIL.test(s), 'must be a plain e-mail address (or empty)'),
  // The spec's landing always has a support link; by default it points at the About page's support section.
  SUPPORT_URL: z
    .string()
    .default('/about#support')
    .refine(
      (s) => s === '' || isSitePath(s) || isHttpUrl(s),
      'must be an http(s) URL or a path starting with a single / (or empty)',
    ),
  // Written into every page's canonical links and the CSP's WebSocket origin: an http(s) origin only
  // (a single trailing slash allowed). A path, query or fragment would be pasted before each page's
  // own path (`https://x.example/app/about`) and never reach the CSP, which takes origins.
  PUBLIC_URL: optionalText.pipe(
    z
      .url({ protocol: /^https?$/ })
      .refine(
        (s) => /^https?:\/\/[^/?#@\\]+\/?$/i.test(s),
        'must be an origin only: http(s)://host[:port], without a path, query or fragment (e.g. https://chipless.example)',
      )
      .optional(),
  ),
  ROOM_IDLE_MS: int(600_000, 1, MAX_TIMER_MS),
  PLAYING_IDLE_MS: int(43_200_000, 1, MAX_TIMER_MS),
  CLEANUP_INTERVAL_MS: int(300_000, 1, MAX_TIMER_MS),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  TRUST_PROXY: z
    .enum(['true', 'false', '1', '0', ''])
    .default('false')
    .transform((s) => s === 'true' || s === '1'),
  COMMAND_RATE_PER_SEC: int(20, 1),
  COMMAND_BURST: int(40, 1),
  JOIN_RATE_PER_MIN: int(10, 1),
  JOIN_RATE_PER_IP_PER_MIN: int(60, 1),
  FAILED_LOOKUP_RATE_PER_MIN: int(20, 1),
  CONNECTIONS_PER_IP: int(300),
  CONNECT_RATE_PER_IP_PER_MIN: int(600),
  SKIP_WEB_BUILD: z
    .enum(['true', 'false', '1', '0', ''])
    .default('false')
    .transform((s) => s === 'true' || s === '1'),
  ROOM_THREAD: z
    .enum(['true', 'false', '1', '0', ''])
    .default('true')
    .transform((s) => s !== 'false' && s !== '0'),
  HEAP_GROWING_PERCENT: int(DEFAULT_HEAP_GROWING_PERCENT).pipe(z.number().max(1000)),
  HELPER_THREADS_NICE: int(DEFAULT_HELPER_THREADS_NICE).pipe(z.number().max(19)),
});

/** The parsed settings. */
export interface Config {
  port: number;
  /** Interface to listen on; undefined = all. */
  host: string | undefined;
  /** Absolute path of the data directory (SQLite file, generated session secret). */
  dataDir: string;
  store: 'sqlite' | 'redis';
  redisUrl: string | undefined;
  /** Prefix of every Redis key and pub/sub channel; processes sharing rooms share it (tests isolate with it). */
  redisKeyPrefix: string;
  /** Signs session tokens. Undefined until resolved by resolveSessionSecret. */
  sessionSecret: string | undefined;
  contactEmail: string;
  supportUrl: string;
  /** Origin used for canonical links (no trailing slash); else the request's host. */
  publicUrl: string | undefined;
  roomIdleMs: number;
  /**
   * How long a game in progress or over (status PLAYING or ENDED) is kept without activity and with
   * nobody connected: never less than roomIdleMs. A break with every phone locked must not cost the
   * table its game, nor the end of the night its results.
   */
  playingIdleMs: number;
  cleanupIntervalMs: number;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /**
   * Take the client IP and protocol from X-Forwarded-For / X-Forwarded-Proto (behind a reverse proxy).
   * The IP is X-Forwarded-For's right-most entry: the proxy must append its client's address there.
   */
  trustProxy: boolean;
  commandRatePerSec: number;
  commandBurst: number;
  /** Join and create attempts per minute and connection. */
  joinRatePerMin: number;
  /**
   * Join and create attempts per minute and IP. Higher than per connection: a whole table (up to ten
   * phones, a rejoin or a mistyped code among them) shares one home Wi-Fi's public address. Probing
   * codes through joins that find no room also costs failed-lookup tokens.
   */
  joinRatePerIpPerMin: number;
  /**
   * `resume`s and commands per minute and IP that find no room or a room the sender is not in (what
   * would tell a prober which room codes exist). Members' own lookups cost nothing.
   */
  failedLookupRatePerMin: number;
  /**
   * Socket.IO connections open at once per IP (connection-limit.ts); 0 = no limit. A table of ten phones
   * on one Wi-Fi holds ten to twenty, twice that for the ~45 s a dropped connection stays counted.
   */
  connectionsPerIp: number;
  /** Socket.IO handshakes per minute per IP (its burst too); 0 = no limit. */
  connectRatePerIpPerMin: number;
  /** Do not build the web app on start even when dist/web is missing (tests, API-only processes). */
  skipWebBuild: boolean;
  /**
   * SQLite mode: the room service and the store on a thread of their own (rooms.ts, thread-rooms.ts);
   * false keeps them on the event loop's thread. Redis mode always keeps them there.
   */
  roomThread: boolean;
  /** V8's heap growing factor in percent, applied by main.ts at start (0: V8's default). */
  heapGrowingPercent: number;
  /** Nice value of the process's threads other than the event loop (helper-threads.ts; 0: left as they are). */
  helperThreadsNice: number;
}

/** Thrown for a bad or incomplete configuration; main prints it and exits 1. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Parses the environment. Throws ConfigError naming each bad variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new ConfigError(`Invalid environment: ${problems}`);
  }
  const e = parsed.data;
  if (e.STORE === 'redis' && !e.REDIS_URL) throw new ConfigError('REDIS_URL is required when STORE=redis');
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: resolve(e.DATA_DIR),
    store: e.STORE,
    redisUrl: e.REDIS_URL,
    redisKeyPrefix: e.REDIS_KEY_PREFIX,
    sessionSecret: e.SESSION_SECRET,
    contactEmail: e.CONTACT_EMAIL,
    supportUrl: e.SUPPORT_URL,
    publicUrl: e.PUBLIC_URL === undefined ? undefined : new URL(e.PUBLIC_URL).origin,
    roomIdleMs: e.ROOM_IDLE_MS,
    playingIdleMs: Math.max(e.PLAYING_IDLE_MS, e.ROOM_IDLE_MS),
    cleanupIntervalMs: e.CLEANUP_INTERVAL_MS,
    logLevel: e.LOG_LEVEL,
    trustProxy: e.TRUST_PROXY,
    commandRatePerSec: e.COMMAND_RATE_PER_SEC,
    commandBurst: e.COMMAND_BURST,
    joinRatePerMin: e.JOIN_RATE_PER_MIN,
    joinRatePerIpPerMin: e.JOIN_RATE_PER_IP_PER_MIN,
    failedLookupRatePerMin: e.FAILED_LOOKUP_RATE_PER_MIN,
    connectionsPerIp: e.CONNECTIONS_PER_IP,
    connectRatePerIpPerMin: e.CONNECT_RATE_PER_IP_PER_MIN,
    skipWebBuild: e.SKIP_WEB_BUILD,
    roomThread: e.ROOM_THREAD,
    heapGrowingPercent: e.HEAP_GROWING_PERCENT,
    helperThreadsNice: e.HELPER_THREADS_NICE,
  };
}

/** File in DATA_DIR holding the generated session secret (SQLite mode without SESSION_SECRET). */
export const SESSION_SECRET_FILE = 'session-secret';

/**
 * The session secret from DATA_DIR, generated and written (mode 0600) on first start so tokens keep
 * working across restarts. Used when SESSION_SECRET is unset. `report.logger` hears of a generated
 * secret at info, and at error when `report.storedDatabase` (the SQLite file that was in DATA_DIR
 * before this start opened the store) is given: its secret was lost, and with it every seat of the
 * rooms stored there (their phones' tokens were signed with it).
 */
export function readOrCreateSecretFile(
  dataDir: string,
  report?: { logger: Pick<Logger, 'info' | 'error'>; storedDatabase?: string | undefined },
): string {
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, SESSION_SECRET_FILE);
  try {
    const existing = readFileSync(file, 'utf8').trim();
    if (existing.length >= 16) return existing;
    throw new ConfigError(
      `${file} holds a secret shorter than 16 characters; delete it or set SESSION_SECRET`,
    );
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  const secret = randomBytes(32).toString('base64url');
  let fd: number;
  try {
    // 'wx': if another process created it meanwhile, read theirs instead.
    fd = openSync(file, 'wx', 0o600);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    return readFileSync(file, 'utf8').trim();
  }
  try {
    writeFileSync(fd, `${secret}\n`);
  } catch (err) {
    // Created but not written (a full disk): removed, or every later start would refuse the empty
    // file as a secret too short, long after the disk has room again.
    closeSync(fd);
    rmSync(file, { force: true });
    if (isDiskFull(err)) {
      throw new ConfigError(
        `The disk of ${dataDir} is full: ${file} could not be written. Free some space on it, or set SESSION_SECRET, then start again.`,
      );
    }
    throw err;
  }
  closeSync(fd);
  report?.logger.info({ file }, `generated a new session secret at ${file}`);
  const database = report?.storedDatabase;
  if (database !== undefined) {
    report?.logger.error(
      { file, database },
      `generated a new session secret at ${file}, but ${database} already exists: the phones of the rooms stored there can no longer resume their seats (their tokens were signed with the lost secret). Stop the server, restore ${file} from a backup of DATA_DIR (or, if SESSION_SECRET was set when they were made, set it again), and start again.`,
    );
  }
  return secret;
}

/** A fresh random secret (a candidate for the shared Redis secret). */
export function randomSecret(): string {
  return randomBytes(32).toString('base64url');
}
