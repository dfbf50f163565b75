/**
 * The start-up warnings about a Redis that would lose rooms (redis-durability.ts): the rules on their
 * own, then read off private redis-servers configured each way (main.test.ts: the log of `main.ts`).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../free-port';
import { hasRedisServer, PrivateRedis } from '../scale-out/private-redis';
import { connectRedis } from './redis-client';
import {
  durabilityWarnings,
  type RedisDurability,
  readRedisDurability,
  warnAboutRedisDurability,
} from './redis-durability';

const IN_MEMORY =
  'Redis keeps the rooms only in memory (appendonly no, no save rules): a Redis restart loses every room. Run Redis with appendonly yes.';
const IN_MEMORY_WITH_SECRET =
  'Redis keeps the rooms only in memory (appendonly no, no save rules): a Redis restart loses every room, and the shared session secret with them: processes started afterwards sign out every phone. Run Redis with appendonly yes.';
const SNAPSHOTS =
  'Redis keeps the rooms only in snapshots (appendonly no, save rules): a Redis restart loses every command since the last snapshot. Run Redis with appendonly yes.';
const evicting = (policy: string) =>
  `Redis may evict rooms when it reaches maxmemory (maxmemory-policy ${policy}; room keys have a TTL, so volatile policies take them too). Set maxmemory-policy noeviction.`;

const settings = (over: Partial<RedisDurability>): RedisDurability => ({
  appendonly: 'yes',
  save: '',
  maxmemory: '0',
  'maxmemory-policy': 'noeviction',
  ...over,
});

describe('durabilityWarnings', () => {
  it('says nothing of an append-only Redis that never evicts', () => {
    expect(durabilityWarnings(settings({}), true)).toEqual([]);
    expect(durabilityWarnings(settings({ save: '3600 1', maxmemory: '1000000' }), true)).toEqual([]);
  });

  it('warns of a Redis without persistence, and of the shared secret only when it holds it', () => {
    expect(durabilityWarnings(settings({ appendonly: 'no' }), false)).toEqual([IN_MEMORY]);
    expect(durabilityWarnings(settings({ appendonly: 'no', save: '  ' }), true)).toEqual([
      IN_MEMORY_WITH_SECRET,
    ]);
    expect(durabilityWarnings(settings({ appendonly: 'no', save: '3600 1 300 100' }), false)).toEqual([
      SNAPSHOTS,
    ]);
  });

  it('warns of an evicting policy only under a memory limit, volatile ones included', () => {
    expect(durabilityWarnings(settings({ 'maxmemory-policy': 'allkeys-lru' }), false)).toEqual([]);
    for (const policy of ['allkeys-lru', 'volatile-ttl', 'volatile-lru', 'allkeys-random']) {
      expect(
        durabilityWarnings(settings({ maxmemory: '67108864', 'maxmemory-policy': policy }), false),
      ).toEqual([evicting(policy)]);
    }
    expect(
      durabilityWarnings(
        settings({ appendonly: 'no', maxmemory: '1', 'maxmemory-policy': 'volatile-lru' }),
        false,
      ),
    ).toEqual([IN_MEMORY, evicting('volatile-lru')]);
  });
});

const hasServer = hasRedisServer();
if (!hasServer)
  console.warn('[redis-durability] private Redis tests SKIPPED: no redis-server binary on PATH');

describe.skipIf(!hasServer)('read off a private redis-server', () => {
  const redises: PrivateRedis[] = [];
  afterAll(async () => {
    await Promise.all(redises.map((r) => r.dispose()));
  });
  async function redis(args: string[]): Promise<PrivateRedis> {
    const r = new PrivateRedis(args);
    redises.push(r);
    await r.start();
    return r;
  }

  it('reads the settings, and each change of them changes the warnings', async () => {
    const r = await redis(['--save', '', '--appendonly', 'no']);
    expect(await readRedisDurability(r.url)).toEqual({
      appendonly: 'no',
      save: '',
      maxmemory: '0',
      'maxmemory-policy': 'noeviction',
    });
    const logged: [unknown, string][] = [];
    const logger = { warn: (obj: unknown, msg: string) => logged.push([obj, msg]) };
    expect(await warnAboutRedisDurability(r.url, true, logger as never)).toEqual([IN_MEMORY_WITH_SECRET]);
    expect(logged).toEqual([[{ redis: await readRedisDurability(r.url) }, IN_MEMORY_WITH_SECRET]]);

    const client = await connectRedis(r.url);
    try {
      await client.configSet({ appendonly: 'yes', maxmemory: '64mb', 'maxmemory-policy': 'volatile-lru' });
      expect(await warnAboutRedisDurability(r.url, true, logger as never)).toEqual([
        evicting('volatile-lru'),
      ]);
      await client.configSet('maxmemory-policy', 'noeviction');
      expect(await warnAboutRedisDurability(r.url, true, logger as never)).toEqual([]);
    } finally {
      client.destroy();
    }
  });

  it('says nothing when Redis refuses CONFIG (as managed services may) or cannot be reached', async () => {
    const r = await redis(['--save', '', '--appendonly', 'no', '--rename-command', 'CONFIG', '']);
    expect(await readRedisDurability(r.url)).toBeNull();
    const logged: string[] = [];
    const logger = { warn: (_: unknown, msg: string) => logged.push(msg) };
    expect(await warnAboutRedisDurability(r.url, true, logger as never)).toEqual([]);
    expect(await readRedisDurability(`redis://127.0.0.1:${await freePort()}`)).toBeNull();
    expect(logged).toEqual([]);
  });
});
