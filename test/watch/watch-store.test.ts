/**
 * Watches persist in the app's store on every backend: memory, a SQLite file (reopened, as after a
 * restart) and a real redis-server. Keys are versioned (sc:v1:watch:…); a digest id is taken only once.
 */
import { afterAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.ts";
import { createThreadStore, type KeyvThreadStore } from "../../src/store/index.ts";
import type { Watch } from "../../src/watch/types.ts";
import { createWatchStore } from "../../src/watch/watch-store.ts";
import { tempDir } from "../e2e/helpers/app.ts";
import { type RedisServer, redisServerAvailable, startRedisServer } from "../helpers/redis-server.ts";

const dir = tempDir("sc-watch-store-");
let redis: RedisServer | undefined;
afterAll(async () => {
  await redis?.stop();
  dir.remove();
});

const watch: Watch = {
  id: "w1",
  conditions: { keywords: ["省エネ"], query: "省エネ設備の補助金", area: "東京都" },
  schedule: { kind: "weekly", weekday: 1 },
  remindDays: 7,
  nothingNewLine: false,
  createdAt: "2026-08-22T03:00:00.000Z",
  seen: ["a", "b"],
  reminded: [],
  nextRunAt: "2026-08-24T00:00:00.000Z",
};

async function open(env: Record<string, string>): Promise<KeyvThreadStore> {
  return createThreadStore(loadConfig(env).store);
}

async function roundTrip(env: Record<string, string>, reopen: boolean) {
  let store = await open(env);
  let watches = createWatchStore(store.records);
  await watches.save("slack:T1:C1:1.0", [watch]);
  await watches.save("web:x", [{ ...watch, id: "w2" }]);
  expect(await watches.markDigest("slack:T1:C1:1.0|w1|2026-08-24T00:00:00.000Z")).toBe(true);
  if (reopen) {
    await store.close();
    store = await open(env);
    watches = createWatchStore(store.records);
  }
  expect(await watches.list("slack:T1:C1:1.0")).toEqual([watch]);
  expect(await store.records.get("sc:v1:watch:slack:T1:C1:1.0")).toMatchObject({
    threadKey: "slack:T1:C1:1.0",
  });
  expect((await watches.threads()).sort()).toEqual(["slack:T1:C1:1.0", "web:x"]);
  expect(await watches.markDigest("slack:T1:C1:1.0|w1|2026-08-24T00:00:00.000Z")).toBe(false);
  await watches.save("web:x", []);
  expect(await watches.threads()).toEqual(["slack:T1:C1:1.0"]);
  expect(await watches.list("web:x")).toEqual([]);
  const kept = (text: string) => ({ text, listed: [{ id: "a", title: "A" }], conditions: watch.conditions });
  await watches.pushInbox("web:x", kept("digest 1"));
  await watches.pushInbox("web:x", kept("digest 2"));
  expect(await watches.takeInbox("web:x")).toEqual([kept("digest 1"), kept("digest 2")]);
  expect(await watches.takeInbox("web:x")).toEqual([]);
  await store.close();
}

describe("the watch store", () => {
  it("keeps watches in memory", () => roundTrip({ STORE_BACKEND: "memory" }, false));

  it("keeps watches in a SQLite file across a reopen", () =>
    roundTrip({ STORE_BACKEND: "sqlite", SQLITE_PATH: `${dir.path}/threads.sqlite` }, true));

  it.skipIf(!redisServerAvailable())("keeps watches on a real redis-server across a reconnect", async () => {
    redis = await startRedisServer();
    await roundTrip({ STORE_BACKEND: "redis", REDIS_URL: redis.url }, true);
  });
});
