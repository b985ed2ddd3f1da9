/**
 * Watches in the app's store (memory, SQLite or Redis through the same Keyv), under versioned keys:
 * `sc:v1:watch:<threadKey>` per thread, `sc:v1:watch-index` listing the threads that have any, and
 * `sc:v1:digest:<id>` marking a digest as sent.
 */
import { KEY_PREFIX, type RecordStore } from "../store/index.ts";
import type { KeptDigest, ThreadWatches, Watch } from "./types.ts";

const INDEX_KEY = `${KEY_PREFIX}:watch-index`;
const watchKeyOf = (threadKey: string) => `${KEY_PREFIX}:watch:${threadKey}`;
const inboxKeyOf = (threadKey: string) => `${KEY_PREFIX}:watch-inbox:${threadKey}`;
/** Digests kept for a thread that has not asked yet (web chat, CLI); older ones drop off. */
const INBOX_MAX = 10;
/** How long a sent digest's mark is kept (far longer than any retry or restart). */
const DIGEST_MARK_TTL_MS = 90 * 86_400_000;
/** An inbox entry: a digest, or its text alone as the first watch slice kept it. */
type Kept = KeptDigest | string;

export interface WatchStore {
  /** The thread's watches, oldest first. */
  list(threadKey: string): Promise<Watch[]>;
  /** Replaces the thread's watches (an empty list removes the thread from the index). */
  save(threadKey: string, watches: Watch[]): Promise<void>;
  /** Threads that have watches. */
  threads(): Promise<string[]>;
  /** Records a digest id; true only the first time (the caller sends only then). */
  markDigest(digestId: string): Promise<boolean>;
  /** Keeps a digest for a thread that reads it when next opened or asked (「新着は？」). */
  pushInbox(threadKey: string, digest: KeptDigest): Promise<void>;
  /** The kept digests, oldest first, and empties the inbox. */
  takeInbox(threadKey: string): Promise<KeptDigest[]>;
}

/** Creates the watch store over the store's records. */
export function createWatchStore(records: RecordStore): WatchStore {
  // Read-modify-write of the index is serialised within this process (one scheduling instance).
  let indexChain: Promise<unknown> = Promise.resolve();
  const updateIndex = (change: (keys: string[]) => string[]) => {
    const run = indexChain.then(async () => {
      const keys = (await records.get<string[]>(INDEX_KEY)) ?? [];
      const next = change(keys);
      if (next.length !== keys.length || next.some((k, i) => k !== keys[i]))
        await records.set(INDEX_KEY, next);
    });
    indexChain = run.catch(() => undefined);
    return run;
  };

  return {
    async list(threadKey) {
      return (await records.get<ThreadWatches>(watchKeyOf(threadKey)))?.watches ?? [];
    },
    async save(threadKey, watches) {
      if (watches.length === 0) {
        await records.delete(watchKeyOf(threadKey));
        await updateIndex((keys) => keys.filter((k) => k !== threadKey));
        return;
      }
      const value: ThreadWatches = { threadKey, watches };
      await records.set(watchKeyOf(threadKey), value);
      await updateIndex((keys) => (keys.includes(threadKey) ? keys : [...keys, threadKey]));
    },
    async threads() {
      return (await records.get<string[]>(INDEX_KEY)) ?? [];
    },
    async pushInbox(threadKey, digest) {
      const kept = (await records.get<Kept[]>(inboxKeyOf(threadKey))) ?? [];
      await records.set(inboxKeyOf(threadKey), [...kept, digest].slice(-INBOX_MAX));
    },
    async takeInbox(threadKey) {
      const kept = (await records.get<Kept[]>(inboxKeyOf(threadKey))) ?? [];
      if (kept.length > 0) await records.delete(inboxKeyOf(threadKey));
      return kept.map((k) => (typeof k === "string" ? { text: k, listed: [], conditions: null } : k));
    },
    markDigest: (digestId) => records.claim(`${KEY_PREFIX}:digest:${digestId}`, DIGEST_MARK_TTL_MS),
  };
}
