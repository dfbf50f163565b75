/**
 * Picks the RoomStore from the configuration: SQLite in DATA_DIR (default) or Redis (STORE=redis).
 * The Redis module is loaded only when asked for, so the default mode never touches a Redis client.
 */
import { type Config, ConfigError } from '../config';
import type { Logger } from '../logger';
import type { RoomStore } from './room-store';
import { createSqliteStore } from './sqlite-store';

/**
 * Opens the configured store. Throws ConfigError when the configuration cannot work. `logger` hears of
 * Redis connection errors after the first connect (the client reconnects on its own).
 */
export async function createStore(
  config: Pick<
    Config,
    'store' | 'dataDir' | 'redisUrl' | 'redisKeyPrefix' | 'playingIdleMs' | 'cleanupIntervalMs'
  >,
  logger?: Logger,
): Promise<RoomStore> {
  switch (config.store) {
    case 'sqlite':
      return createSqliteStore({
        dataDir: config.dataDir,
        onError: (err) => logger?.error({ err }, 'sqlite store'),
      });
    case 'redis': {
      if (!config.redisUrl) throw new ConfigError('REDIS_URL is required when STORE=redis');
      const { createRedisStore } = await import('./redis-store');
      // A room key outlives the cleanup's longest deadline (a game in progress's idle time, plus one
      // sweep for connected rooms to be touched), so the sweep, not the TTL, normally deletes it and
      // tells its sockets.
      return createRedisStore(config.redisUrl, {
        keyPrefix: config.redisKeyPrefix,
        roomTtlMs: config.playingIdleMs + config.cleanupIntervalMs,
        onError: (err) => logger?.warn({ err }, 'redis store connection error'),
      });
    }
    default: {
      const unknown: never = config.store;
      throw new ConfigError(`Unknown STORE: ${String(unknown)}`);
    }
  }
}
