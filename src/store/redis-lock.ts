/**
 * The distributed thread lock for several instances on one Redis. A turn takes a ticket (INCR) and joins
 * the thread's queue (a sorted set by ticket); it holds the lock only when it is at the head and the lock
 * key is free, so turns run in arrival order across processes. The lock is a random token with an expiry,
 * renewed while the turn runs and released by compare-and-delete. Waiters keep a heartbeat so a crashed
 * waiter cannot block the queue, and the wait is bounded (ThreadBusyError).
 */
import type { Logger } from "../logger.ts";
import { ThreadBusyError } from "./errors.ts";
import { lockKeysOf } from "./keys.ts";
import type { LocalLock, LockRunOptions } from "./local-lock.ts";
import { createLockOwner, OWNER_PREFIX } from "./redis-lock-owner.ts";
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
  /**
   * How long a process counts as alive after its last sign of life (refreshed every third of it while it
   * holds or waits for a lock). A dead process's locks and queue places are freed after this. Default 3 s.
   */
  ownerTtlMs?: number;
}

/** The Redis lock: the in-process lock's contract, plus recovery after Redis comes back. */
export interface RedisLock extends LocalLock {
  /** Re-validates held locks and gives back what could not be released during an outage. */
  recover(): Promise<void>;
  close(): void;
}

export interface RedisLockOptions extends RedisLockTuning {
  waitMs: number;
  logger: Logger;
  /** Used when Redis cannot be reached: turns still run, serialised within this process only. */
  fallback: LocalLock;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Creates the Redis lock; run() has the same contract as the in-process lock. */
export function createRedisLock(client: ScriptClient, options: RedisLockOptions): RedisLock {
  const lockTtlMs = options.lockTtlMs ?? 30_000;
  const waiterTtlMs = options.waiterTtlMs ?? 10_000;
  const pollMs = options.pollMs ?? 20;
  // Queue keys outlive every waiter by a margin, then disappear on their own.
  const keyTtlMs = String(Math.max(options.waitMs, lockTtlMs) + waiterTtlMs * 2);
  const eval_ = (script: string, keys: string[], args: Array<string | number>) =>
    client.eval(script, { keys, arguments: args.map(String) }).then(Number);
  let active = 0;
  const owner = createLockOwner(eval_, {
    ttlMs: options.ownerTtlMs ?? 3_000,
    lockTtlMs,
    logger: options.logger,
  });

  async function acquire(threadKey: string, token: string, onQueued?: () => void): Promise<void> {
    const keys = lockKeysOf(threadKey);
    const started = Date.now();
    let queued = false;
    for (;;) {
      if (!queued) {
        await eval_(
          ENQUEUE,
          [keys.ticket, keys.queue, keys.beats, owner.key],
          [token, waiterTtlMs, keyTtlMs, owner.ttlMs],
        );
        queued = true;
        onQueued?.();
        onQueued = undefined;
      }
      const got = await eval_(
        ACQUIRE,
        [keys.lock, keys.queue, keys.beats, owner.key],
        [token, lockTtlMs, waiterTtlMs, keyTtlMs, OWNER_PREFIX, owner.ttlMs],
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
    owner.holding(threadKey, token);
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
      const released = await eval_(RELEASE, [lock], [token]).then(
        () => true,
        (error: unknown) => {
          options.logger.warn({ threadKey, err: error }, "thread lock release failed; retried on reconnect");
          return false;
        },
      );
      owner.released(threadKey, token, released);
    }
  }

  return {
    async run<T>(threadKey: string, fn: () => Promise<T>, runOptions?: LockRunOptions): Promise<T> {
      lockKeysOf(threadKey);
      const token = owner.token();
      active += 1;
      owner.active(1);
      try {
        let onQueued = runOptions?.onQueued;
        try {
          await acquire(threadKey, token, () => {
            onQueued?.();
            onQueued = undefined;
          });
        } catch (error) {
          if (error instanceof ThreadBusyError) throw error;
          // Redis is away: our queue place (if it was written) is given back once it returns.
          owner.abandoned(threadKey, token);
          options.logger.error(
            { threadKey, err: error },
            "Redis thread lock unavailable; serialising this turn in this process only",
          );
          return await options.fallback.run(threadKey, fn, { onQueued });
        }
        return await runLocked(threadKey, fn, token);
      } finally {
        active -= 1;
        owner.active(-1);
      }
    },
    activeThreads: () => active,
    recover: () => owner.recover(),
    close: () => owner.close(),
  };
}
