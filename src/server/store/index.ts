/**
 * Picks the RoomStore from the configuration: SQLite in DATA_DIR (default) or Redis (STORE=redis).
 * The Redis module is loaded only when asked for, so the default mode never touches a Redis client.
 */
import { type Config, ConfigError } from '../config';
import type { Logger } from '../logger';
import type { RoomThreadStore } from '../room-thread-messages';
import type { RoomStore } from './room-store';
import { createSqliteStore } from './sqlite-store';

/** The settings of a store, as the configuration gives them. */
type StoreSettings = Pick<
  Config,
  'store' | 'dataDir' | 'redisUrl' | 'redisKeyPrefix' | 'roomIdleMs' | 'cleanupIntervalMs'
>;

/**
 * A Redis room key's TTL: it outlives the cleanup's deadline (idle time, plus one sweep for connected
 * rooms to be touched), so the sweep, not the TTL, normally deletes a room and tells its sockets.
 */
const redisRoomTtlMs = (config: StoreSettings) => config.roomIdleMs + config.cleanupIntervalMs;

/** What the room thread (room-thread.ts) opens for the configured store: createStore's settings. */
export function roomThreadStore(config: StoreSettings): RoomThreadStore {
  if (config.store === 'sqlite') return { kind: 'sqlite', dataDir: config.dataDir };
  if (!config.redisUrl) throw new ConfigError('REDIS_URL is required when STORE=redis');
  return {
    kind: 'redis',
    url: config.redisUrl,
    keyPrefix: config.redisKeyPrefix,
    roomTtlMs: redisRoomTtlMs(config),
  };
}

/**
 * Opens the configured store. Throws ConfigError when the configuration cannot work. `logger` hears of
 * Redis connection errors after the first connect (the client reconnects on its own).
 */
export async function createStore(config: StoreSettings, logger?: Logger): Promise<RoomStore> {
  switch (config.store) {
    case 'sqlite':
      return createSqliteStore({
        dataDir: config.dataDir,
        onError: (err) => logger?.error({ err }, 'sqlite store'),
      });
    case 'redis': {
      if (!config.redisUrl) throw new ConfigError('REDIS_URL is required when STORE=redis');
      const { createRedisStore } = await import('./redis-store');
      return createRedisStore(config.redisUrl, {
        keyPrefix: config.redisKeyPrefix,
        roomTtlMs: redisRoomTtlMs(config),
        onError: (err) => logger?.warn({ err }, 'redis store connection error'),
      });
    }
    default: {
      const unknown: never = config.store;
      throw new ConfigError(`Unknown STORE: ${String(unknown)}`);
    }
  }
}
