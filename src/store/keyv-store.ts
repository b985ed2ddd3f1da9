/**
 * The ThreadStore on top of a backend: bounded history with a TTL refreshed on every append, exactly-once
 * delivery marks, the per-thread lock, and health. Backend failures become StoreError, never an empty history.
 */
import type { Config } from "../config.ts";
import { describeError } from "../errors.ts";
import type { Logger } from "../logger.ts";
import type { HistoryTurn, ThreadKey, ThreadStore } from "../types.ts";
import type { Backend } from "./backend.ts";
import { StoreError } from "./errors.ts";
import { checkTurn, parseRecord, type ThreadRecord, trimTurns } from "./history.ts";
import { dedupKeyOf, threadKeyOf } from "./keys.ts";
import { createLocalLock, type LockRunOptions } from "./local-lock.ts";
import { type RecordStore, recordStoreOf } from "./records.ts";

export type StoreConfig = Config["store"];

/** The store as created: the ThreadStore seam plus the backend name and an optional queue hook on the lock. */
export interface KeyvThreadStore extends ThreadStore {
  readonly backend: string;
  /** Shared records beside the threads (the MCP server registry keeps its entries here). */
  readonly records: RecordStore;
  /** Like ThreadStore.withThreadLock; options.onQueued fires once the turn holds its place in line. */
  withThreadLock<T>(threadKey: ThreadKey, fn: () => Promise<T>, options?: LockRunOptions): Promise<T>;
}

/** Wraps a backend into the ThreadStore seam. */
export function createKeyvThreadStore(
  backend: Backend,
  config: StoreConfig,
  deps: { logger: Logger; now: () => number },
): KeyvThreadStore {
  const { logger, now } = deps;
  // append is read-modify-write: within one process, appends to one thread never interleave.
  const appendLock = createLocalLock(60_000);
  let closed = false;

  const guard = async <T>(what: string, threadKey: string, run: () => Promise<T>): Promise<T> => {
    if (closed) throw new StoreError(`${what}: the store is closed`);
    try {
      return await run();
    } catch (error) {
      if (error instanceof StoreError) throw error;
      logger.error({ err: error, threadKey, backend: backend.name }, `thread store: ${what} failed`);
      throw new StoreError(`${what} failed on ${backend.name}: ${describeError(error)}`, error);
    }
  };

  const read = async (key: string): Promise<ThreadRecord | null> => {
    const record = parseRecord(await backend.keyv.get(key));
    if (record && record.expiresAt <= now()) {
      await backend.keyv.delete(key);
      return null;
    }
    return record;
  };

  return {
    backend: backend.name,
    records: recordStoreOf(backend),

    async load(threadKey) {
      const key = threadKeyOf(threadKey);
      return guard("load", threadKey, async () => (await read(key))?.turns ?? []);
    },

    async append(threadKey, turn: HistoryTurn) {
      const key = threadKeyOf(threadKey);
      checkTurn(turn);
      return appendLock.run(key, () =>
        guard("append", threadKey, async () => {
          const previous = (await read(key))?.turns ?? [];
          const at = now();
          const record: ThreadRecord = {
            turns: trimTurns([...previous, turn], config),
            updatedAt: at,
            expiresAt: at + config.ttlMs,
          };
          await backend.keyv.set(key, record, config.ttlMs);
        }),
      );
    },

    async clear(threadKey) {
      const key = threadKeyOf(threadKey);
      return guard("clear", threadKey, async () => {
        await backend.keyv.delete(key);
      });
    },

    async markDelivered(eventId, ttlMs = config.dedupTtlMs) {
      const key = dedupKeyOf(eventId);
      if (!Number.isInteger(ttlMs) || ttlMs <= 0) throw new RangeError("ttlMs must be a positive integer");
      return guard("markDelivered", eventId, () => backend.markOnce(key, ttlMs, now()));
    },

    async withThreadLock(threadKey, fn, options) {
      return backend.lock.run(threadKey, fn, options);
    },

    async health() {
      if (closed) return { ok: false, backend: backend.name, error: "closed" };
      try {
        await backend.probe();
        return { ok: true, backend: backend.name };
      } catch (error) {
        return { ok: false, backend: backend.name, error: describeError(error) };
      }
    },

    async close() {
      if (closed) return;
      closed = true;
      await backend.close();
    },
  };
}
