/**
 * The in-process scheduler over the real store and the real jGrants MCP server: a run missed for weeks
 * happens once at start, the next one at the next Monday 09:00 JST (fake interval timers, a test clock),
 * a digest is sent once across restarts of a SQLite-backed bot, and a failed send is retried with backoff.
 */
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { loadConfig } from "../../src/config.ts";
import { silentLogger } from "../../src/logger.ts";
import { createThreadStore, type KeyvThreadStore } from "../../src/store/index.ts";
import { createWatchRunner, type WatchRunDeps } from "../../src/watch/run-watch.ts";
import { createWatchScheduler } from "../../src/watch/scheduler.ts";
import type { Digest, Watch } from "../../src/watch/types.ts";
import { createWatchStore, type WatchStore } from "../../src/watch/watch-store.ts";
import { tempDir } from "../e2e/helpers/app.ts";
import { changingCatalog, ENERGY, NOW } from "./changing-catalog.ts";

const catalog = changingCatalog();
const dir = tempDir("sc-watch-scheduler-");
afterAll(async () => {
  await catalog.host.close();
  dir.remove();
});

const THREAD = "slack:T1:C1:1700.0001";
const MONDAY_9_JST = "2026-08-24T00:00:00.000Z";

function weeklyWatch(seen: string[], nextRunAt: string): Watch {
  return {
    id: "w1",
    conditions: ENERGY,
    schedule: { kind: "weekly", weekday: 1 },
    remindDays: null,
    nothingNewLine: false,
    createdAt: "2026-07-01T00:00:00.000Z",
    seen,
    reminded: [],
    nextRunAt,
  };
}

const openStore = (sqlite?: string): Promise<KeyvThreadStore> =>
  createThreadStore(
    loadConfig(sqlite ? { STORE_BACKEND: "sqlite", SQLITE_PATH: sqlite } : { STORE_BACKEND: "memory" }).store,
  );

function schedulerOn(
  store: KeyvThreadStore,
  watches: WatchStore,
  now: () => Date,
  extra: Partial<WatchRunDeps> = {},
) {
  const sent: Digest[] = [];
  const runner = createWatchRunner({
    watches,
    tools: catalog.host,
    threads: store,
    clock: now,
    logger: silentLogger,
    deliver: async (digest) => {
      sent.push(digest);
      return "posted";
    },
    ...extra,
  });
  const scheduler = createWatchScheduler({ watches, runner, clock: now, intervalMs: 60_000 });
  return { scheduler, sent };
}

describe("the watch scheduler", () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("runs a run missed for weeks once at start, then waits for the next Monday 09:00 JST", async () => {
    const store = await openStore();
    const watches = createWatchStore(store.records);
    const all = await catalog.idsFor(ENERGY);
    // Saved long ago with five known; three weekly runs were missed while the bot was down.
    await watches.save(THREAD, [weeklyWatch(all.slice(0, 5), "2026-08-03T00:00:00.000Z")]);
    let now = NOW;
    const { scheduler, sent } = schedulerOn(store, watches, () => now);
    scheduler.start();
    await expect.poll(() => sent.length).toBe(1);
    // A second pass at the same moment finds nothing due: the missed runs are not replayed.
    await scheduler.runDue();
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({
      threadKey: THREAD,
      newIds: all.slice(5, 10),
      moreCount: all.length - 10,
    });
    expect((await watches.list(THREAD))[0]!.nextRunAt).toBe(MONDAY_9_JST);

    // Checks before Monday 09:00 send nothing.
    await vi.advanceTimersByTimeAsync(5 * 60_000);
    expect(sent).toHaveLength(1);

    // Monday 09:00 JST: the next check runs it; nothing new → nothing posted, next Monday planned.
    now = new Date(MONDAY_9_JST);
    await vi.advanceTimersByTimeAsync(60_000);
    await expect
      .poll(async () => (await watches.list(THREAD))[0]!.nextRunAt)
      .toBe("2026-08-31T00:00:00.000Z");
    expect(sent).toHaveLength(1);
    await scheduler.stop();
    await store.close();
  });

  it("sends a digest once across restarts, also when the bot stopped between recording and saving", async () => {
    const file = `${dir.path}/threads.sqlite`;
    let store = await openStore(file);
    const all = await catalog.idsFor(ENERGY);
    await createWatchStore(store.records).save(THREAD, [weeklyWatch(all.slice(0, 5), MONDAY_9_JST)]);
    await createWatchStore(store.records).save("web:t2", [{ ...weeklyWatch([], MONDAY_9_JST), id: "w2" }]);
    const now = () => new Date("2026-08-24T00:30:00.000Z");

    // First life: the web thread's digest is recorded, then the process dies before the watch is saved.
    const real = createWatchStore(store.records);
    const crashing: WatchStore = {
      ...real,
      async save(threadKey, list) {
        if (threadKey === "web:t2") throw new Error("process killed");
        return real.save(threadKey, list);
      },
    };
    const first = schedulerOn(store, crashing, now);
    await first.scheduler.runDue();
    expect(first.sent.map((d) => d.threadKey)).toEqual([THREAD]);
    await store.close();

    // Second life on the same file: nothing is sent again; the stuck watch moves on to its next slot.
    store = await openStore(file);
    const watches = createWatchStore(store.records);
    const second = schedulerOn(store, watches, now);
    second.scheduler.start();
    await second.scheduler.runDue();
    expect(second.sent).toEqual([]);
    expect((await watches.list("web:t2"))[0]!.nextRunAt).toBe("2026-08-31T00:00:00.000Z");
    await second.scheduler.stop();
    await store.close();
  });

  it("retries a failed send with growing backoff, and never sends the recorded digest twice", async () => {
    const store = await openStore();
    const watches = createWatchStore(store.records);
    await watches.save(THREAD, [weeklyWatch([], MONDAY_9_JST)]);
    const delays: number[] = [];
    let failures = 2;
    const posted: string[] = [];
    const { scheduler } = schedulerOn(store, watches, () => new Date(MONDAY_9_JST), {
      sleep: async (ms) => {
        delays.push(ms);
      },
      deliver: async (digest) => {
        if (failures-- > 0) throw new Error("chat.postMessage: ratelimited");
        posted.push(digest.id);
        return "posted";
      },
    });
    const sent = await scheduler.runDue();
    expect(delays).toEqual([2_000, 4_000]);
    expect(posted).toEqual([`${THREAD}|w1|${MONDAY_9_JST}`]);
    expect(sent.map((d) => d.id)).toEqual(posted);
    expect(await scheduler.runDue()).toEqual([]);
    expect(posted).toHaveLength(1);
    await store.close();
  });

  it("waits for a turn that holds the thread's lock, then writes the digest into the thread's history", async () => {
    const store = await openStore();
    const watches = createWatchStore(store.records);
    const all = await catalog.idsFor(ENERGY);
    await watches.save(THREAD, [weeklyWatch(all.slice(0, 5), MONDAY_9_JST)]);
    let queued!: () => void;
    const inLine = new Promise<void>((resolve) => {
      queued = resolve;
    });
    // The store the runner is given, telling when a run takes its place in the thread's line.
    const threads = {
      append: store.append.bind(store),
      withThreadLock: <T>(key: string, fn: () => Promise<T>) =>
        store.withThreadLock(key, fn, { onQueued: queued }),
    };
    const searches = catalog.calls.length;
    const { scheduler, sent } = schedulerOn(store, watches, () => new Date(MONDAY_9_JST), { threads });
    let release!: () => void;
    let entered!: () => void;
    const inTurn = new Promise<void>((resolve) => {
      entered = resolve;
    });
    // A turn of the agent's holds the lock (as agent.handle does) until released.
    const turn = store.withThreadLock(THREAD, async () => {
      entered();
      await new Promise<void>((resolve) => {
        release = resolve;
      });
      await store.append(THREAD, {
        question: "省エネの補助金",
        answer: "…",
        subsidies: [{ id: all[0]!, title: "その回の一覧" }],
        conditions: ENERGY,
        at: NOW.toISOString(),
      });
    });
    await inTurn;
    const pass = scheduler.runDue();
    // The run waits in the thread's line: no search, nothing sent, nothing written while the turn runs.
    await inLine;
    expect(catalog.calls.length).toBe(searches);
    expect(sent).toEqual([]);
    release();
    await turn;
    const [digest] = await pass;
    // The digest comes after the turn, as the thread's last entry: 「2番目」 means its second subsidy.
    const history = await store.load(THREAD);
    expect(history.map((t) => t.question)).toEqual(["省エネの補助金", "（ウォッチの新着）"]);
    expect(history[1]!.subsidies).toEqual(digest!.listed);
    expect(history[1]!.subsidies.map((s) => s.id)).toEqual(all.slice(5, 10));
    expect(history[1]!.conditions).toEqual(ENERGY);
    await store.close();
  });
});
