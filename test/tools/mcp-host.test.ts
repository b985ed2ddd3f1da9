import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMcpHost, type McpHost } from "../../src/tools/mcp-host.ts";
import { type FakeMcpHttp, startFakeMcpHttp } from "../fakes/fake-mcp-http.ts";
import { fastTiming, jgrantsConfig, mcpConfig, remoteServer, stdioServer } from "./helpers.ts";

describe("MCP host over stdio, Streamable HTTP (stateful, stateless) and SSE", () => {
  let stateful: FakeMcpHttp;
  let stateless: FakeMcpHttp;
  let sse: FakeMcpHttp;
  let host: McpHost;

  beforeAll(async () => {
    [stateful, stateless, sse] = await Promise.all([
      startFakeMcpHttp({ mode: "stateful" }),
      startFakeMcpHttp({ mode: "stateless" }),
      startFakeMcpHttp({ mode: "sse", name: "legacy" }),
    ]);
    host = createMcpHost({
      config: mcpConfig(),
      jgrants: jgrantsConfig,
      timing: fastTiming,
      servers: {
        // add_tool changes the server (it is not read-only): this server opts in to such tools.
        local: { ...stdioServer("local"), allowWrite: true },
        stateful: remoteServer("stateful", stateful.url),
        stateless: remoteServer("stateless", stateless.url),
        legacy: remoteServer("legacy", sse.url),
        limited: remoteServer("limited", stateful.url, {
          allowTools: ["echo", "search"],
          blockTools: ["search"],
        }),
        off: remoteServer("off", stateful.url, { enabled: false }),
      },
    });
  });

  afterAll(async () => {
    await host?.close();
    await Promise.all([stateful?.close(), stateless?.close(), sse?.close()]);
  });

  it("calls a tool on every transport and reports which transport each uses", async () => {
    for (const server of ["local", "stateful", "stateless", "legacy"]) {
      const result = await host.callTool({ server, tool: "echo", args: { text: "こんにちは" } });
      expect(result).toMatchObject({ isError: false, text: `${server}:こんにちは` });
    }
    const transports = Object.fromEntries(host.status().map((s) => [s.name, [s.state, s.transport]]));
    expect(transports).toMatchObject({
      local: ["connected", "stdio"],
      stateful: ["connected", "streamable-http"],
      stateless: ["connected", "streamable-http"],
      legacy: ["connected", "sse"],
      off: ["disabled", undefined],
    });
  });

  it("namespaces tools so two servers may both have `search`, and routes each call", async () => {
    const tools = await host.listTools();
    const searches = tools.filter((t) => t.name === "search");
    expect(searches.map((t) => t.qualifiedName).sort()).toEqual([
      "legacy__search",
      "local__search",
      "stateful__search",
      "stateless__search",
    ]);
    expect(tools.find((t) => t.qualifiedName === "local__search")).toMatchObject({
      server: "local",
      readOnly: true,
    });
    expect(tools.find((t) => t.qualifiedName === "local__write")?.readOnly).toBe(false);
    const a = await host.callTool({ server: "local", tool: "search", args: { q: "補助金" } });
    const b = await host.callTool({ server: "stateful", tool: "search", args: { q: "補助金" } });
    expect(a.data).toMatchObject({ server: "local", q: "補助金" });
    expect(b.data).toMatchObject({ server: "stateful", q: "補助金" });
    const byQualified = await host.callTool({ server: "", tool: "legacy__search", args: { q: "IT導入" } });
    expect(byQualified.data).toMatchObject({ server: "legacy" });
  });

  it("applies allowTools and blockTools to listing and calls", async () => {
    const tools = await host.listTools();
    expect(tools.filter((t) => t.server === "limited").map((t) => t.name)).toEqual(["echo"]);
    const blocked = await host.callTool({ server: "limited", tool: "search", args: { q: "ab" } });
    expect(blocked).toMatchObject({ isError: true });
    expect(blocked.error).toContain("not allowed");
  });

  it("returns schema mismatches as tool errors without calling the server", async () => {
    const before = stateful.state.calls.echo ?? 0;
    const result = await host.callTool({ server: "stateful", tool: "echo", args: { text: 42 } });
    expect(result.isError).toBe(true);
    expect(result.error).toMatch(/invalid arguments for echo: .*text.*string/);
    const missing = await host.callTool({ server: "stateful", tool: "search", args: {} });
    expect(missing.error).toMatch(/required property 'q'/);
    const badEnum = await host.callTool({
      server: "stateful",
      tool: "search",
      args: { q: "IT", area: "火星" },
    });
    expect(badEnum.error).toContain("args/area must be equal to one of the allowed values (全国, 東京都)");
    expect(stateful.state.calls.echo ?? 0).toBe(before);
  });

  it("reports unknown servers, unknown tools and disabled servers as tool errors", async () => {
    const noServer = await host.callTool({ server: "nope", tool: "echo", args: {} });
    expect(noServer.error).toContain('server "nope" is unknown');
    const noTool = await host.callTool({ server: "local", tool: "nope", args: {} });
    expect(noTool.error).toMatch(/unknown tool "nope" on server "local" \(tools: .*echo/);
    const disabled = await host.callTool({ server: "off", tool: "echo", args: { text: "x" } });
    expect(disabled.error).toContain("disabled");
  });

  it('recognises the official {"error": …} convention as an error', async () => {
    const result = await host.callTool({ server: "stateless", tool: "legacy_error", args: {} });
    expect(result.isError).toBe(true);
    expect(result.error).toBe("keyword は2〜255文字の非空文字列で指定してください");
  });

  it("caps long results with a visible marker", async () => {
    const result = await host.callTool({ server: "local", tool: "big", args: { n: 1_500 } });
    expect(result.isError).toBe(false);
    expect(result.truncated).toBe(true);
    expect(result.text).toMatch(/…\[truncated 500 chars\]$/);
  });

  it("turns a per-call timeout and an abort into tool errors", async () => {
    const timedOut = await host.callTool(
      { server: "stateful", tool: "slow", args: { ms: 5_000 } },
      { timeoutMs: 150 },
    );
    expect(timedOut).toMatchObject({ isError: true });
    expect(timedOut.error).toContain("timed out after 150 ms");
    const controller = new AbortController();
    const pending = host.callTool(
      { server: "local", tool: "slow", args: { ms: 5_000 } },
      { signal: controller.signal },
    );
    setTimeout(() => controller.abort(), 50);
    const aborted = await pending;
    expect(aborted.error).toContain("aborted");
    const after = await host.callTool({ server: "stateful", tool: "echo", args: { text: "still fine" } });
    expect(after.isError).toBe(false);
  });

  it("refreshes the cached tool list on notifications/tools/list_changed", async () => {
    let changes = 0;
    const off = host.onToolsChanged(() => changes++);
    expect((await host.listTools()).some((t) => t.qualifiedName === "local__added")).toBe(false);
    await host.callTool({ server: "local", tool: "add_tool", args: {} });
    await expect.poll(() => changes).toBeGreaterThan(0);
    expect((await host.listTools()).some((t) => t.qualifiedName === "local__added")).toBe(true);
    off();
  });
});
