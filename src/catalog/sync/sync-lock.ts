/**
 * The cross-instance sync lock: taken in the shared store with an expiry, renewed while the sync runs (a
 * crashed holder frees it when the expiry passes), and released only by its owner.
 */
import type { CatalogStore } from "./types.ts";

export const LOCK_TTL_MS = 120_000;

/**
 * Runs `fn` while holding the lock; resolves `undefined` without running it when another owner holds it.
 * `fn` receives a probe that turns true when a renewal found the lock lost.
 */
export async function withSyncLock<T>(
  store: CatalogStore,
  owner: string,
  fn: (lost: () => boolean) => Promise<T>,
  ttlMs = LOCK_TTL_MS,
): Promise<T | undefined> {
  if (!(await store.tryLock(owner, ttlMs))) return undefined;
  let lost = false;
  const renew = setInterval(() => {
    store.renewLock(owner, ttlMs).then(
      (held) => {
        if (!held) lost = true;
      },
      () => {
        lost = true;
      },
    );
  }, ttlMs / 3);
  renew.unref();
  try {
    return await fn(() => lost);
  } finally {
    clearInterval(renew);
    await store.unlock(owner).catch(() => undefined);
  }
}

/** Waits `ms`, or less when `signal` aborts; never keeps the process alive. */
export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    timer.unref();
    signal?.addEventListener("abort", done, { once: true });
  });
}
