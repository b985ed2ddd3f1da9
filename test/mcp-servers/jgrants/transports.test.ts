import { type ChildProcess, type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { request } from "node:http";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { silentLogger } from "../../../src/logger.ts";
import { type RunningMcpHttp, startMcpHttpServer } from "../../../src/mcp-servers/jgrants/http.ts";
import { createJgrantsMcpServer } from "../../../src/mcp-servers/jgrants/server.ts";
import { createJgrantsSource } from "../../../src/mcp-servers/jgrants/source.ts";
import { callJson, connectInMemory, jgrantsConfig } from "./helpers.ts";

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
function spawnCli(args: string[]): ChildProcessWithoutNullStreams {
  const child = spawn(process.execPath, ["bin/jgrants-mcp.mjs", ...args], { cwd: root, env });
  children.push(child);
  return child;
}

/** Spawns the CLI and resolves with the URL it prints. */
function spawnHttpCli(args: string[]): Promise<{ child: ChildProcess; url: string }> {
  const child = spawnCli(args);
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
