/**
 * The registry across restarts on one SQLite file, and the precedence of mcp.json over runtime entries:
 * the file is re-read at every start and wins for its names; a runtime entry it shadows comes back when
 * the file lets go of the name.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { silentLogger } from "../../src/logger.ts";
import type { RunningApp } from "../../src/main.ts";
import { type FakeMcpHttp, startFakeMcpHttp } from "../fakes/fake-mcp-http.ts";
import { adminClient, startAdminApp } from "./helpers.ts";

const dir = mkdtempSync(join(tmpdir(), "sc-registry-"));
const sqlite = join(dir, "store.sqlite");
const mcpJson = join(dir, "mcp.json");
let running: RunningApp | undefined;
let remote: FakeMcpHttp;
let other: FakeMcpHttp;

beforeAll(async () => {
  remote = await startFakeMcpHttp({ mode: "stateful", name: "docs" });
  other = await startFakeMcpHttp({ mode: "stateless", name: "filedocs" });
});
afterEach(async () => {
  await running?.stop();
  running = undefined;
});
afterAll(async () => {
  await remote?.close();
  await other?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function start(env: Record<string, string> = {}) {
  running = await startAdminApp({ SQLITE_PATH: sqlite, ...env }, silentLogger);
  return adminClient(running);
}

describe("the registry on SQLite", () => {
  it("keeps a server added at runtime across a restart, and connects it again", async () => {
    const first = await start();
    expect((await first.call("POST", "", { name: "docs", config: { url: remote.url } })).status).toBe(201);
    await running?.stop();

    const second = await start();
    const docs = await second.server("docs");
    expect(docs).toMatchObject({ source: "store", updatedBy: "ops", config: { url: remote.url } });
    expect(await second.tools()).toContain("docs__echo");
  });

  it("lets mcp.json win for a name it also has, read-only, and gives the name back when the file drops it", async () => {
    writeFileSync(
      mcpJson,
      JSON.stringify({
        mcpServers: { jgrants: { builtin: "jgrants" }, docs: { url: other.url, blockTools: ["write"] } },
      }),
    );
    const withFile = await start({ MCP_CONFIG: mcpJson });
    const shadowed = await withFile.server("docs");
    expect(shadowed).toMatchObject({ source: "file", config: { url: other.url } });
    expect((await withFile.call("PATCH", "/docs", { enabled: false })).status).toBe(409);
    expect((await withFile.call("DELETE", "/docs")).status).toBe(409);
    const echo = await running?.core.tools.callTool({ server: "docs", tool: "echo", args: { text: "x" } });
    expect(echo?.text).toBe("filedocs:x");
    // The file's servers are the seed: time is not in this file, so it is not running.
    expect((await withFile.server("time")) === undefined).toBe(true);
    await running?.stop();

    writeFileSync(mcpJson, JSON.stringify({ mcpServers: { jgrants: { builtin: "jgrants" } } }));
    const without = await start({ MCP_CONFIG: mcpJson });
    expect(await without.server("docs")).toMatchObject({ source: "store", config: { url: remote.url } });
    const back = await running?.core.tools.callTool({ server: "docs", tool: "echo", args: { text: "y" } });
    expect(back?.text).toBe("docs:y");
  });

  it("has no admin API at all without ADMIN_TOKEN", async () => {
    const client = await start({ ADMIN_TOKEN: "" });
    expect((await client.call("GET", "")).status).toBe(404);
    expect((await fetch(`${running?.url}/admin`)).status).toBe(404);
  });
});
