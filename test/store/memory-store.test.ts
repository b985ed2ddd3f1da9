import { afterEach, describe, expect, it, vi } from "vitest";
import { silentLogger } from "../../src/logger.ts";
import { createThreadStore } from "../../src/store/index.ts";
import { describeThreadStoreContract, type StoreConfig, turnOf } from "./contract.ts";

const base: StoreConfig = {
  backend: "memory",
  sqlitePath: "unused",
  redisUrl: undefined,
  maxTurns: 20,
  maxBytes: 32_768,
  ttlMs: 30 * 86_400_000,
  dedupTtlMs: 3_600_000,
  lockWaitMs: 5_000,
};

describeThreadStoreContract("memory", (overrides, now) =>
  createThreadStore({ ...base, ...overrides }, { logger: silentLogger, now }),
);

describe("memory store with fake timers", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("expires history after 30 days by the system clock", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2026-01-01T00:00:00Z"));
    const store = await createThreadStore(base, { logger: silentLogger });
    expect(store.backend).toBe("memory");
    await store.append("line:U1", turnOf(1));
    vi.setSystemTime(new Date("2026-01-30T23:00:00Z"));
    expect(await store.load("line:U1")).toHaveLength(1);
    vi.setSystemTime(new Date("2026-01-31T00:00:01Z"));
    expect(await store.load("line:U1")).toEqual([]);
    await store.close();
    await expect(store.load("line:U1")).rejects.toMatchObject({ code: "STORE_UNAVAILABLE" });
  });
});

describe("createThreadStore configuration", () => {
  it("names REDIS_URL when the redis backend has no URL", async () => {
    await expect(createThreadStore({ ...base, backend: "redis" })).rejects.toMatchObject({
      code: "CONFIG_INVALID",
      message: expect.stringContaining("REDIS_URL"),
    });
  });

  it("rejects a dedup TTL that is not a positive integer", async () => {
    const store = await createThreadStore(base);
    await expect(store.markDelivered("Ev1", 0)).rejects.toThrow(/ttlMs/);
    await store.close();
  });
});
