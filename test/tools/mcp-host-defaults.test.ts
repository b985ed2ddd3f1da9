import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMcpHost, type McpHost } from "../../src/tools/mcp-host.ts";
import { startFakeMcpHttp } from "../fakes/fake-mcp-http.ts";
import { fastTiming, jgrantsConfig, mcpConfig } from "./helpers.ts";

describe("MCP host with no mcp.json: the in-process built-ins", () => {
  let host: McpHost;
  const cwd = process.cwd();
  const dir = mkdtempSync(join(tmpdir(), "mcp-defaults-")); // a directory without mcp.json

  beforeAll(() => {
    process.chdir(dir);
    host = createMcpHost({
      config: mcpConfig(),
      jgrants: { ...jgrantsConfig, now: "2026-08-22T00:00:00Z" },
      timing: fastTiming,
    });
  });
  afterAll(async () => {
    process.chdir(cwd);
    await host?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("offers the jGrants and time tools, read-only and namespaced", async () => {
    const tools = await host.listTools();
    const names = tools.map((t) => t.qualifiedName);
    expect(names).toEqual(
      expect.arrayContaining(["jgrants__search_subsidies", "jgrants__get_subsidy_detail", "time__now"]),
    );
    expect(tools.every((t) => t.readOnly)).toBe(true);
    expect(host.status().map((s) => [s.name, s.state, s.transport])).toEqual([
      ["jgrants", "connected", "in-process"],
      ["time", "connected", "in-process"],
    ]);
  });

  it("runs the time server on the data clock (JGRANTS_NOW)", async () => {
    const result = await host.callTool({ server: "time", tool: "now", args: {} });
    expect(result.data).toMatchObject({ date: "2026-08-22", jst: "2026/08/22(土) 09:00", fiscalYear: 2026 });
  });

  it("uses a remote jGrants server when JGRANTS_MCP_URL is set", async () => {
    const remote = await startFakeMcpHttp({ mode: "stateful", name: "official" });
    const switched = createMcpHost({
      config: mcpConfig(),
      jgrants: { ...jgrantsConfig, mcpUrl: remote.url },
      timing: fastTiming,
    });
    try {
      const result = await switched.callTool({ server: "jgrants", tool: "echo", args: { text: "x" } });
      expect(result.text).toBe("official:x");
      expect(switched.status()[0]).toMatchObject({ name: "jgrants", transport: "streamable-http" });
    } finally {
      await switched.close();
      await remote.close();
    }
  });
});
