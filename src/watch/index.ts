/**
 * Watches: saved searches of a thread, checked on a schedule, with digests in the thread. Built once by
 * the composition root from the store's records, the agent's ToolHost and the app's clock.
 */
import type { Config } from "../config.ts";
import type { Logger } from "../logger.ts";
import type { RecordStore } from "../store/index.ts";
import type { ThreadStore, ToolHost } from "../types.ts";
import { createWatchConversation, type WatchConversation } from "./conversation.ts";
import { createWatchScheduler, type WatchScheduler } from "./scheduler.ts";
import type { Digest } from "./types.ts";
import { createWatchStore, type WatchStore } from "./watch-store.ts";

export { parseWatchCommand } from "./commands.ts";
export type { Digest, WatchConversation, WatchScheduler, WatchStore };

export interface Watching {
  store: WatchStore;
  conversation: WatchConversation;
  scheduler: WatchScheduler;
  /** Sends digests of threads whose key starts with `prefix` (e.g. "slack:") through `send`. */
  deliverTo(prefix: string, send: (threadKey: string, text: string) => Promise<void>): void;
}

/**
 * Creates the watch store, the conversation and the scheduler. Digests go to the platform registered for
 * the thread's key; otherwise they are kept in the thread's inbox and shown on 「新着は？」 (web chat, CLI).
 */
export function createWatching(
  config: Config["watch"],
  deps: {
    records: RecordStore;
    history: ThreadStore;
    tools: ToolHost;
    clock: () => Date;
    logger: Logger;
  },
): Watching {
  const store = createWatchStore(deps.records);
  // Platforms that can post register here; other threads keep digests until asked (「新着は？」).
  const routes = new Map<string, (threadKey: string, text: string) => Promise<void>>();
  const deliver = (digest: Digest) => {
    for (const [prefix, send] of routes) {
      if (digest.threadKey.startsWith(prefix)) return send(digest.threadKey, digest.text);
    }
    return store.pushInbox(digest.threadKey, digest.text);
  };
  const conversation = createWatchConversation({
    watches: store,
    history: deps.history,
    tools: deps.tools,
    clock: deps.clock,
    maxPerThread: config.maxPerThread,
  });
  const scheduler = createWatchScheduler({
    watches: store,
    tools: deps.tools,
    clock: deps.clock,
    intervalMs: config.checkIntervalMs,
    logger: deps.logger,
    deliver,
  });
  return {
    store,
    conversation,
    scheduler,
    deliverTo(prefix, send) {
      routes.set(prefix, send);
    },
  };
}
