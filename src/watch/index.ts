/**
 * Watches: saved searches of a thread, checked on a schedule, with digests in the thread. Built once by
 * the composition root from the store's records, the agent's ToolHost and the app's clock.
 */
import type { Config } from "../config.ts";
import type { Logger } from "../logger.ts";
import type { RecordStore } from "../store/index.ts";
import type { ThreadStore, ToolHost } from "../types.ts";
import { createWatchConversation, type WatchConversation } from "./conversation.ts";
import { createPushGate, type PushGate } from "./push-gate.ts";
import { createWatchScheduler, type WatchScheduler } from "./scheduler.ts";
import type { Digest } from "./types.ts";
import { createWatchStore, type WatchStore } from "./watch-store.ts";

export { parseWatchCommand } from "./commands.ts";
export type { Digest, WatchConversation, WatchScheduler, WatchStore };

export interface Watching {
  store: WatchStore;
  conversation: WatchConversation;
  scheduler: WatchScheduler;
  push: PushGate;
  /**
   * Sends digests of threads whose key starts with `prefix` (e.g. "slack:") through `send`. A `metered`
   * platform (LINE) gets only opted-in chats' digests, within the monthly cap; the rest wait in the inbox.
   */
  deliverTo(prefix: string, send: (digest: Digest) => Promise<void>, options?: { metered?: boolean }): void;
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
  const push = createPushGate(deps.records, config.linePushesPerMonth);
  // Platforms that can post register here; other threads keep digests until asked (「新着は？」).
  const routes = new Map<string, { send: (digest: Digest) => Promise<void>; metered: boolean }>();
  const deliver = async (digest: Digest) => {
    const route = [...routes].find(([prefix]) => digest.threadKey.startsWith(prefix))?.[1];
    if (!route) return store.pushInbox(digest.threadKey, digest.text);
    if (!route.metered) return route.send(digest);
    const left = await push.take(digest.threadKey, deps.clock());
    if (left === null) return store.pushInbox(digest.threadKey, digest.text);
    const quota = `（LINEのお知らせは月${push.monthlyCap}回まで。今月はあと${left}回です。「通知をオフ」で止められます）`;
    return route.send({ ...digest, text: `${digest.text}\n${quota}` });
  };
  const conversation = createWatchConversation({
    watches: store,
    history: deps.history,
    tools: deps.tools,
    clock: deps.clock,
    maxPerThread: config.maxPerThread,
    push,
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
    push,
    deliverTo(prefix, send, options = {}) {
      routes.set(prefix, { send, metered: options.metered === true });
    },
  };
}
