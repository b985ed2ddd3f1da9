import { createClient } from "@keyv/redis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { silentLogger } from "../../src/logger.ts";
import { createThreadStore } from "../../src/store/index.ts";
import { type RedisServer, redisServerAvailable, startRedisServer } from "../helpers/redis-server.ts";
import { describeThreadStoreContract, type StoreConfig, turnOf } from "./contract.ts";

const available = redisServerAvailable();
let server: RedisServer | undefined;

const configFor = (url: string, overrides: Partial<StoreConfig> = {}): StoreConfig => ({
  backend: "redis",
  sqlitePath: "unused",
  redisUrl: url,
  maxTurns: 20,
  maxBytes: 32_768,
  ttlMs: 30 * 86_400_000,
  dedupTtlMs: 3_600_000,
  lockWaitMs: 5_000,
  ...overrides,
});

/** Polls `check` until it returns true (behaviour that depends on Redis' own clock). */
async function eventually(check: () => Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 200; i += 1) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`never happened: ${what}`);
}

describe.runIf(available)("redis backend", () => {
  beforeAll(async () => {
    server = await startRedisServer();
  });
  afterAll(async () => {
    await server?.stop();
  });

  describeThreadStoreContract(
    "redis",
    (overrides, now) => createThreadStore(configFor(server!.url, overrides), { logger: silentLogger, now }),
    false,
  );

  it("lets Redis expire history and delivery marks by their TTL", async () => {
    const store = await createThreadStore(configFor(server!.url, { ttlMs: 300 }));
    await store.append("slack:T1:C1:ttl", turnOf(1));
    expect(await store.markDelivered("EvTtl", 300)).toBe(true);
    expect(await store.markDelivered("EvTtl", 300)).toBe(false);
    await eventually(async () => (await store.load("slack:T1:C1:ttl")).length === 0, "history expired");
    await eventually(() => store.markDelivered("EvTtl", 300), "delivery mark expired");
    await store.close();
  });

  it("throws StoreError when Redis dies mid-turn, turns unhealthy, and recovers when it returns", async () => {
    const own = await startRedisServer();
    const store = await createThreadStore(configFor(own.url));
    await store.append("line:U1", turnOf(1));
    expect(await store.health()).toEqual({ ok: true, backend: "redis" });
    await store.withThreadLock("line:U1", async () => {
      expect(await store.load("line:U1")).toHaveLength(1);
      await own.stop(true);
      await expect(store.append("line:U1", turnOf(2))).rejects.toMatchObject({ code: "STORE_UNAVAILABLE" });
      await expect(store.load("line:U1")).rejects.toMatchObject({ code: "STORE_UNAVAILABLE" });
      await expect(store.markDelivered("EvDown")).rejects.toMatchObject({ code: "STORE_UNAVAILABLE" });
    });
    const health = await store.health();
    expect(health).toMatchObject({ ok: false, backend: "redis" });
    expect(health.error).toBeTruthy();
    // Turns still run (serialised in this process) while Redis is away.
    expect(await store.withThreadLock("line:U1", async () => "answered")).toBe("answered");
    const back = await startRedisServer(own.port);
    await eventually(async () => (await store.health()).ok, "health back to ok");
    expect(await store.load("line:U1")).toEqual([]);
    await store.append("line:U1", turnOf(3));
    expect(await store.load("line:U1")).toHaveLength(1);
    await store.close();
    await back.stop();
  });

  it("writes every key, locks included, under the version prefix sc:v1:", async () => {
    const own = await startRedisServer();
    const store = await createThreadStore(configFor(own.url));
    await store.withThreadLock("slack:T1:C1:prefix", async () => {
      await store.append("slack:T1:C1:prefix", turnOf(1));
      await store.markDelivered("slack:event:EvPrefix");
    });
    expect((await store.health()).ok).toBe(true);
    await store.close();
    const raw = createClient({ url: own.url });
    await raw.connect();
    const keys = await raw.keys("*");
    await raw.close();
    await own.stop();
    expect(keys).toEqual(
      expect.arrayContaining(["sc:v1:thread:slack:T1:C1:prefix", "sc:v1:dedup:slack:event:EvPrefix"]),
    );
    for (const key of keys) expect(key.startsWith("sc:v1:")).toBe(true);
  });

  it("starts with an unreachable Redis without hanging, reporting it", async () => {
    const gone = await startRedisServer();
    await gone.stop();
    const store = await createThreadStore(configFor(gone.url));
    await expect(store.load("web:x")).rejects.toMatchObject({ code: "STORE_UNAVAILABLE" });
    expect(await store.health()).toMatchObject({ ok: false, backend: "redis" });
    await store.close();
  });
});
