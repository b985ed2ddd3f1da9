/**
 * Plain records beside the threads, for other parts of the app that need state shared by every instance
 * (the MCP server registry): get/set/delete of JSON values under `sc:v1:` keys, and a short exclusive
 * claim for read-modify-write across processes. Each backend provides it from what it already has.
 */
import type { Backend } from "./backend.ts";
import { KEY_PREFIX } from "./keys.ts";

export interface RecordStore {
  /** The stored value, or undefined. */
  get<T>(key: string): Promise<T | undefined>;
  set(key: string, value: unknown): Promise<void>;
  delete(key: string): Promise<void>;
  /** Takes `key` for `ttlMs` when nobody holds it; true when this call took it. Release with delete(). */
  claim(key: string, ttlMs: number): Promise<boolean>;
}

/** Keys must live under the project's versioned prefix, so they can never clash with thread records. */
function checked(key: string): string {
  if (!key.startsWith(`${KEY_PREFIX}:`)) throw new TypeError(`record keys must start with ${KEY_PREFIX}:`);
  return key;
}

/** The record store of a backend. */
export function recordStoreOf(backend: Backend): RecordStore {
  return {
    async get<T>(key: string) {
      return (await backend.keyv.get(checked(key))) as T | undefined;
    },
    async set(key, value) {
      await backend.keyv.set(checked(key), value);
    },
    async delete(key) {
      await backend.keyv.delete(checked(key));
    },
    claim: (key, ttlMs) => backend.markOnce(checked(key), ttlMs, Date.now()),
  };
}
