/** Keep-alive details an operator relies on: backoff with jitter, the heartbeat, per-server timeouts. */
import { describe, expect, it } from "vitest";
import { ConnectionHealth } from "../../src/tools/connection-health.ts";
import { backoffDelay, type ConnectionTiming } from "../../src/tools/keepalive.ts";
import { createMcpHost } from "../../src/tools/mcp-host.ts";
import { startFakeMcpHttp } from "../fakes/fake-mcp-http.ts";
import { closeAfterEach, fastTiming, jgrantsConfig, mcpConfig, remoteServer } from "./helpers.ts";

const { track } = closeAfterEach();
const hostFor = (servers: Parameters<typeof createMcpHost>[0]["servers"], config = mcpConfig()) =>
  track(createMcpHost({ config, jgrants: jgrantsConfig, servers, timing: fastTiming }));

const timing = (random: () => number): ConnectionTiming => ({
  heartbeatMs: 0,
  recycleMs: 0,
  idleDisconnectMs: 0,
  backoffInitialMs: 1_000,
  backoffMaxMs: 60_000,
  demandRetryMs: 1_000,
  pingTimeoutMs: 1_000,
  listTimeoutMs: 1_000,
  random,
});

describe("reconnect backoff", () => {
  it("doubles per failure up to the cap, with jitter between half and all of each step", () => {
    const low = timing(() => 0);
    const high = timing(() => 0.999_999);
    expect([1, 2, 3, 4, 7, 20].map((n) => backoffDelay(n, high))).toEqual([
      1_000, 2_000, 4_000, 8_000, 60_000, 60_000,
    ]);
    expect([1, 2, 3, 20].map((n) => backoffDelay(n, low))).toEqual([500, 1_000, 2_000, 30_000]);
  });

  it("keeps a failing server failed through its retries, and connected resets the count", () => {
    const health = new ConnectionHealth(timing(() => 0.5));
    expect(health.report("s", 0).state).toBe("idle");
    health.attempting();
    expect(health.state).toBe("connecting");
    health.attemptFailed(new Error("connect ECONNREFUSED"));
    health.attempting();
    expect(health.report("s", 0)).toMatchObject({
      state: "failed",
      lastError: "Error: connect ECONNREFUSED",
    });
    health.attemptFailed(new Error("again"));
    expect(health.failures).toBe(2);
    expect(health.retryInMs()).toBeGreaterThan(0);
    health.connected("streamable-http");
    expect(health.report("s", 3)).toMatchObject({ state: "connected", transport: "streamable-http" });
    expect(health.failures).toBe(0);
    health.lost(new Error("transport closed"));
    health.attempting();
    expect(health.state).toBe("reconnecting");
  });
});

describe("heartbeat and timeouts", () => {
  it("notices an expired session at its first ping and re-initialises before any call", async () => {
    const http = track(await startFakeMcpHttp({ mode: "stateful", name: "s" }));
    // The ping timeout is capped by the interval: 500 ms keeps a loaded machine from timing out a live ping.
    const host = hostFor({ s: remoteServer("s", http.url) }, mcpConfig({ heartbeatMs: 500 }));
    expect((await host.callTool({ server: "s", tool: "echo", args: { text: "a" } })).isError).toBe(false);
    const calls = http.state.calls.echo;
    http.expireSessions();
    await expect.poll(() => http.sessionsOpened, { timeout: 5_000 }).toBe(2);
    // One failed ping was enough: the dead session is noticed within one heartbeat interval.
    expect(http.unknownSessionPosts).toBe(1);
    expect(http.state.calls.echo).toBe(calls);
    const after = await host.callTool({ server: "s", tool: "echo", args: { text: "b" } });
    expect(after).toMatchObject({ isError: false, text: "s:b" });
    expect(http.sessionsOpened).toBe(2);
  });

  it("applies a server's timeoutMs from mcp.json, and MCP_CALL_TIMEOUT_MS to the others", async () => {
    const http = track(await startFakeMcpHttp({ mode: "stateless", name: "s" }));
    const servers = {
      hasty: remoteServer("hasty", http.url, { timeoutMs: 150 }),
      plain: remoteServer("plain", http.url),
    };
    const host = hostFor(servers, mcpConfig({ callTimeoutMs: 400 }));
    const slow = { tool: "slow", args: { ms: 5_000 } };
    const hasty = await host.callTool({ server: "hasty", ...slow });
    expect(hasty).toMatchObject({ isError: true, error: "hasty/slow timed out after 150 ms" });
    const plain = await host.callTool({ server: "plain", ...slow });
    expect(plain).toMatchObject({ isError: true, error: "plain/slow timed out after 400 ms" });
    expect((await host.callTool({ server: "hasty", tool: "echo", args: { text: "ok" } })).isError).toBe(
      false,
    );
  });
});
