/**
 * The record store beside the threads (what the MCP server registry keeps its document in): JSON values
 * under `sc:v1:` keys and an exclusive claim that a delete releases, on a SQLite file and a real Redis.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createThreadStore, type StoreConfig } from "../../src/store/index.ts";
import { redisServerAvailable, startRedisServer } from "../helpers/redis-server.ts";

const base: Omit<StoreConfig, "backend"> = {
  sqlitePath: "",
  redisUrl: undefined,
  maxTurns: 20,
  maxBytes: 32_768,
  ttlMs: 86_400_000,
  dedupTtlMs: 60_000,
  lockWaitMs: 1_000,
};

async function exercise(config: StoreConfig): Promise<void> {
  const store = await createThreadStore(config);
  try {
    const { records } = store;
    expect(await records.get("sc:v1:test:doc")).toBeUndefined();
    await records.set("sc:v1:test:doc", { rev: 1, servers: { a: { url: "http://x" } } });
    expect(await records.get("sc:v1:test:doc")).toEqual({ rev: 1, servers: { a: { url: "http://x" } } });
    expect(await records.claim("sc:v1:test:claim", 5_000)).toBe(true);
    expect(await records.claim("sc:v1:test:claim", 5_000)).toBe(false);
    await records.delete("sc:v1:test:claim");
    expect(await records.claim("sc:v1:test:claim", 5_000)).toBe(true);
    await expect(records.get("thread:x")).rejects.toThrow(/sc:v1:/);
  } finally {
    await store.close();
  }
}

describe("records beside the threads", () => {
  it("stores values and claims on SQLite", async () => {
    const dir = mkdtempSync(join(tmpdir(), "sc-records-"));
    try {
      await exercise({ ...base, backend: "sqlite", sqlitePath: join(dir, "s.sqlite") });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.skipIf(!redisServerAvailable())("stores values and claims on Redis", async () => {
    const redis = await startRedisServer();
    try {
      await exercise({ ...base, backend: "redis", redisUrl: redis.url });
    } finally {
      await redis.stop();
    }
  });
});
