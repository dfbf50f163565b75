import { afterAll, describe, expect, it, vi } from 'vitest';
import { hasRedisServer, PrivateRedis } from '../scale-out/private-redis';
import { deleteKeysWithPrefix, REDIS_URL, redisGate, uniqueKeyPrefix } from '../scale-out/redis-available';
import { boundedCommands, connectRedis, RedisDeadlineError, RedisNotReadyError } from './redis-client';
import { sharedSessionSecret } from './redis-session-secret';

const gate = await redisGate('redis-client');
const prefix = uniqueKeyPrefix('client');

describe('boundedCommands', () => {
  /** Just what boundedCommands uses of a client: the view it sends on, and whether it is connected. */
  const fakeClient = { isReady: true, withCommandOptions: () => ({}) } as unknown as Parameters<
    typeof boundedCommands
  >[0];

  it('leaves no timer behind: not after an answer, not after a send that throws at once', async () => {
    vi.useFakeTimers();
    try {
      const bounded = boundedCommands(fakeClient, 5000);
      expect(await bounded(async () => 'answer')).toBe('answer');
      expect(vi.getTimerCount()).toBe(0);
      await expect(
        bounded(() => {
          throw new TypeError('bad argument');
        }),
      ).rejects.toThrow('bad argument');
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe.skipIf(gate.skip)('the shared session secret', () => {
  afterAll(async () => {
    await deleteKeysWithPrefix(prefix);
  });

  it('sharedSessionSecret: the first process picks the secret, later ones get the same', async () => {
    const keyPrefix = `${prefix}secret:`;
    const first = await sharedSessionSecret(REDIS_URL, 'first-secret', { keyPrefix });
    const second = await sharedSessionSecret(REDIS_URL, 'second-secret', { keyPrefix });
    expect(first).toBe('first-secret');
    expect(second).toBe('first-secret');
  });
});

describe('connectRedis', () => {
  it('an unreachable Redis fails fast with a clear error, the password left out', async () => {
    const started = Date.now();
    await expect(connectRedis('redis://:hunter2@127.0.0.1:1', { connectTimeoutMs: 500 })).rejects.toThrow(
      'Redis unreachable at redis://:***@127.0.0.1:1',
    );
    expect(Date.now() - started).toBeLessThan(3000);
  });
});

describe('boundedCommands on a private redis-server', () => {
  const hasServer = hasRedisServer();
  if (!hasServer) console.warn('[redis-client] outage test SKIPPED: no redis-server binary on PATH');
  const redis = new PrivateRedis(['--save', '']);

  afterAll(() => redis.dispose());

  it.skipIf(!hasServer)(
    'a command Redis does not answer (SIGSTOP) fails after its deadline; one sent while not connected fails at once',
    async () => {
      await redis.start();
      const client = await connectRedis(redis.url);
      const bounded = boundedCommands(client, 300);
      try {
        expect(await bounded((c) => c.ping())).toBe('PONG');
        redis.signal('SIGSTOP');
        const started = Date.now();
        await expect(bounded((c) => c.ping())).rejects.toBeInstanceOf(RedisDeadlineError);
        const waited = Date.now() - started;
        expect(waited).toBeGreaterThanOrEqual(290);
        expect(waited).toBeLessThan(1500);
        redis.signal('SIGCONT');
        expect(await bounded((c) => c.ping())).toBe('PONG');
      } finally {
        redis.signal('SIGCONT');
        client.destroy();
        await redis.stop();
      }
      const notReady = Date.now();
      await expect(bounded((c) => c.ping())).rejects.toBeInstanceOf(RedisNotReadyError);
      expect(Date.now() - notReady).toBeLessThan(50);
    },
    20_000,
  );
});
