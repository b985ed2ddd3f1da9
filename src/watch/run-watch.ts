/**
 * One scheduled run of one watch, shared by the embedded scheduler and the BullMQ worker. It holds the
 * thread's lock (the one the agent takes per turn) while it searches, records the digest, sends it and
 * writes it into the thread's history, so a digest never lands in the middle of a turn and a follow-up
 * (「2番目の詳細は？」) reads the digest's list. Each digest's id (thread, watch, slot) is recorded before
 * it is sent, so it goes out once across retries, restarts and instances; a failed send is retried with
 * backoff.
 */
import type { Logger } from "../logger.ts";
import type { ThreadStore, ToolHost } from "../types.ts";
import { buildDigest } from "./digest.ts";
import { digestTurn } from "./digest-turn.ts";
import { nextRunAfter } from "./schedule.ts";
import type { Delivery, Digest, Watch } from "./types.ts";
import type { WatchStore } from "./watch-store.ts";

export interface WatchRunDeps {
  watches: WatchStore;
  tools: ToolHost;
  /** The thread store the agent uses: its lock, and the history digests are written into. */
  threads: Pick<ThreadStore, "withThreadLock" | "append">;
  /** Posts a digest into its thread (or keeps it); throws when the post failed (it is retried). */
  deliver: (digest: Digest) => Promise<Delivery | undefined>;
  clock: () => Date;
  logger: Logger;
  /** Send attempts per digest and the first backoff delay (doubling). */
  attempts?: number;
  backoffMs?: number;
  sleep?: (ms: number) => Promise<void>;
}

/** What a run did: sent a digest, had nothing to send, or found the watch gone (stopped meanwhile). */
export type RunOutcome = { digest: Digest } | "nothing" | "gone";

/** Creates the runner of single watch runs. */
export function createWatchRunner(deps: WatchRunDeps) {
  const { logger } = deps;
  const attempts = deps.attempts ?? 3;
  const backoffMs = deps.backoffMs ?? 2_000;
  const sleep = deps.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms).unref?.()));

  async function send(digest: Digest): Promise<Delivery | null> {
    for (let attempt = 1; attempt <= attempts; attempt++) {
      try {
        return (await deps.deliver(digest)) ?? "posted";
      } catch (error) {
        logger.warn({ err: error, digestId: digest.id, attempt }, "watch digest could not be sent");
        if (attempt < attempts) await sleep(backoffMs * 2 ** (attempt - 1));
      }
    }
    return null;
  }

  /** Saves one watch's new state, keeping whatever the user changed meanwhile (a stopped watch stays stopped). */
  async function saveWatch(threadKey: string, watch: Watch): Promise<void> {
    const current = await deps.watches.list(threadKey);
    if (!current.some((w) => w.id === watch.id)) return;
    await deps.watches.save(
      threadKey,
      current.map((w) => (w.id === watch.id ? watch : w)),
    );
  }

  async function runLocked(threadKey: string, watchId: string, slot: string): Promise<RunOutcome> {
    const list = await deps.watches.list(threadKey);
    const number = list.findIndex((w) => w.id === watchId) + 1;
    const watch = list[number - 1];
    if (!watch) return "gone";
    const now = deps.clock();
    const content = await buildDigest(deps.tools, watch, number, now);
    const advanced: Watch = { ...content.watch, nextRunAt: nextRunAfter(watch.schedule, now).toISOString() };
    // One id per scheduled slot: a slot that was already sent (then the process stopped) is not resent.
    const id = `${threadKey}|${watch.id}|${slot}`;
    const fresh = content.text !== null && (await deps.watches.markDigest(id));
    await saveWatch(threadKey, advanced);
    if (!fresh || content.text === null) return "nothing";
    const { newIds, closingIds, moreCount, listed } = content;
    const digest: Digest = {
      id,
      threadKey,
      watchId: watch.id,
      text: content.text,
      newIds,
      closingIds,
      moreCount,
      listed,
      conditions: watch.conditions,
    };
    const delivery = await send(digest);
    if (delivery === null) return "nothing";
    // A kept digest enters the history when the thread reads it; a posted one is in the thread now.
    if (delivery === "posted") await deps.threads.append(threadKey, digestTurn(digest, deps.clock()));
    return { digest };
  }

  return {
    /** Runs the watch for the slot (an ISO time) under the thread's lock. */
    run(threadKey: string, watchId: string, slot: string): Promise<RunOutcome> {
      return deps.threads.withThreadLock(threadKey, () => runLocked(threadKey, watchId, slot));
    },
  };
}

export type WatchRunner = ReturnType<typeof createWatchRunner>;
