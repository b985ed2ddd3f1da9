import { createServer } from "node:net";
import { describe, expect, it } from "vitest";
import { createMcpHost, type McpHost } from "../../src/tools/mcp-host.ts";
import { startFakeMcpHttp } from "../fakes/fake-mcp-http.ts";
import {
  closeAfterEach,
  fastTiming,
  jgrantsConfig,
  mcpConfig,
  remoteServer,
  stdioServer,
} from "./helpers.ts";

const { track, defer } = closeAfterEach();

function hostFor(servers: Parameters<typeof createMcpHost>[0]["servers"], config = mcpConfig()): McpHost {
  return track(createMcpHost({ config, jgrants: jgrantsConfig, servers, timing: fastTiming }));
}

/** A port that nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const stateOf = (host: McpHost, name: string) => host.status().find((s) => s.name === name);
const echo = (host: McpHost, server: string, text = "hi") =>
  host.callTool({ server, tool: "echo", args: { text } });

describe("MCP host lifecycle", () => {
  it("connects lazily and lets concurrent first calls share one connection attempt", async () => {
    const http = track(await startFakeMcpHttp({ mode: "stateful", name: "s" }));
    const host = hostFor({ s: remoteServer("s", http.url) });
    expect(stateOf(host, "s")?.state).toBe("idle");
    expect(http.sessionsOpened).toBe(0);
    const results = await Promise.all([1, 2, 3, 4, 5].map((n) => echo(host, "s", String(n))));
    expect(results.every((r) => !r.isError)).toBe(true);
    expect(http.sessionsOpened).toBe(1);
  });

  it.each(["stateful", "stateless", "sse"] as const)(
    "survives a %s server killed and restarted on the same port, with no host restart",
    async (mode) => {
      const state = { calls: {} };
      let http = track(await startFakeMcpHttp({ mode, name: "s", state }));
      const host = hostFor({ s: remoteServer("s", http.url) });
      expect((await echo(host, "s", "before")).text).toBe("s:before");
      await http.close();
      http = track(await startFakeMcpHttp({ mode, name: "s", state, port: http.port }));
      const after = await echo(host, "s", "after");
      expect(after).toMatchObject({ isError: false, text: "s:after" });
      expect(http.sessionsOpened).toBeGreaterThanOrEqual(1);
      expect(stateOf(host, "s")?.state).toBe("connected");
    },
  );

  it("re-initialises an expired session (HTTP 404)", async () => {
    const http = track(await startFakeMcpHttp({ mode: "stateful", name: "s" }));
    const host = hostFor({ s: remoteServer("s", http.url) });
    await echo(host, "s");
    http.expireSessions();
    const result = await echo(host, "s", "again");
    expect(result).toMatchObject({ isError: false, text: "s:again" });
    expect(http.sessionsOpened).toBe(2);
  });

  it("does not retry a call that is not read-only, but reconnects for the next one", async () => {
    const http = track(await startFakeMcpHttp({ mode: "stateful", name: "s" }));
    const host = hostFor({ s: remoteServer("s", http.url) });
    await echo(host, "s");
    http.expireSessions();
    const write = await host.callTool({ server: "s", tool: "write", args: { value: "x" } });
    expect(write.isError).toBe(true);
    expect(http.state.calls.write ?? 0).toBe(0);
    await expect.poll(async () => (await echo(host, "s", "ok")).isError).toBe(false);
  });

  it("restarts a killed stdio child on the next use", async () => {
    const host = hostFor({ child: stdioServer("child") });
    const first = await host.callTool({ server: "child", tool: "search", args: { q: "pid" } });
    const pid = (first.data as { pid: number }).pid;
    process.kill(pid, "SIGKILL");
    await expect.poll(() => stateOf(host, "child")?.state).not.toBe("connected");
    const second = await host.callTool({ server: "child", tool: "search", args: { q: "pid" } });
    expect(second.isError).toBe(false);
    expect((second.data as { pid: number }).pid).not.toBe(pid);
  });

  it("notices a dead server through the heartbeat, then reconnects when it is back", async () => {
    const state = { calls: {} };
    let http = track(await startFakeMcpHttp({ mode: "stateful", name: "s", state }));
    // 300 ms: the ping timeout is capped by the interval, and a loaded machine must not time out a live ping.
    const host = hostFor({ s: remoteServer("s", http.url) }, mcpConfig({ heartbeatMs: 300 }));
    await echo(host, "s");
    expect(stateOf(host, "s")?.state).toBe("connected");
    await http.close();
    await expect.poll(() => stateOf(host, "s")?.state, { timeout: 2_000 }).not.toBe("connected");
    expect(stateOf(host, "s")?.lastError).toBeTruthy();
    http = track(await startFakeMcpHttp({ mode: "stateful", name: "s", state, port: http.port }));
    await expect.poll(() => stateOf(host, "s")?.state, { timeout: 5_000 }).toBe("connected");
  });

  it("keeps working when one server is unreachable at start-up, and status says so", async () => {
    const http = track(await startFakeMcpHttp({ mode: "stateless", name: "up" }));
    const host = hostFor({
      down: remoteServer("down", `http://127.0.0.1:${await closedPort()}/mcp`),
      missing: {
        kind: "stdio",
        name: "missing",
        command: "/nonexistent/mcp-server",
        args: [],
        enabled: true,
      },
      up: remoteServer("up", http.url),
    });
    await host.warmUp();
    const tools = await host.listTools();
    expect(tools.length).toBeGreaterThan(0);
    expect(tools.every((t) => t.server === "up")).toBe(true);
    expect(stateOf(host, "down")).toMatchObject({ state: "failed", toolCount: 0 });
    expect(stateOf(host, "down")?.lastError).toBeTruthy();
    expect(stateOf(host, "missing")).toMatchObject({ state: "failed" });
    expect(stateOf(host, "missing")?.lastError).toContain("ENOENT");
    expect(stateOf(host, "up")).toMatchObject({ state: "connected" });
    const failed = await echo(host, "down");
    expect(failed.isError).toBe(true);
    expect(failed.error).toContain("down/echo");
  });

  it("gives up on a server that accepts connections but never answers, without holding the others", async () => {
    const sockets = new Set<import("node:net").Socket>();
    const hung = createServer((socket) => sockets.add(socket));
    await new Promise<void>((resolve) => hung.listen(0, "127.0.0.1", resolve));
    defer(async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => hung.close(resolve));
    });
    const http = track(await startFakeMcpHttp({ mode: "stateless", name: "up" }));
    const host = track(
      createMcpHost({
        config: mcpConfig(),
        jgrants: jgrantsConfig,
        servers: {
          hung: remoteServer("hung", `http://127.0.0.1:${(hung.address() as { port: number }).port}/mcp`),
          up: remoteServer("up", http.url),
        },
        timing: { ...fastTiming, connectTimeoutMs: 300 },
      }),
    );
    const tools = await host.listTools();
    expect(new Set(tools.map((t) => t.server))).toEqual(new Set(["up"]));
    expect(stateOf(host, "hung")).toMatchObject({ state: "failed" });
    expect(stateOf(host, "hung")?.lastError).toMatch(/timed out/i);
  });

  it("disconnects an idle server and reconnects on the next use", async () => {
    const http = track(await startFakeMcpHttp({ mode: "stateful", name: "s" }));
    const host = hostFor({ s: remoteServer("s", http.url) }, mcpConfig({ idleDisconnectMs: 100 }));
    await echo(host, "s");
    await expect.poll(() => stateOf(host, "s")?.state).toBe("idle");
    expect((await echo(host, "s", "back")).text).toBe("s:back");
    expect(http.sessionsOpened).toBe(2);
  });

  it("recycles connections periodically", async () => {
    const http = track(await startFakeMcpHttp({ mode: "stateful", name: "s" }));
    const host = hostFor({ s: remoteServer("s", http.url) }, mcpConfig({ recycleMs: 150 }));
    await echo(host, "s");
    await expect.poll(() => http.sessionsOpened, { timeout: 3_000 }).toBeGreaterThanOrEqual(2);
    expect((await echo(host, "s", "fresh")).isError).toBe(false);
  });

  it("close() ends every connection and child process", async () => {
    const host = createMcpHost({
      config: mcpConfig({ heartbeatMs: 50 }),
      jgrants: jgrantsConfig,
      servers: { child: stdioServer("child") },
      timing: fastTiming,
    });
    const result = await host.callTool({ server: "child", tool: "search", args: { q: "pid" } });
    const pid = (result.data as { pid: number }).pid;
    await host.close();
    expect(() => process.kill(pid, 0)).toThrow();
    expect(stateOf(host, "child")?.state).toBe("closed");
    const afterClose = await echo(host, "child");
    expect(afterClose.isError).toBe(true);
  });
});
