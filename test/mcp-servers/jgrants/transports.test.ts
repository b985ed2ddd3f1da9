import { type ChildProcess, type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { silentLogger } from "../../../src/logger.ts";
import { type RunningMcpHttp, startMcpHttpServer } from "../../../src/mcp-servers/jgrants/http.ts";
import { createJgrantsMcpServer } from "../../../src/mcp-servers/jgrants/server.ts";
import { createJgrantsSource } from "../../../src/mcp-servers/jgrants/source.ts";
import { startFakeJgrantsApi } from "../../fakes/fake-jgrants-api.ts";
import { generateSubsidies } from "../../fakes/generated-subsidies.ts";
import { callJson, connectInMemory, jgrantsConfig } from "./helpers.ts";

const NEW_ID = "a0WJ2000NEWPEROVSK";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const env = {
  ...process.env,
  JGRANTS_SOURCE: "snapshot",
  JGRANTS_NOW: "2026-08-22T12:00:00+09:00",
  LOG_LEVEL: "info",
} as Record<string, string>;

describe("in-memory transport", () => {
  it("answers a real Client", async () => {
    const { client, close } = await connectInMemory({});
    expect((await callJson(client, "ping")).status).toBe("ok");
    expect(client.getServerVersion()).toMatchObject({ name: "jgrants-mcp-server" });
    await close();
  });
});

describe("Streamable HTTP at /mcp", () => {
  let http: RunningMcpHttp;
  const config = jgrantsConfig();
  const source = createJgrantsSource(config);
  beforeAll(async () => {
    http = await startMcpHttpServer({
      host: "127.0.0.1",
      port: 0,
      logger: silentLogger,
      createServer: () => createJgrantsMcpServer({ config, source, logger: silentLogger }),
    });
  });
  afterAll(async () => http.close());

  it("serves stateful sessions, one per client", async () => {
    const a = new Client({ name: "a", version: "1" });
    const b = new Client({ name: "b", version: "1" });
    const ta = new StreamableHTTPClientTransport(new URL(http.url));
    const tb = new StreamableHTTPClientTransport(new URL(http.url));
    await a.connect(ta);
    await b.connect(tb);
    expect(ta.sessionId).toBeTruthy();
    expect(ta.sessionId).not.toBe(tb.sessionId);
    const result = await callJson(a, "search_subsidies", { keyword: "補助金", limit: 1 });
    expect(result.subsidies).toHaveLength(1);
    expect((await b.listTools()).tools).toHaveLength(6);
    await ta.terminateSession();
    await a.close();
    await b.close();
  });

  it("rejects unknown sessions, non-initialize requests without a session, and foreign Host headers", async () => {
    const post = (headers: Record<string, string>, body: unknown) =>
      fetch(http.url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          ...headers,
        },
        body: JSON.stringify(body),
      });
    const list = { jsonrpc: "2.0", id: 1, method: "tools/list" };
    expect((await post({ "mcp-session-id": "nope" }, list)).status).toBe(404);
    expect((await post({}, list)).status).toBe(400);
    expect(await statusWithHost(http.url, "evil.example")).toBe(403);
    expect(await statusWithHost(http.url, `localhost:${http.port}`)).toBe(400);
    const broken = await fetch(http.url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{",
    });
    expect(broken.status).toBe(400);
    const huge = await post({}, { ...list, params: { padding: "x".repeat(1_100_000) } });
    expect(huge.status).toBe(413);
    expect(await huge.json()).toMatchObject({ error: { message: expect.stringMatching(/too large/) } });
    expect((await fetch(http.url.replace("/mcp", "/other"))).status).toBe(404);
  });
});

/** POSTs with a chosen Host header (fetch does not let callers set it). */
function statusWithHost(url: string, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: "POST", headers: { host, "content-type": "application/json" } },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.once("error", reject);
    req.end(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }));
  });
}

/** Every CLI child the tests start, killed after the suite even when a test failed half-way. */
const children: ChildProcess[] = [];
function spawnCli(args: string[], extra: Record<string, string> = {}): ChildProcessWithoutNullStreams {
  const child = spawn(process.execPath, ["bin/jgrants-mcp.mjs", ...args], {
    cwd: root,
    env: { ...env, ...extra },
  });
  children.push(child);
  return child;
}

/** Spawns the CLI and resolves with the URL it prints. */
function spawnHttpCli(
  args: string[],
  extra: Record<string, string> = {},
): Promise<{ child: ChildProcess; url: string }> {
  const child = spawnCli(args, extra);
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const match = /(http:\/\/\S+\/mcp)/.exec(out);
      if (match) resolve({ child, url: match[1]! });
    });
    child.once("exit", (code) => reject(new Error(`exited ${code}: ${out}`)));
  });
}

describe("the standalone CLI", () => {
  afterAll(() => {
    for (const child of children) if (child.exitCode === null) child.kill("SIGKILL");
  });

  it("serves over stdio (spawned through the bin launcher) with logs on stderr only", async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: ["bin/jgrants-mcp.mjs", "--stdio"],
      cwd: root,
      env,
      stderr: "pipe",
    });
    let stderr = "";
    transport.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const client = new Client({ name: "stdio", version: "1" });
    try {
      await client.connect(transport);
      const result = await callJson(client, "search_subsidies", { keyword: "補助金", limit: 2 });
      expect(result.data_source).toEqual({ mode: "snapshot", as_of: "2026-08-22" });
    } finally {
      await client.close();
    }
    expect(stderr).toContain("jgrants MCP server on stdio");
  });

  it("serves Streamable HTTP with --port and --source flags", async () => {
    const { url } = await spawnHttpCli(["--port", "0", "--source", "snapshot"]);
    const client = new Client({ name: "http-cli", version: "1" });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    expect((await callJson(client, "get_subsidy_overview", { output_format: "CSV" })).format).toBe("csv");
    await client.close();
  });

  it("with --source live, find_subsidies ranks the catalog it syncs, not only the bundled snapshot", async () => {
    const now = new Date(env.JGRANTS_NOW!);
    const records = generateSubsidies(6, now);
    records.push({ ...records[0], id: NEW_ID, title: "ペロブスカイト太陽電池導入支援補助金" });
    const api = await startFakeJgrantsApi(records, { now });
    const dir = mkdtempSync(join(tmpdir(), "jgrants-cli-live-"));
    const client = new Client({ name: "http-cli-live", version: "1" });
    try {
      const { url } = await spawnHttpCli(["--port", "0", "--source", "live"], {
        JGRANTS_API_URL: api.baseUrl,
        CATALOG_PATH: join(dir, "catalog.sqlite"),
        CATALOG_REQUEST_INTERVAL_MS: "0",
        CATALOG_KEYWORDS: "補助金",
      });
      await client.connect(new StreamableHTTPClientTransport(new URL(url)));
      // The sync runs at start; once it is in, the new programme is found by its own words.
      let found: Record<string, unknown> = {};
      for (let i = 0; i < 100; i++) {
        found = await callJson(client, "find_subsidies", { query: "ペロブスカイト太陽電池を導入したい" });
        const ids = (found.subsidies as Array<{ id: string }> | undefined)?.map((s) => s.id) ?? [];
        if (ids.includes(NEW_ID)) break;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      expect((found.subsidies as Array<{ id: string }>).map((s) => s.id)).toContain(NEW_ID);
      expect(found.data_source).toMatchObject({ mode: "catalog" });
    } finally {
      await client.close();
      await api.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("refuses a non-loopback host without --unsafe-expose, and bad flags", async () => {
    const run = (args: string[]) =>
      new Promise<{ code: number | null; stderr: string }>((resolve) => {
        const child = spawnCli(args);
        let stderr = "";
        child.stderr.on("data", (chunk: Buffer) => {
          stderr += chunk.toString();
        });
        child.once("exit", (code) => resolve({ code, stderr }));
      });
    const exposed = await run(["--host", "0.0.0.0", "--port", "0"]);
    expect(exposed.code).toBe(2);
    expect(exposed.stderr).toContain("--unsafe-expose");
    const badSource = await run(["--source", "cloud"]);
    expect(badSource.code).toBe(2);
    expect(badSource.stderr).toContain("--source must be live, snapshot or auto");
  });
});
