/**
 * A remote MCP server that dies must read as down at once, and a user's request must find it again as soon
 * as it is back (issue 14, defect 4). A real Streamable HTTP server on loopback is killed and restarted on
 * the same port; the heartbeat is off throughout, so nothing here can come from a ping.
 */
import { describe, expect, it } from "vitest";
import { createMcpHost, type McpHost, type McpHostTiming } from "../../src/tools/mcp-host.ts";
import { type FakeMcpHttp, startFakeMcpHttp } from "../fakes/fake-mcp-http.ts";
import {
  closeAfterEach,
  fastTiming,
  jgrantsConfig,
  mcpConfig,
  remoteServer,
  serveStatus,
} from "./helpers.ts";

const { track, defer } = closeAfterEach();

/** A host whose only server is a remote "jgrants" (essential for /healthz), plus its /healthz URL. */
async function setup(timing: Partial<McpHostTiming> = {}, extra = {}) {
  const state = { calls: {} };
  const http = await startFakeMcpHttp({ mode: "stateful", name: "jgrants", state });
  const server = { current: http };
  defer(() => server.current.close());
  const host: McpHost = track(
    createMcpHost({
      config: mcpConfig({ heartbeatMs: 0 }),
      jgrants: jgrantsConfig,
      servers: { jgrants: remoteServer("jgrants", http.url, extra) },
      timing: { ...fastTiming, ...timing },
    }),
  );
  const status = await serveStatus(host);
  defer(status.close);
  const healthz = async () => (await fetch(`${status.url}/healthz`)).status;
  const restart = async (): Promise<FakeMcpHttp> => {
    server.current = await startFakeMcpHttp({ mode: "stateful", name: "jgrants", state, port: http.port });
    return server.current;
  };
  const stateOf = () => host.status().find((s) => s.name === "jgrants")?.state;
  /** Kills the server, then lets one request fail on it: "failed", with a backoff window open. */
  const killAndFailOnce = async () => {
    await http.close();
    await expect.poll(stateOf, { timeout: 5_000 }).not.toBe("connected");
    expect(await host.listTools()).toEqual([]);
    expect(stateOf()).toBe("failed");
  };
  return { host, http, healthz, restart, killAndFailOnce, state: stateOf };
}

describe("a remote MCP server that dies (heartbeat off)", () => {
  it("reads as down as soon as its transport closes, with no call and no ping", async () => {
    const { host, http, healthz, state } = await setup();
    await host.listTools();
    expect(state()).toBe("connected");
    expect(await healthz()).toBe(200);
    await http.close();
    await expect.poll(state, { timeout: 5_000 }).not.toBe("connected");
    expect(await healthz()).toBe(503);
  });

  it("reads as down the moment a call fails on the dead server", async () => {
    // Background reconnects a minute apart, so the state below comes from the failed call alone.
    const { host, http, healthz, state } = await setup(
      { backoffInitialMs: 60_000, backoffMaxMs: 60_000 },
      { allowWrite: true },
    );
    await host.listTools();
    await http.close();
    // "write" is not read-only: no retry, so the call's own failure is what marks the server.
    const result = await host.callTool({ server: "jgrants", tool: "write", args: { value: "x" } });
    expect(result.isError).toBe(true);
    expect(state()).not.toBe("connected");
    expect(await healthz()).toBe(503);
  });

  it("a user's request after the server is back reconnects at once instead of waiting for the backoff", async () => {
    const { host, killAndFailOnce, restart, healthz, state } = await setup({
      backoffInitialMs: 60_000,
      backoffMaxMs: 60_000,
    });
    await host.listTools();
    await killAndFailOnce();
    const back = await restart();
    // The agent's listing must not wait for the next background attempt.
    const tools = await host.listTools();
    expect(tools.map((t) => t.name)).toContain("echo");
    expect(state()).toBe("connected");
    expect(back.sessionsOpened).toBe(1);
    expect(await healthz()).toBe(200);
  });

  it("rate-limits the attempts users trigger while the server stays down", async () => {
    const { host, killAndFailOnce, restart } = await setup({
      backoffInitialMs: 60_000,
      backoffMaxMs: 60_000,
      demandRetryMs: 60_000,
    });
    await host.listTools();
    await killAndFailOnce();
    const back = await restart();
    // The last attempt was just now: within demandRetryMs, requests get no new attempt.
    for (let i = 0; i < 5; i++) expect(await host.listTools()).toEqual([]);
    const call = await host.callTool({ server: "jgrants", tool: "echo", args: { text: "x" } });
    expect(call.isError).toBe(true);
    expect(call.error).toMatch(/unavailable/);
    expect(back.sessionsOpened).toBe(0);
  });
});
