/**
 * Test harness: servers in this process sharing one Redis (each with its own Redis adapter and store,
 * one session secret, a key prefix of the suite's own), the phones connected to them, and the presence
 * every phone holds. For suites about what crosses processes (presence.test.ts, cross-process.test.ts);
 * real processes are process-harness.ts's.
 */
import { randomBytes } from 'node:crypto';
import { createRedisAdapter, type RedisAdapterHandle } from '../redis-adapter';
import { sleep, startServer, TestClient, type TestServer } from '../test-helpers';
import { deleteKeysWithPrefix, REDIS_URL, uniqueKeyPrefix } from './redis-available';

export interface AppsOnRedis {
  keyPrefix: string;
  /** Starts one more server on the shared Redis. */
  start(): Promise<TestServer>;
  /** A phone connected to `server` (with `token`: the same player as another phone). */
  phone(server: TestServer, token?: string): Promise<TestClient>;
  /** Every phone holds `expected` as the room's presence within `ms`. */
  converge(phones: TestClient[], expected: Record<string, boolean>, ms?: number): Promise<void>;
  /** Closes the phones, then (after the presence broadcasts their going starts) the servers; deletes the keys. */
  close(deleteKeys: boolean): Promise<void>;
}

export function appsOnRedis(
  label: string,
  options: { env?: Record<string, string>; now?: () => number } = {},
): AppsOnRedis {
  const keyPrefix = uniqueKeyPrefix(label);
  const secret = randomBytes(24).toString('base64url');
  const servers: TestServer[] = [];
  const adapters: RedisAdapterHandle[] = [];
  const clients: TestClient[] = [];
  return {
    keyPrefix,
    async start() {
      const adapter = await createRedisAdapter(REDIS_URL, { keyPrefix, requestsTimeoutMs: 750 });
      adapters.push(adapter);
      const server = await startServer({
        adapter: adapter.adapter,
        ...(options.now ? { now: options.now } : {}),
        env: {
          STORE: 'redis',
          REDIS_URL,
          REDIS_KEY_PREFIX: keyPrefix,
          SESSION_SECRET: secret,
          ...options.env,
        },
      });
      servers.push(server);
      return server;
    },
    async phone(server, token) {
      const client = await TestClient.connect(server.url, token ? { token } : {});
      clients.push(client);
      return client;
    },
    async converge(phones, expected, ms = 1000) {
      await Promise.all(
        phones.map((p) =>
          p.waitFor(
            () => JSON.stringify(p.latest?.presence) === JSON.stringify(expected),
            ms,
            `presence ${JSON.stringify(expected)} (holds ${JSON.stringify(p.latest?.presence)})`,
          ),
        ),
      );
    },
    async close(deleteKeys) {
      for (const c of clients) c.close();
      // Let the servers finish the presence broadcasts those disconnects start before closing them.
      await sleep(500);
      for (const s of servers) await s.close();
      for (const a of adapters) await a.close();
      if (deleteKeys) await deleteKeysWithPrefix(keyPrefix);
    },
  };
}
