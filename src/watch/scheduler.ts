/**
 * The embedded watch scheduler (one instance; SQLite or memory store): every interval it runs the watches
 * whose next run time has come. The next run time is stored with the watch, so runs missed while the bot
 * was down happen once at start, not once per missed slot. Several instances (Redis) use BullMQ instead
 * (bull-scheduler.ts); both run a watch through the same runner.
 */
import { describeError } from "../errors.ts";
import { type Logger, silentLogger } from "../logger.ts";
import type { WatchRunner } from "./run-watch.ts";
import type { Digest } from "./types.ts";
import type { WatchStore } from "./watch-store.ts";

export interface WatchSchedulerDeps {
  watches: WatchStore;
  runner: WatchRunner;
  clock: () => Date;
  intervalMs: number;
  logger?: Logger;
}

export interface EmbeddedWatchScheduler {
  readonly kind: "embedded";
  /** Runs due watches now, then every interval. */
  start(): void;
  /** Runs the due watches once; resolves with the digests sent. */
  runDue(): Promise<Digest[]>;
  stop(): Promise<void>;
}

/** Creates the scheduler; nothing runs until start() or runDue(). */
export function createWatchScheduler(deps: WatchSchedulerDeps): EmbeddedWatchScheduler {
  const logger = deps.logger ?? silentLogger;
  const { runner } = deps;
  let timer: ReturnType<typeof setInterval> | undefined;
  let running: Promise<Digest[]> | null = null;

  async function runOnce(): Promise<Digest[]> {
    const sent: Digest[] = [];
    for (const threadKey of await deps.watches.threads()) {
      for (const watch of await deps.watches.list(threadKey)) {
        if (Date.parse(watch.nextRunAt) > deps.clock().getTime()) continue;
        try {
          const outcome = await runner.run(threadKey, watch.id, watch.nextRunAt);
          if (typeof outcome === "object") sent.push(outcome.digest);
        } catch (error) {
          // The search failed (or the thread stayed busy): the watch stays due and is tried at the next check.
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
  const pass = () => {
    void runDue().catch((error) => logger.error({ err: error }, "watch scheduler pass failed"));
  };

  return {
    kind: "embedded",
    start() {
      if (timer || deps.intervalMs <= 0) return;
      pass();
      timer = setInterval(pass, deps.intervalMs);
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
