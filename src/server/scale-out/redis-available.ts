/**
 * Test support for suites that need a real Redis (REDIS_URL, default redis://127.0.0.1:6379).
 * When Redis is unreachable such a suite is skipped with a message saying so, except when CI is set:
 * then it fails, so a broken CI Redis never turns into a silent pass.
 */
import { randomBytes } from 'node:crypto';
import { connectRedis, redactUrl } from '../store/redis-client';

/** The Redis the tests use. */
export const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/** Whether Redis answers PING within a second. */
async function redisReachable(url = REDIS_URL): Promise<boolean> {
  try {
    const client = await connectRedis(url, { connectTimeoutMs: 1000 });
    try {
      await client.ping();
      return true;
    } finally {
      client.destroy();
    }
  } catch {
    return false;
  }
}

/** How a Redis-backed suite should run: `skip` for describe.skipIf, `check` for its beforeAll. */
export interface RedisGate {
  available: boolean;
  skip: boolean;
  /** Throws in CI when Redis is down (call it first in beforeAll). */
  check(): void;
}

/** Probes Redis once and says whether to run, skip (with a message) or fail the suite. */
export async function redisGate(suite: string): Promise<RedisGate> {
  const available = await redisReachable();
  const inCi = Boolean(process.env.CI);
  if (!available && !inCi) {
    console.warn(
      `[${suite}] SKIPPED: Redis is unreachable at ${redactUrl(REDIS_URL)} (set REDIS_URL; in CI this fails).`,
    );
  }
  return {
    available,
    skip: !available && !inCi,
    check() {
      if (!available)
        throw new Error(`[${suite}] Redis is unreachable at ${redactUrl(REDIS_URL)} and CI is set`);
    },
  };
}

/** A key prefix no other test run uses. */
export function uniqueKeyPrefix(label: string): string {
  return `chipless-test:${label}:${randomBytes(6).toString('hex')}:`;
}

/** Deletes every key under `prefix` (SCAN + UNLINK), for afterAll. */
export async function deleteKeysWithPrefix(prefix: string, url = REDIS_URL): Promise<number> {
  const client = await connectRedis(url, { connectTimeoutMs: 2000 });
  let deleted = 0;
  try {
    for await (const keys of client.scanIterator({ MATCH: `${prefix}*`, COUNT: 500 })) {
      if (keys.length > 0) deleted += await client.unlink(keys);
    }
  } finally {
    client.destroy();
  }
  return deleted;
}
