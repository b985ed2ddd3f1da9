/**
 * The in-process watch scheduler (one instance): every interval it runs the watches whose next run time
 * has come. The next run time is stored with the watch, so runs missed while the bot was down happen
 * once at start, not once per missed slot. Each digest's id is recorded before it is sent, so a digest
 * goes out once even when the process restarts between recording and saving; a failed send is retried
 * with backoff. Several instances need BullMQ (not in this slice).
 */
import { describeError } from "../errors.ts";
import { type Logger, silentLogger } from "../logger.ts";
import type { ToolHost } from "../types.ts";
import { buildDigest } from "./digest.ts";
import { nextRunAfter } from "./schedule.ts";
import type { Digest, Watch } from "./types.ts";
import type { WatchStore } from "./watch-store.ts";

export interface WatchSchedulerDeps {
  watches: WatchStore;
  tools: ToolHost;
  /** Posts a digest into its thread; throws when the post failed (it is retried). */
  deliver: (digest: Digest) => Promise<void>;
  clock: () => Date;
  intervalMs: number;
  logger?: Logger;
  /** Send attempts per digest and the first backoff delay (doubling). */
  attempts?: number;
  backoffMs?: number;
  sleep?: (ms: number) => Promise<void>;
}

export interface WatchScheduler {
  /** Runs due watches now, then every interval. */
  start(): void;
  /** Runs the due watches once; resolves with the digests sent. */
  runDue(): Promise<Digest[]>;
  stop(): Promise<void>;
}

/** Creates the scheduler; nothing runs until start() or runDue(). */
export function createWatchScheduler(deps: WatchSchedulerDeps): WatchScheduler {
  const logger = deps.logger ?? silentLogger;
  const attempts = deps.attempts ?? 3;
  const backoffMs = deps.backoffMs ?? 2_000;
  const sleep = deps.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms).unref?.()));
  let timer: ReturnType<typeof setInterval> | undefined;
  let running: Promise<Digest[]> | null = null;

  async function send(digest: Digest): Promise<boolean> {
    for (let attempt = 1; attempt <= attempts; attempt++) {
      try {
        await deps.deliver(digest);
        return true;
      } catch (error) {
        logger.warn({ err: error, digestId: digest.id, attempt }, "watch digest could not be sent");
        if (attempt < attempts) await sleep(backoffMs * 2 ** (attempt - 1));
      }
    }
    return false;
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

  async function runWatch(
    threadKey: string,
    watch: Watch,
    number: number,
    now: Date,
  ): Promise<Digest | null> {
    const content = await buildDigest(deps.tools, watch, number, now);
    const advanced: Watch = { ...content.watch, nextRunAt: nextRunAfter(watch.schedule, now).toISOString() };
    // One id per scheduled slot: a slot that was already sent (then the process stopped) is not resent.
    const id = `${threadKey}|${watch.id}|${watch.nextRunAt}`;
    const fresh = content.text !== null && (await deps.watches.markDigest(id));
    await saveWatch(threadKey, advanced);
    if (!fresh || content.text === null) return null;
    const { newIds, closingIds, moreCount } = content;
    const digest: Digest = {
      id,
      threadKey,
      watchId: watch.id,
      text: content.text,
      newIds,
      closingIds,
      moreCount,
    };
    return (await send(digest)) ? digest : null;
  }

  async function runOnce(): Promise<Digest[]> {
    const sent: Digest[] = [];
    for (const threadKey of await deps.watches.threads()) {
      const list = await deps.watches.list(threadKey);
      for (const [i, watch] of list.entries()) {
        const now = deps.clock();
        if (Date.parse(watch.nextRunAt) > now.getTime()) continue;
        try {
          const digest = await runWatch(threadKey, watch, i + 1, now);
          if (digest) sent.push(digest);
        } catch (error) {
          // The search failed: the watch stays due and is tried again at the next check.
          logger.warn({ threadKey, watchId: watch.id, error: describeError(error) }, "watch run failed");
        }
      }
    }
    return sent;
  }

  const runDue = (): Promise<Digest[]> => {
    // One pass at a time: a slow pass is joined, never overlapped.
    running ??= runOnce().finally(() => {
      running = null;
    });
    return running;
  };

  return {
    start() {
      if (timer || deps.intervalMs <= 0) return;
      void runDue().catch((error) => logger.error({ err: error }, "watch scheduler pass failed"));
      timer = setInterval(() => {
        void runDue().catch((error) => logger.error({ err: error }, "watch scheduler pass failed"));
      }, deps.intervalMs);
      timer.unref?.();
    },
    runDue,
    async stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
      await running?.catch(() => undefined);
    },
  };
}
