/**
 * Two instances of the app on one real redis-server: a change made through one instance's admin API
 * reaches the other within 5 s, each instance connects to the new server on its own, and edits made at
 * the same moment on both are both kept.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { silentLogger } from "../../src/logger.ts";
import type { RunningApp } from "../../src/main.ts";
import { type FakeMcpHttp, startFakeMcpHttp } from "../fakes/fake-mcp-http.ts";
import { type RedisServer, redisServerAvailable, startRedisServer } from "../helpers/redis-server.ts";
import { type AdminClient, adminClient, startAdminApp } from "./helpers.ts";

const available = redisServerAvailable();

describe.skipIf(!available)("the registry shared by two instances on Redis", () => {
  let redis: RedisServer;
  let remote: FakeMcpHttp;
  const apps: RunningApp[] = [];
  let a: AdminClient;
  let b: AdminClient;

  beforeAll(async () => {
    redis = await startRedisServer();
    remote = await startFakeMcpHttp({ mode: "stateful", name: "shared" });
    for (let i = 0; i < 2; i++) {
      apps.push(await startAdminApp({ REDIS_URL: redis.url }, silentLogger));
    }
    [a, b] = apps.map(adminClient) as [AdminClient, AdminClient];
  });
  afterAll(async () => {
    for (const app of apps) await app.stop();
    await remote?.close();
    await redis?.stop();
  });

  it("shows a server added on one instance on the other within 5 s, connected by each on its own", async () => {
    expect((await a.call("POST", "", { name: "shared", config: { url: remote.url } })).status).toBe(201);
    await expect.poll(() => b.tools(), { timeout: 5_000 }).toContain("shared__echo");
    expect(await b.server("shared")).toMatchObject({ source: "store", state: "connected", updatedBy: "ops" });
    await expect.poll(async () => (await a.server("shared"))?.state, { timeout: 10_000 }).toBe("connected");
    // One session per instance: neither borrows the other's connection.
    expect(remote.sessionsOpened).toBe(2);
  });

  it("carries a disable and a removal made on the second instance back to the first", async () => {
    expect((await b.call("PATCH", "/shared", { enabled: false })).status).toBe(200);
    await expect.poll(() => a.tools(), { timeout: 5_000 }).not.toContain("shared__echo");
    expect(await a.server("shared")).toMatchObject({ enabled: false, state: "disabled" });
    expect((await b.call("DELETE", "/shared")).status).toBe(204);
    await expect.poll(() => a.server("shared"), { timeout: 5_000 }).toBeUndefined();
  });

  it("keeps both of two servers added at the same moment on different instances", async () => {
    const [one, two] = await Promise.all([
      a.call("POST", "", { name: "one", config: { url: remote.url } }),
      b.call("POST", "", { name: "two", config: { url: remote.url } }),
    ]);
    expect([one.status, two.status]).toEqual([201, 201]);
    for (const client of [a, b]) {
      await expect
        .poll(async () => (await client.call("GET", "")).body.servers.map((s: { name: string }) => s.name), {
          timeout: 5_000,
        })
        .toEqual(expect.arrayContaining(["one", "two"]));
    }
  });
});
