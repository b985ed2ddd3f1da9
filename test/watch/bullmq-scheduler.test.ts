/**
 * Watches on a Redis store are scheduled with BullMQ: two instances (each its own store connection, watch
 * conversation and BullMQ worker) on one real redis-server. A saved watch becomes one job scheduler at
 * 09:00 Asia/Tokyo; its digest is posted once between the two instances and written into the thread's
 * history; stopping the watch removes its job scheduler; a run missed while every instance was down runs
 * once after a restart, with no duplicate scheduler or job. Date is faked (set just before 09:00 JST and
 * running on), so BullMQ's delays are real but short.
 */
import { Queue } from "bullmq";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { loadConfig } from "../../src/config.ts";
import { silentLogger } from "../../src/logger.ts";
import { createThreadStore, type KeyvThreadStore } from "../../src/store/index.ts";
import { connectionOf } from "../../src/watch/bull-scheduler.ts";
import { createWatching, type Digest, type Watching } from "../../src/watch/index.ts";
import { type RedisServer, redisServerAvailable, startRedisServer } from "../helpers/redis-server.ts";
import { changingCatalog, ENERGY, NOW } from "./changing-catalog.ts";

const THREAD = "slack:T1:C1:1700.0001";
const JST = (local: string) => Date.parse(`${local}+09:00`);

const catalog = changingCatalog();
let redis: RedisServer | undefined;
let queue: Queue | undefined;

interface Instance {
  name: string;
  store: KeyvThreadStore;
  watching: Watching;
}
let instances: Instance[] = [];
const posted: Array<{ by: string; digest: Digest }> = [];

async function startInstance(name: string): Promise<Instance> {
  const config = loadConfig({ STORE_BACKEND: "redis", REDIS_URL: redis!.url });
  const store = await createThreadStore(config.store);
  const watching = createWatching(config.watch, {
    records: store.records,
    history: store,
    tools: catalog.host,
    clock: () => NOW,
    logger: silentLogger,
    redisUrl: redis!.url,
  });
  watching.deliverTo("slack:", async (digest) => {
    posted.push({ by: name, digest });
  });
  await watching.scheduler.start();
  return { name, store, watching };
}

async function stopAll(): Promise<void> {
  for (const { watching, store } of instances) {
    await watching.scheduler.stop();
    await store.close();
  }
  instances = [];
}

const bull = (i: Instance) => {
  if (i.watching.scheduler.kind !== "bullmq") throw new Error("expected the BullMQ scheduler");
  return i.watching.scheduler;
};

beforeAll(async () => {
  if (!redisServerAvailable()) return;
  redis = await startRedisServer();
  queue = new Queue("watch", { connection: connectionOf(redis.url), prefix: "sc:v1:bull" });
});
afterEach(async () => {
  await stopAll();
  vi.useRealTimers();
});
afterAll(async () => {
  await stopAll();
  await queue?.close();
  await catalog.host.close();
  await redis?.stop();
});

describe.skipIf(!redisServerAvailable())("watches scheduled with BullMQ on one Redis", () => {
  it("posts each digest once between two instances, into the thread's history, and stops with the watch", async () => {
    // Sunday 08:59:57 in Tokyo; the clock runs on from there.
    vi.useFakeTimers({ toFake: ["Date"], shouldAdvanceTime: true, now: JST("2026-08-23T08:59:57") });
    instances = [await startInstance("a"), await startInstance("b")];
    const [a, b] = instances as [Instance, Instance];
    const ids = await catalog.idsFor(ENERGY);
    const later = ids.slice(-2);
    for (const id of later) catalog.hidden.add(id);
    await a.store.append(THREAD, {
      question: ENERGY.query!,
      answer: "…",
      subsidies: [],
      conditions: ENERGY,
      at: NOW.toISOString(),
    });
    expect(await a.watching.conversation.handle(THREAD, { kind: "set" })).toContain(
      "ウォッチ1を保存しました",
    );

    // One job scheduler, seen the same from either instance: daily at 09:00 in Tokyo.
    const [schedule] = await bull(b).schedules();
    expect(await bull(b).schedules()).toHaveLength(1);
    expect(schedule).toMatchObject({ threadKey: THREAD, pattern: "0 9 * * *", tz: "Asia/Tokyo" });
    expect(schedule!.next).toBe(JST("2026-08-23T09:00:00"));

    // Two subsidies appear before 09:00; the run posts them once, from one of the two instances.
    catalog.hidden.clear();
    await expect.poll(() => posted.length, { timeout: 20_000, interval: 100 }).toBe(1);
    await expect
      .poll(async () => (await bull(a).schedules())[0]?.next, { timeout: 10_000 })
      .toBe(JST("2026-08-24T09:00:00"));
    // The slot's job finishes; only the next slot's job waits.
    await expect
      .poll(() => queue!.getJobCounts("active", "waiting", "delayed"), { timeout: 10_000 })
      .toMatchObject({ active: 0, waiting: 0, delayed: 1 });
    expect(posted).toHaveLength(1);
    const { digest } = posted[0]!;
    expect(digest.id).toBe(`${THREAD}|${schedule!.watchId}|2026-08-23T00:00:00.000Z`);
    expect(digest.newIds.sort()).toEqual([...later].sort());
    // The digest is the thread's last turn: 「2番目」 now means its second entry.
    const history = await b.store.load(THREAD);
    expect(history.at(-1)!.subsidies.map((s) => s.id)).toEqual(digest.listed.map((s) => s.id));

    // Stopping the watch in words removes its job scheduler and its next job.
    expect(await b.watching.conversation.handle(THREAD, { kind: "stop" })).toContain("すべて止めました");
    expect(await bull(a).schedules()).toEqual([]);
    expect((await queue!.getJobCounts("delayed")).delayed).toBe(0);
  });

  it("runs a slot missed while every instance was down once after a restart, with no duplicate", async () => {
    vi.useFakeTimers({ toFake: ["Date"], shouldAdvanceTime: true, now: JST("2026-08-30T12:00:00") });
    instances = [await startInstance("a"), await startInstance("b")];
    const [a] = instances as [Instance];
    const thread = "slack:T1:C2:1700.0002";
    const ids = await catalog.idsFor(ENERGY);
    catalog.hidden.add(ids.at(-1)!);
    await a.store.append(thread, {
      question: ENERGY.query!,
      answer: "…",
      subsidies: [],
      conditions: ENERGY,
      at: NOW.toISOString(),
    });
    await a.watching.conversation.handle(thread, { kind: "set", weekday: 1 });
    expect((await bull(a).schedules()).find((x) => x.threadKey === thread)).toMatchObject({
      pattern: "0 9 * * 1",
      tz: "Asia/Tokyo",
      next: JST("2026-08-31T09:00:00"),
    });
    await stopAll();

    // Both instances are down over Monday 09:00; a subsidy appeared meanwhile.
    catalog.hidden.clear();
    vi.setSystemTime(JST("2026-08-31T10:30:00"));
    const before = posted.length;
    instances = [await startInstance("a2"), await startInstance("b2")];
    await expect.poll(() => posted.length - before, { timeout: 20_000, interval: 100 }).toBe(1);
    await expect
      .poll(async () => (await bull(instances[0]!).schedules())[0]?.next, { timeout: 10_000 })
      .toBe(JST("2026-09-07T09:00:00"));
    expect(await bull(instances[1]!).schedules()).toHaveLength(1);
    // The slot's job finishes; only the next slot's job waits.
    await expect
      .poll(() => queue!.getJobCounts("active", "waiting", "delayed"), { timeout: 10_000 })
      .toMatchObject({ active: 0, waiting: 0, delayed: 1 });
    expect(posted.slice(before).map((p) => p.digest.newIds)).toEqual([[ids.at(-1)]]);
  });
});
