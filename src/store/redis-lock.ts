/**
 * The distributed thread lock for several instances on one Redis. A turn takes a ticket (INCR) and joins
 * the thread's queue (a sorted set by ticket); it holds the lock only when it is at the head and the lock
 * key is free, so turns run in arrival order across processes. The lock is a random token with an expiry,
 * renewed while the turn runs and released by compare-and-delete. Waiters keep a heartbeat so a crashed
 * waiter cannot block the queue, and the wait is bounded (ThreadBusyError).
 */
import { randomUUID } from "node:crypto";
import type { Logger } from "../logger.ts";
import { ThreadBusyError } from "./errors.ts";
import { lockKeysOf } from "./keys.ts";
import type { LocalLock, LockRunOptions } from "./local-lock.ts";
import { ACQUIRE, ENQUEUE, LEAVE, RELEASE, RENEW } from "./redis-scripts.ts";

/** The one Redis call the lock needs (node-redis `eval`). */
export interface ScriptClient {
  eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
}

/** Timings of the Redis lock; the defaults suit production, tests shorten them to see crashes recover. */
export interface RedisLockTuning {
  /** How long a holder keeps the lock without renewal (a crashed holder frees it after this). Default 30 s. */
  lockTtlMs?: number;
  /** How long a waiter stays queued without polling (a crashed waiter leaves the queue after this). Default 10 s. */
  waiterTtlMs?: number;
  /** Base poll interval of a waiting turn. Default 20 ms (plus jitter). */
  pollMs?: number;
}

export interface RedisLockOptions extends RedisLockTuning {
  waitMs: number;
  logger: Logger;
  /** Used when Redis cannot be reached: turns still run, serialised within this process only. */
  fallback: LocalLock;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Creates the Redis lock; run() has the same contract as the in-process lock. */
export function createRedisLock(client: ScriptClient, options: RedisLockOptions): LocalLock {
  const lockTtlMs = options.lockTtlMs ?? 30_000;
  const waiterTtlMs = options.waiterTtlMs ?? 10_000;
  const pollMs = options.pollMs ?? 20;
  // Queue keys outlive every waiter by a margin, then disappear on their own.
  const keyTtlMs = String(Math.max(options.waitMs, lockTtlMs) + waiterTtlMs * 2);
  const eval_ = (script: string, keys: string[], args: Array<string | number>) =>
    client.eval(script, { keys, arguments: args.map(String) }).then(Number);
  let active = 0;

  async function acquire(threadKey: string, token: string, onQueued?: () => void): Promise<void> {
    const keys = lockKeysOf(threadKey);
    const started = Date.now();
    let queued = false;
    for (;;) {
      if (!queued) {
        await eval_(ENQUEUE, [keys.ticket, keys.queue, keys.beats], [token, waiterTtlMs, keyTtlMs]);
        queued = true;
        onQueued?.();
        onQueued = undefined;
      }
      const got = await eval_(
        ACQUIRE,
        [keys.lock, keys.queue, keys.beats],
        [token, lockTtlMs, waiterTtlMs, keyTtlMs],
      );
      if (got === 1) return;
      // -1: dropped from the queue as dead (a long pause); join again at the back.
      if (got === -1) queued = false;
      if (Date.now() - started >= options.waitMs) {
        await eval_(LEAVE, [keys.queue, keys.beats], [token]).catch(() => undefined);
        throw new ThreadBusyError(threadKey, options.waitMs);
      }
      await sleep(pollMs + Math.floor(Math.random() * pollMs));
    }
  }

  async function runLocked<T>(threadKey: string, fn: () => Promise<T>, token: string): Promise<T> {
    const { lock } = lockKeysOf(threadKey);
    const renew = setInterval(
      () => {
        eval_(RENEW, [lock], [token, lockTtlMs]).then(
          (held) => {
            if (held !== 1)
              options.logger.warn({ threadKey }, "thread lock expired while the turn was running");
          },
          (error: unknown) => options.logger.warn({ threadKey, err: error }, "thread lock renewal failed"),
        );
      },
      Math.floor(lockTtlMs / 3),
    );
    renew.unref();
    try {
      return await fn();
    } finally {
      clearInterval(renew);
      await eval_(RELEASE, [lock], [token]).catch((error: unknown) =>
        options.logger.warn({ threadKey, err: error }, "thread lock release failed; it expires on its own"),
      );
    }
  }

  return {
    async run<T>(threadKey: string, fn: () => Promise<T>, runOptions?: LockRunOptions): Promise<T> {
      lockKeysOf(threadKey);
      const token = randomUUID();
      active += 1;
      try {
        let onQueued = runOptions?.onQueued;
        try {
          await acquire(threadKey, token, () => {
            onQueued?.();
            onQueued = undefined;
          });
        } catch (error) {
          if (error instanceof ThreadBusyError) throw error;
          options.logger.error(
            { threadKey, err: error },
            "Redis thread lock unavailable; serialising this turn in this process only",
          );
          return await options.fallback.run(threadKey, fn, { onQueued });
        }
        return await runLocked(threadKey, fn, token);
      } finally {
        active -= 1;
      }
    },
    activeThreads: () => active,
  };
}
