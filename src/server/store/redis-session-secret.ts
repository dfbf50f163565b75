/**
 * The session secret shared through Redis (STORE=redis without SESSION_SECRET): one secret for every
 * process, so a token issued by one is accepted by the others.
 */
import { connectRedis } from './redis-client';

/**
 * The session secret every process must share so a token issued by one is accepted by the others.
 * Stores `candidate` under `{keyPrefix}session-secret` unless one is there already (SET NX), and
 * returns whichever is stored: the first process to start picks the secret for all.
 */
export async function sharedSessionSecret(
  url: string,
  candidate: string,
  opts: { keyPrefix?: string; connectTimeoutMs?: number } = {},
): Promise<string> {
  const client = await connectRedis(url, { connectTimeoutMs: opts.connectTimeoutMs });
  try {
    const key = `${opts.keyPrefix ?? 'chipless:'}session-secret`;
    await client.set(key, candidate, { condition: 'NX' });
    const stored = await client.get(key);
    if (stored == null) throw new Error('session secret vanished from Redis');
    return stored;
  } finally {
    await client.close();
  }
}
