/**
 * Two bots on one real redis-server, both running the in-process scheduler at the same moment: the
 * digest id is claimed atomically in Redis before sending, so the thread gets the digest once.
 * (Coordinated scheduling across instances, e.g. BullMQ, is not part of this slice.)
 */
import { afterAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.ts";
import { createThreadStore, type KeyvThreadStore } from "../../src/store/index.ts";
import { createWatchScheduler } from "../../src/watch/scheduler.ts";
import type { Digest } from "../../src/watch/types.ts";
import { createWatchStore } from "../../src/watch/watch-store.ts";
import { type RedisServer, redisServerAvailable, startRedisServer } from "../helpers/redis-server.ts";
import { changingCatalog, ENERGY } from "./changing-catalog.ts";

const catalog = changingCatalog();
let redis: RedisServer | undefined;
const stores: KeyvThreadStore[] = [];
afterAll(async () => {
  for (const store of stores) await store.close();
  await catalog.host.close();
  await redis?.stop();
});

describe.skipIf(!redisServerAvailable())("two schedulers on one Redis", () => {
  it("send a due digest once between them", async () => {
    redis = await startRedisServer();
    const config = loadConfig({ STORE_BACKEND: "redis", REDIS_URL: redis.url }).store;
    for (let i = 0; i < 2; i++) stores.push(await createThreadStore(config));
    const due = "2026-08-24T00:00:00.000Z";
    await createWatchStore(stores[0]!.records).save("slack:T1:C1:1.0", [
      {
        id: "w1",
        conditions: ENERGY,
        schedule: { kind: "daily" },
        remindDays: null,
        nothingNewLine: false,
        createdAt: "2026-08-01T00:00:00.000Z",
        seen: [],
        reminded: [],
        nextRunAt: due,
      },
    ]);
    const sent: Digest[] = [];
    const schedulers = stores.map((store) =>
      createWatchScheduler({
        watches: createWatchStore(store.records),
        tools: catalog.host,
        clock: () => new Date(due),
        intervalMs: 60_000,
        deliver: async (digest) => {
          sent.push(digest);
        },
      }),
    );
    await Promise.all(schedulers.map((s) => s.runDue()));
    expect(sent).toHaveLength(1);
    expect(sent[0]!.id).toBe(`slack:T1:C1:1.0|w1|${due}`);
  });
});
