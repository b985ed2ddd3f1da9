/**
 * Watches: saved searches of a thread, checked on a schedule, with digests in the thread. Built once by
 * the composition root from the store's records, the agent's ToolHost and the app's clock. One instance
 * (SQLite, memory) runs the embedded scheduler; with a Redis store, BullMQ job schedulers on that Redis
 * share the runs between instances.
 */
import type { Config } from "../config.ts";
import type { Logger } from "../logger.ts";
import type { RecordStore } from "../store/index.ts";
import type { ThreadStore, ToolHost } from "../types.ts";
import { type BullWatchScheduler, createBullWatchScheduler } from "./bull-scheduler.ts";
import { createWatchConversation, type WatchConversation } from "./conversation.ts";
import { createPushGate, type PushGate } from "./push-gate.ts";
import { createWatchRunner } from "./run-watch.ts";
import { createWatchScheduler, type EmbeddedWatchScheduler } from "./scheduler.ts";
import type { Delivery, Digest } from "./types.ts";
import { createWatchStore, type WatchStore } from "./watch-store.ts";

export { parseWatchCommand } from "./commands.ts";
export type { Digest, WatchConversation, WatchStore };
export type WatchScheduler = EmbeddedWatchScheduler | BullWatchScheduler;

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
  /**
   * The digests kept for a thread that is opened again (web chat page, resumed CLI thread), oldest first;
   * they enter the thread's history under its lock, so a follow-up refers to them.
   */
  openThread(threadKey: string): Promise<string[]>;
}

/**
 * Creates the watch store, the conversation and the scheduler. Digests go to the platform registered for
 * the thread's key; otherwise they are kept in the thread's inbox and shown when the thread is next
 * opened or asks 「新着は？」 (web chat, CLI).
 */
export function createWatching(
  config: Config["watch"],
  deps: {
    records: RecordStore;
    history: ThreadStore;
    tools: ToolHost;
    clock: () => Date;
    logger: Logger;
    /** The store's Redis: watches are scheduled with BullMQ there. */
    redisUrl?: string;
  },
): Watching {
  const base = createWatchStore(deps.records);
  let bull: BullWatchScheduler | undefined;
  // With BullMQ, every change of a thread's watches is mirrored in its job schedulers.
  const store: WatchStore = {
    ...base,
    async save(threadKey, watches) {
      const before = bull ? await base.list(threadKey) : [];
      await base.save(threadKey, watches);
      await bull?.sync(threadKey, before, watches);
    },
  };
  const push = createPushGate(deps.records, config.linePushesPerMonth);
  // Platforms that can post register here; other threads keep digests until opened or asked.
  const routes = new Map<string, { send: (digest: Digest) => Promise<void>; metered: boolean }>();
  const keep = async (digest: Digest): Promise<Delivery> => {
    const { text, listed, conditions } = digest;
    await store.pushInbox(digest.threadKey, { text, listed, conditions });
    return "kept";
  };
  const deliver = async (digest: Digest): Promise<Delivery> => {
    const route = [...routes].find(([prefix]) => digest.threadKey.startsWith(prefix))?.[1];
    if (!route) return keep(digest);
    if (route.metered) {
      const left = await push.take(digest.threadKey, deps.clock());
      if (left === null) return keep(digest);
      const quota = `（LINEのお知らせは月${push.monthlyCap}回まで。今月はあと${left}回です。「通知をオフ」で止められます）`;
      digest = { ...digest, text: `${digest.text}\n${quota}` };
    }
    await route.send(digest);
    return "posted";
  };
  const conversation = createWatchConversation({
    watches: store,
    history: deps.history,
    tools: deps.tools,
    clock: deps.clock,
    maxPerThread: config.maxPerThread,
    push,
  });
  const runner = createWatchRunner({
    watches: store,
    tools: deps.tools,
    threads: deps.history,
    clock: deps.clock,
    logger: deps.logger,
    deliver,
  });
  let scheduler: WatchScheduler;
  if (deps.redisUrl) {
    bull = createBullWatchScheduler({
      redisUrl: deps.redisUrl,
      watches: base,
      runner,
      logger: deps.logger,
      work: config.checkIntervalMs > 0,
    });
    scheduler = bull;
  } else {
    scheduler = createWatchScheduler({
      watches: store,
      runner,
      clock: deps.clock,
      intervalMs: config.checkIntervalMs,
      logger: deps.logger,
    });
  }
  return {
    store,
    conversation,
    scheduler,
    push,
    deliverTo(prefix, send, options = {}) {
      routes.set(prefix, { send, metered: options.metered === true });
    },
    openThread(threadKey) {
      return deps.history.withThreadLock(threadKey, () => conversation.takeKept(threadKey));
    },
  };
}
