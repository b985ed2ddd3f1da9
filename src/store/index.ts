/**
 * The thread store: history that survives restarts, exactly-once delivery and per-thread order, on
 * SQLite (default), Redis (several instances) or memory (tests). Keyv and its adapters are imported only
 * in this folder.
 */
import { ConfigError } from "../errors.ts";
import { type Logger, silentLogger } from "../logger.ts";
import type { Backend } from "./backend.ts";
import { createKeyvThreadStore, type KeyvThreadStore, type StoreConfig } from "./keyv-store.ts";
import { createMemoryBackend } from "./memory-backend.ts";
import { createRedisBackend } from "./redis-backend.ts";
import type { RedisLockTuning } from "./redis-lock.ts";
import { createSqliteBackend } from "./sqlite-backend.ts";

export { StoreError, StoreKeyError, ThreadBusyError } from "./errors.ts";
export { KEY_PREFIX } from "./keys.ts";
export type { RecordStore } from "./records.ts";
export type { KeyvThreadStore, RedisLockTuning, StoreConfig };

/** Creates the configured store. A backend that is down at start does not throw: health() and each call report it. */
export async function createThreadStore(
  config: StoreConfig,
  deps: { logger?: Logger; now?: () => number; redisLock?: RedisLockTuning } = {},
): Promise<KeyvThreadStore> {
  const logger = deps.logger ?? silentLogger;
  const now = deps.now ?? Date.now;
  let backend: Backend;
  switch (config.backend) {
    case "memory":
      backend = createMemoryBackend(config.lockWaitMs);
      break;
    case "sqlite":
      backend = await createSqliteBackend({ path: config.sqlitePath, lockWaitMs: config.lockWaitMs, logger });
      break;
    case "redis":
      if (!config.redisUrl) throw new ConfigError("REDIS_URL is required when STORE_BACKEND is redis");
      backend = await createRedisBackend({
        url: config.redisUrl,
        lockWaitMs: config.lockWaitMs,
        logger,
        lock: deps.redisLock,
      });
      break;
    default:
      throw new TypeError(`unknown store backend: ${String(config.backend)}`);
  }
  logger.info({ backend: backend.name }, "thread store ready");
  return createKeyvThreadStore(backend, config, { logger, now });
}
