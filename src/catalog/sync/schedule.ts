/**
 * The sync schedule: one sync in the background at start, then one every refresh period (sooner, after
 * `resumeMs`, when the last one was cut short, so a partial sync resumes), and a light poll that reloads
 * the records when another instance synced. Timers never keep the process alive.
 */
import type { Logger } from "../../logger.ts";
import type { SyncReport } from "./types.ts";

export interface SchedulerOptions {
  refreshMs: number;
  resumeMs: number;
  pollMs: number;
  syncOnStart: boolean;
  logger: Logger;
  sync: () => Promise<SyncReport>;
  poll: () => Promise<void>;
}

/** Creates the scheduler; start() arms it, stop() disarms it. */
export function createScheduler(options: SchedulerOptions) {
  let next: NodeJS.Timeout | undefined;
  let poller: NodeJS.Timeout | undefined;
  let stopped = false;

  const arm = (ms: number) => {
    if (stopped || ms <= 0) return;
    next = setTimeout(run, ms);
    next.unref();
  };

  function run(): void {
    options.sync().then(
      (report) => {
        const cut = report.outcome === "partial" || report.outcome === "failed";
        arm(cut ? Math.min(options.resumeMs, options.refreshMs) : options.refreshMs);
      },
      (error: unknown) => {
        options.logger.error({ err: error }, "scheduled catalog sync failed");
        arm(options.resumeMs);
      },
    );
  }

  return {
    start() {
      if (stopped || next || poller) return;
      if (options.syncOnStart) run();
      else arm(options.refreshMs);
      poller = setInterval(() => {
        options.poll().catch((error: unknown) => options.logger.warn({ err: error }, "catalog poll failed"));
      }, options.pollMs);
      poller.unref();
    },
    stop() {
      stopped = true;
      clearTimeout(next);
      clearInterval(poller);
    },
  };
}
