/**
 * What the Redis holding the rooms (STORE=redis) keeps through a restart and under memory pressure,
 * read once at start and logged as warnings. Chipless acknowledges a command once Redis has stored it,
 * so a Redis that keeps rooms only in memory (this machine's, `--save "" --appendonly no`) loses every
 * room, mid-hand, when it restarts; one with a `maxmemory` and an evicting policy may drop a room
 * (every room key has a TTL, so the `volatile-*` policies take rooms too). The server still starts: a
 * development Redis without persistence is normal, and the operator decides. Read with `CONFIG GET`,
 * which managed services may refuse or rename: then nothing is said (`readRedisDurability` gives null).
 */
import type { Logger } from '../logger';
import { connectRedis } from './redis-client';

/** The Redis settings that decide what survives (CONFIG GET names). */
export interface RedisDurability {
  /** `yes` or `no`. */
  appendonly: string;
  /** The RDB snapshot rules (`3600 1 300 100 60 10000`), '' for none. */
  save: string;
  /** Bytes; '0' for no limit. */
  maxmemory: string;
  'maxmemory-policy': string;
}

const SETTINGS = ['appendonly', 'save', 'maxmemory', 'maxmemory-policy'] as const;

/**
 * The warnings an operator should hear about `settings`, in words; none for a Redis that keeps every
 * acknowledged command (an append-only file) and never evicts. `sharedSecret`: SESSION_SECRET is unset,
 * so the processes share a secret stored in this Redis (sharedSessionSecret), lost with it too.
 */
export function durabilityWarnings(settings: RedisDurability, sharedSecret: boolean): string[] {
  const warnings: string[] = [];
  const appendOnly = settings.appendonly === 'yes';
  if (!appendOnly) {
    const kept =
      settings.save.trim() === ''
        ? 'Redis keeps the rooms only in memory (appendonly no, no save rules): a Redis restart loses every room'
        : 'Redis keeps the rooms only in snapshots (appendonly no, save rules): a Redis restart loses every command since the last snapshot';
    const secret = sharedSecret
      ? ', and the shared session secret with them: processes started afterwards sign out every phone'
      : '';
    warnings.push(`${kept}${secret}. Run Redis with appendonly yes.`);
  }
  const policy = settings['maxmemory-policy'];
  if (settings.maxmemory !== '0' && policy !== 'noeviction') {
    warnings.push(
      `Redis may evict rooms when it reaches maxmemory (maxmemory-policy ${policy}; room keys have a TTL, so volatile policies take them too). Set maxmemory-policy noeviction.`,
    );
  }
  return warnings;
}

/** The settings of the Redis at `url`, or null when it refuses CONFIG GET (managed services may) or is unreachable. */
export async function readRedisDurability(url: string): Promise<RedisDurability | null> {
  let client: Awaited<ReturnType<typeof connectRedis>> | undefined;
  try {
    client = await connectRedis(url, { connectTimeoutMs: 5000 });
    const read: Partial<Record<(typeof SETTINGS)[number], string>> = {};
    // One name a call: CONFIG GET with several names needs Redis 7.
    for (const name of SETTINGS) {
      const reply = await client.configGet(name);
      const value = reply[name];
      if (typeof value !== 'string') return null;
      read[name] = value;
    }
    return read as RedisDurability;
  } catch {
    return null;
  } finally {
    client?.destroy();
  }
}

/** Logs durabilityWarnings for the Redis at `url` (a warning each); says nothing when it cannot tell. */
export async function warnAboutRedisDurability(
  url: string,
  sharedSecret: boolean,
  logger: Pick<Logger, 'warn'>,
): Promise<string[]> {
  const settings = await readRedisDurability(url);
  if (settings === null) return [];
  const warnings = durabilityWarnings(settings, sharedSecret);
  for (const warning of warnings) logger.warn({ redis: settings }, warning);
  return warnings;
}
