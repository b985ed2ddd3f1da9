/** The in-memory backend, for tests and throwaway runs: Keyv over a Map, dedup in a Map, a local lock. */
import Keyv from "keyv";
import type { Backend } from "./backend.ts";
import { createLocalLock } from "./local-lock.ts";

/** Creates the memory backend. Everything is lost when the process ends. */
export function createMemoryBackend(lockWaitMs: number): Backend {
  const keyv = new Keyv({ store: new Map(), namespace: undefined, useKeyPrefix: false, throwOnErrors: true });
  // Check-and-set on a Map in one synchronous step is atomic within this process.
  const delivered = new Map<string, number>();
  let sweepAt = 10_000;
  const sweep = (now: number) => {
    for (const [key, expiresAt] of delivered) if (expiresAt <= now) delivered.delete(key);
    sweepAt = Math.max(10_000, delivered.size * 2);
  };
  return {
    name: "memory",
    keyv,
    lock: createLocalLock(lockWaitMs),
    async markOnce(key, ttlMs, now) {
      const expiresAt = delivered.get(key);
      if (expiresAt !== undefined && expiresAt > now) return false;
      if (delivered.size >= sweepAt) sweep(now);
      delivered.set(key, now + ttlMs);
      return true;
    },
    async probe() {},
    async close() {
      delivered.clear();
      await keyv.clear();
    },
  };
}
