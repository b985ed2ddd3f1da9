/**
 * The Redis backend, for several instances: Keyv over @keyv/redis, SET NX PX for exactly-once delivery,
 * and the distributed thread lock, all on one node-redis client. Commands fail fast while Redis is away
 * (no offline queue, a command timeout) so a down Redis shows as an error, never as a hang or as "no history".
 */
import KeyvRedis, { createClient } from "@keyv/redis";
import Keyv from "keyv";
import type { Logger } from "../logger.ts";
import type { Backend } from "./backend.ts";
import { createLocalLock } from "./local-lock.ts";
import { createRedisLock, type RedisLockTuning, type ScriptClient } from "./redis-lock.ts";

export interface RedisBackendOptions {
  url: string;
  lockWaitMs: number;
  logger: Logger;
  /** How long start-up waits for the first connection before going on (it keeps retrying). */
  connectWaitMs?: number;
  commandTimeoutMs?: number;
  lock?: RedisLockTuning;
}

/** Connects to Redis. Never throws for an unreachable server: probe() and every call report it. */
export async function createRedisBackend(options: RedisBackendOptions): Promise<Backend> {
  const { logger } = options;
  const client = createClient({
    url: options.url,
    disableOfflineQueue: true,
    commandOptions: { timeout: options.commandTimeoutMs ?? 5_000 },
    socket: {
      connectTimeout: 3_000,
      // Capped at 500 ms so that turns recover within a second or so of Redis coming back.
      reconnectStrategy: (retries: number) => Math.min(50 * 2 ** retries, 500),
    },
  });
  // One log line per outage, not one per reconnect attempt.
  let down = false;
  client.on("error", (error: unknown) => {
    if (!down) logger.error({ err: error }, "Redis connection lost; retrying");
    down = true;
  });
  let onReady = () => {};
  client.on("ready", () => {
    if (down) logger.info("Redis connection restored");
    down = false;
    onReady();
  });
  const connecting = client.connect().catch(() => undefined);
  let waitTimer: NodeJS.Timeout | undefined;
  await Promise.race([
    connecting,
    new Promise<void>((resolve) => {
      waitTimer = setTimeout(resolve, options.connectWaitMs ?? 3_000);
    }),
  ]);
  clearTimeout(waitTimer);
  if (!client.isReady) logger.error("Redis is not reachable yet; the store reports unhealthy until it is");

  const adapter = new KeyvRedis(client, { throwOnErrors: true, throwOnConnectError: true });
  adapter.on("error", () => {});
  const keyv = new Keyv({ store: adapter, namespace: undefined, useKeyPrefix: false, throwOnErrors: true });
  keyv.on("error", () => {});
  const lock = createRedisLock(client as unknown as ScriptClient, {
    ...options.lock,
    waitMs: options.lockWaitMs,
    logger,
    fallback: createLocalLock(options.lockWaitMs),
  });
  // After a reconnect, held locks are re-validated and stale ones given back at once (AOF keeps them).
  onReady = () => void lock.recover();

  return {
    name: "redis",
    keyv,
    lock,
    async markOnce(key, ttlMs) {
      const reply = await client.set(key, "1", { condition: "NX", expiration: { type: "PX", value: ttlMs } });
      return reply === "OK";
    },
    async probe() {
      await client.ping();
    },
    async close() {
      lock.close();
      // close() waits for pending replies; while Redis is away there are none worth waiting for.
      if (client.isReady) await client.close().catch(() => undefined);
      if (client.isOpen) client.destroy();
    },
  };
}
