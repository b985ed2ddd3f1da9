/**
 * Recovery of the Redis thread lock after Redis restarts (with AOF, lock keys and queues survive a crash).
 * Each process is a lock owner with a short-lived liveness key that it refreshes while it holds or waits
 * for a lock: waiters treat a lock or a queue place whose owner key is gone as free, so a dead process
 * stops blocking a thread within a few seconds instead of the lock's 30 s expiry. On reconnect the owner
 * re-validates at once: it renews the locks it holds, and releases the locks and queue places it could
 * not give back while Redis was away.
 */
import { randomUUID } from "node:crypto";
import type { Logger } from "../logger.ts";
import { KEY_PREFIX, lockKeysOf } from "./keys.ts";
import { LEAVE, RELEASE, RENEW } from "./redis-scripts.ts";

/** Runs one lock script; resolves with its numeric reply. */
export type RunScript = (script: string, keys: string[], args: Array<string | number>) => Promise<number>;

/** The prefix of owner liveness keys; the owner id follows. */
export const OWNER_PREFIX = `${KEY_PREFIX}:lockowner:`;

export interface LockOwner {
  /** A new lock token: "<owner id>.<random>", so any process can find the token's owner. */
  token(): string;
  /** This owner's liveness key. */
  readonly key: string;
  readonly ttlMs: number;
  /** A turn now holds a lock (renewed on reconnect until `released`). */
  holding(threadKey: string, token: string): void;
  /** The turn gave the lock back (ok) or could not (retried on reconnect). */
  released(threadKey: string, token: string, ok: boolean): void;
  /** A waiter gave up without leaving its queue place (left on reconnect). */
  abandoned(threadKey: string, token: string): void;
  /** One more (or one less) turn holding or waiting: the liveness key is kept while any is. */
  active(delta: 1 | -1): void;
  /** Re-validates after a reconnect; never throws. */
  recover(): Promise<void>;
  close(): void;
}

/** Creates this process's lock owner. */
export function createLockOwner(
  run: RunScript,
  options: { ttlMs: number; lockTtlMs: number; logger: Logger },
) {
  const id = randomUUID().replaceAll("-", "");
  const key = `${OWNER_PREFIX}${id}`;
  const held = new Map<string, string>(); // token → threadKey
  const unreleased = new Map<string, string>();
  const unleft = new Map<string, string>();
  let count = 0;
  let timer: NodeJS.Timeout | undefined;

  const refresh = () =>
    run("redis.call('SET', KEYS[1], '1', 'PX', ARGV[1]) return 1", [key], [options.ttlMs]).catch(() => 0);

  const owner: LockOwner = {
    key,
    ttlMs: options.ttlMs,
    token: () => `${id}.${randomUUID()}`,
    holding: (threadKey, token) => void held.set(token, threadKey),
    released(threadKey, token, ok) {
      held.delete(token);
      if (!ok) unreleased.set(token, threadKey);
    },
    abandoned: (threadKey, token) => void unleft.set(token, threadKey),
    active(delta) {
      count += delta;
      if (count > 0 && !timer) {
        timer = setInterval(refresh, Math.max(50, Math.floor(options.ttlMs / 3)));
        timer.unref();
      } else if (count === 0 && timer) {
        clearInterval(timer);
        timer = undefined;
      }
    },
    async recover() {
      if (count > 0) await refresh();
      for (const [token, threadKey] of held) {
        const { lock } = lockKeysOf(threadKey);
        const ok = await run(RENEW, [lock], [token, options.lockTtlMs]).catch(() => 0);
        if (ok !== 1) options.logger.warn({ threadKey }, "thread lock lost during the Redis outage");
      }
      for (const [token, threadKey] of unreleased) {
        const { lock } = lockKeysOf(threadKey);
        if ((await run(RELEASE, [lock], [token]).catch(() => -1)) >= 0) unreleased.delete(token);
      }
      for (const [token, threadKey] of unleft) {
        const { queue, beats } = lockKeysOf(threadKey);
        if ((await run(LEAVE, [queue, beats], [token]).catch(() => -1)) >= 0) unleft.delete(token);
      }
    },
    close() {
      clearInterval(timer);
      timer = undefined;
    },
  };
  return owner;
}
