/** A minimal in-process ThreadStore for adapter tests (the real backends live in src/store). */
import type { HistoryTurn, ThreadKey, ThreadStore } from "../../src/types.ts";

export function createMemoryStoreFake(): ThreadStore & { threads: Map<string, HistoryTurn[]> } {
  const threads = new Map<string, HistoryTurn[]>();
  const delivered = new Set<string>();
  const tails = new Map<string, Promise<unknown>>();
  return {
    threads,
    async load(key: ThreadKey) {
      return [...(threads.get(key) ?? [])];
    },
    async append(key: ThreadKey, turn: HistoryTurn) {
      threads.set(key, [...(threads.get(key) ?? []), turn]);
    },
    async clear(key: ThreadKey) {
      threads.delete(key);
    },
    async markDelivered(eventId: string) {
      if (delivered.has(eventId)) return false;
      delivered.add(eventId);
      return true;
    },
    async withThreadLock<T>(key: ThreadKey, fn: () => Promise<T>): Promise<T> {
      const previous = tails.get(key) ?? Promise.resolve();
      const run = previous.then(fn, fn);
      tails.set(
        key,
        run.catch(() => undefined),
      );
      return run;
    },
    async health() {
      return { ok: true, backend: "memory-fake" };
    },
    async close() {},
  };
}
