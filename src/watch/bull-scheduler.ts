/**
 * The watch scheduler for several instances on one Redis: each watch is a BullMQ job scheduler (a
 * repeatable job) with a cron pattern in Asia/Tokyo, on the store's Redis. BullMQ makes one job per slot
 * (its id holds the slot time, so instances that upsert the same scheduler add no second job) and hands
 * each job to one worker; the runner's digest mark guards a job that BullMQ retries after a stall.
 * Watches saved or stopped in a thread are mirrored at once (sync); start() reconciles everything.
 * BullMQ is imported only here.
 */
import { type Job, Queue, Worker } from "bullmq";
import { describeError } from "../errors.ts";
import type { Logger } from "../logger.ts";
import { KEY_PREFIX } from "../store/index.ts";
import type { WatchRunner } from "./run-watch.ts";
import { cronOf, WATCH_TZ } from "./schedule.ts";
import type { Watch } from "./types.ts";
import type { WatchStore } from "./watch-store.ts";

const QUEUE = "watch";
const JOB = "watch-run";

interface WatchJobData {
  threadKey: string;
  watchId: string;
}

/** One watch's job scheduler as BullMQ keeps it. */
export interface WatchSchedule {
  id: string;
  threadKey: string;
  watchId: string;
  pattern: string;
  tz: string;
  /** The next run (ms since the epoch). */
  next: number | null;
}

export interface BullWatchScheduler {
  readonly kind: "bullmq";
  /** Connects, reconciles the job schedulers with the stored watches and (when `work`) starts the worker. */
  start(): Promise<void>;
  /** Mirrors a thread's watches after a save: new or rescheduled ones upserted, stopped ones removed. */
  sync(threadKey: string, before: Watch[], after: Watch[]): Promise<void>;
  /** The job schedulers in Redis (for tests and operators). */
  schedules(): Promise<WatchSchedule[]>;
  stop(): Promise<void>;
}

export interface BullSchedulerDeps {
  redisUrl: string;
  watches: WatchStore;
  runner: WatchRunner;
  logger: Logger;
  /** False: this instance keeps the schedulers in step but runs no watches. */
  work: boolean;
}

/** The connection options BullMQ passes to its Redis client, from a redis:// or rediss:// URL. */
export function connectionOf(redisUrl: string) {
  const url = new URL(redisUrl);
  const db = Number(url.pathname.slice(1) || 0);
  return {
    host: url.hostname.replace(/^\[|\]$/g, ""),
    port: Number(url.port || 6379),
    ...(url.username ? { username: decodeURIComponent(url.username) } : {}),
    ...(url.password ? { password: decodeURIComponent(url.password) } : {}),
    ...(db ? { db } : {}),
    ...(url.protocol === "rediss:" ? { tls: {} } : {}),
    // Workers block on Redis: BullMQ requires no per-request retry limit.
    maxRetriesPerRequest: null,
  };
}

/** A scheduler id without ":" (thread keys have them): the thread key in base64url, then the watch id. */
const schedulerIdOf = (threadKey: string, watchId: string) =>
  `${Buffer.from(threadKey).toString("base64url")}.${watchId}`;

/** The slot a job stands for: its id ends with the scheduled time (repeat:<scheduler>:<ms>). */
function slotOf(job: Job): string {
  const millis = Number(/:(\d+)$/.exec(job.id ?? "")?.[1] ?? job.timestamp + (job.opts.delay ?? 0));
  return new Date(millis).toISOString();
}

/** Creates the BullMQ scheduler; nothing connects until start(). */
export function createBullWatchScheduler(deps: BullSchedulerDeps): BullWatchScheduler {
  const { logger } = deps;
  const options = { connection: connectionOf(deps.redisUrl), prefix: `${KEY_PREFIX}:bull` };
  let queue: Queue<WatchJobData> | undefined;
  let worker: Worker<WatchJobData> | undefined;
  let stopped = false;

  const queueOf = () => {
    if (!queue) {
      queue = new Queue<WatchJobData>(QUEUE, options);
      // A Redis that goes away is reported here (an unheard "error" event would end the process).
      queue.on("error", (error) => logger.warn({ err: error }, "watch queue error"));
    }
    return queue;
  };

  async function upsert(threadKey: string, watch: Watch): Promise<void> {
    await queueOf().upsertJobScheduler(
      schedulerIdOf(threadKey, watch.id),
      { pattern: cronOf(watch.schedule), tz: WATCH_TZ },
      {
        name: JOB,
        data: { threadKey, watchId: watch.id },
        // A failed search is tried again later; the digest mark keeps a retried run from sending twice.
        opts: {
          attempts: 3,
          backoff: { type: "exponential", delay: 60_000 },
          removeOnComplete: true,
          removeOnFail: 100,
        },
      },
    );
  }

  async function process(job: Job<WatchJobData>): Promise<string | null> {
    const { threadKey, watchId } = job.data;
    const outcome = await deps.runner.run(threadKey, watchId, slotOf(job));
    if (outcome === "gone") {
      // Stopped while no instance could mirror it: the schedule goes too.
      await queueOf().removeJobScheduler(schedulerIdOf(threadKey, watchId));
      return null;
    }
    return outcome === "nothing" ? null : outcome.digest.id;
  }

  async function schedules(): Promise<WatchSchedule[]> {
    const all = await queueOf().getJobSchedulers(0, -1, true);
    return all.map((s) => {
      const data = s.template?.data as WatchJobData | undefined;
      return {
        id: s.key,
        threadKey: data?.threadKey ?? "",
        watchId: data?.watchId ?? "",
        pattern: s.pattern ?? "",
        tz: s.tz ?? "",
        next: s.next ?? null,
      };
    });
  }

  return {
    kind: "bullmq",
    async start() {
      const existing = new Map((await schedules()).map((s) => [s.id, s]));
      const wanted = new Set<string>();
      for (const threadKey of await deps.watches.threads()) {
        for (const watch of await deps.watches.list(threadKey)) {
          const id = schedulerIdOf(threadKey, watch.id);
          wanted.add(id);
          const known = existing.get(id);
          // Unchanged schedulers are left alone: upserting would move nothing but cost a write.
          if (known?.pattern !== cronOf(watch.schedule) || known.tz !== WATCH_TZ)
            await upsert(threadKey, watch);
        }
      }
      for (const id of existing.keys()) if (!wanted.has(id)) await queueOf().removeJobScheduler(id);
      // Stopped while reconciling (the app shut down early): no worker then.
      if (!deps.work || stopped) return;
      worker = new Worker<WatchJobData>(QUEUE, process, { ...options, concurrency: 4 });
      worker.on("failed", (job, error) =>
        logger.warn({ jobId: job?.id, error: describeError(error) }, "watch run failed"),
      );
      worker.on("error", (error) => logger.error({ err: error }, "watch worker error"));
      await worker.waitUntilReady();
    },
    async sync(threadKey, before, after) {
      try {
        for (const watch of after) {
          const old = before.find((w) => w.id === watch.id);
          if (!old || cronOf(old.schedule) !== cronOf(watch.schedule)) await upsert(threadKey, watch);
        }
        for (const watch of before) {
          if (!after.some((w) => w.id === watch.id))
            await queueOf().removeJobScheduler(schedulerIdOf(threadKey, watch.id));
        }
      } catch (error) {
        // The watch is saved; the next start() (or the worker, for a stopped one) puts the schedule right.
        logger.error({ err: error, threadKey }, "watch schedule could not be updated");
      }
    },
    schedules,
    async stop() {
      stopped = true;
      await worker?.close();
      await queue?.close();
      worker = undefined;
      queue = undefined;
    },
  };
}
