/** A decorator of the thread store that counts its errors, lock waits, busy threads and dedup hits. */
import { AppError } from "../errors.ts";
import type { ThreadStore } from "../types.ts";
import type { Metrics } from "./registry.ts";

type LockOptions = { onQueued?: () => void };
/** The store seam, with the lock's optional queue hook (the Keyv store has it). */
type Store = Omit<ThreadStore, "withThreadLock"> & {
  withThreadLock<T>(threadKey: string, fn: () => Promise<T>, options?: LockOptions): Promise<T>;
};

/** Wraps a store; the wrapper behaves exactly like it and only observes. */
export function instrumentStore<S extends ThreadStore>(store: S, metrics: Metrics): S {
  const inner = store as unknown as Store;
  const counted =
    <A extends unknown[], R>(op: string, fn: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      try {
        return await fn(...args);
      } catch (error) {
        metrics.storeErrors.inc({ op });
        throw error;
      }
    };
  const wrapped: Store = {
    load: counted("load", (threadKey) => inner.load(threadKey)),
    append: counted("append", (threadKey, turn) => inner.append(threadKey, turn)),
    clear: counted("clear", (threadKey) => inner.clear(threadKey)),
    markDelivered: counted("dedup", async (eventId: string, ttlMs?: number) => {
      const first = await inner.markDelivered(eventId, ttlMs);
      if (!first) metrics.dedupHits.inc();
      return first;
    }),
    async withThreadLock(threadKey, fn, options) {
      const asked = performance.now();
      let entered = false;
      try {
        return await inner.withThreadLock(
          threadKey,
          () => {
            entered = true;
            metrics.lockWaitSeconds.observe((performance.now() - asked) / 1000);
            return fn();
          },
          options,
        );
      } catch (error) {
        if (!entered) {
          if (error instanceof AppError && error.code === "THREAD_BUSY") metrics.lockBusy.inc();
          else metrics.storeErrors.inc({ op: "lock" });
        }
        throw error;
      }
    },
    health: () => inner.health(),
    close: () => inner.close(),
  };
  // Keep whatever else the store offers (its backend name, test hooks) reachable.
  return Object.assign(Object.create(store as object), wrapped) as S;
}
