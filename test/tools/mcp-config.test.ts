import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadMcpServersConfig, parseMcpServersConfig } from "../../src/tools/mcp-config.ts";
import { resolveServers } from "../../src/tools/server-list.ts";
import { qualifyName } from "../../src/tools/tool-catalog.ts";
import { toToolResult } from "../../src/tools/tool-result.ts";
import { jgrantsConfig, mcpConfig } from "./helpers.ts";

const dir = mkdtempSync(join(tmpdir(), "mcp-config-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
function file(name: string, content: unknown): string {
  const path = join(dir, name);
  writeFileSync(path, typeof content === "string" ? content : JSON.stringify(content));
  return path;
}

describe("mcp.json", () => {
  it(`reads stdio, remote and built-in servers with \${VAR} substitution`, () => {
    const path = file("ok.json", {
      mcpServers: {
        local: {
          command: "node",
          args: ["server.js", `--token=\${TOKEN}`],
          env: { KEY: `\${TOKEN}` },
          cwd: "sub",
        },
        remote: {
          url: "https://mcp.example.com/mcp",
          headers: { Authorization: `Bearer \${TOKEN}` },
          timeoutMs: 5000,
        },
        gemini: { httpUrl: `\${BASE:-http://127.0.0.1:8000}/mcp`, allowTools: ["search"] },
        clock: { builtin: "time", enabled: false },
      },
    });
    const servers = loadMcpServersConfig(path, { TOKEN: "s3cret" });
    expect(servers.local).toMatchObject({
      kind: "stdio",
      args: ["server.js", "--token=s3cret"],
      env: { KEY: "s3cret" },
      cwd: join(dir, "sub"),
      enabled: true,
    });
    expect(servers.remote).toMatchObject({
      kind: "remote",
      headers: { Authorization: "Bearer s3cret" },
      timeoutMs: 5000,
    });
    expect(servers.gemini).toMatchObject({
      kind: "remote",
      url: "http://127.0.0.1:8000/mcp",
      allowTools: ["search"],
    });
    expect(servers.clock).toMatchObject({ kind: "builtin", builtin: "time", enabled: false });
  });

  it("names the server and the field in every error", () => {
    const env = {};
    const parse = (servers: unknown) => () => parseMcpServersConfig({ mcpServers: servers }, env);
    expect(parse({ a: { url: `https://x/\${NOPE}` } })).toThrow(
      'mcp.json: server "a" field "url": environment variable NOPE is not set',
    );
    expect(parse({ b: { url: "ftp://x" } })).toThrow(/server "b" field "url": must be an http\(s\) URL/);
    expect(parse({ c: { command: "node", timeoutMs: "fast" } })).toThrow(/server "c" field "timeoutMs"/);
    expect(parse({ d: { command: "node", colour: "red" } })).toThrow(/server "d" field "\(server\)".*colour/);
    expect(parse({ e: { args: [] } })).toThrow(
      /server "e" needs "command" \(stdio\), "url" \(remote\) or "builtin"/,
    );
    expect(parse({ f: { builtin: "weather" } })).toThrow(/server "f" field "builtin": must be one of/);
    expect(parse({ g: { builtin: "http-api", apis: [{ name: "x", url: "nope" }] } })).toThrow(
      /server "g": http-api: apis\[0\] "x" field "url"/,
    );
    expect(parse({ "bad name": { command: "x" } })).toThrow(/server name "bad name"/);
    expect(() => parseMcpServersConfig({ servers: {} }, env)).toThrow(/"mcpServers"/);
    expect(() => loadMcpServersConfig(file("broken.json", "{"), env)).toThrow(/is not valid JSON/);
    expect(() => loadMcpServersConfig(join(dir, "missing.json"), env)).toThrow(/cannot read .*ENOENT/);
  });
});

describe("server list", () => {
  it("defaults to the built-in jGrants and time servers, with fetch only when enabled", () => {
    const cwd = process.cwd();
    process.chdir(dir); // no mcp.json here
    try {
      expect(Object.keys(resolveServers({ config: mcpConfig(), jgrants: jgrantsConfig }))).toEqual([
        "jgrants",
        "time",
      ]);
      const withFetch = resolveServers({ config: mcpConfig({ fetchEnabled: true }), jgrants: jgrantsConfig });
      expect(withFetch.fetch).toMatchObject({ kind: "builtin", builtin: "fetch" });
    } finally {
      process.chdir(cwd);
    }
  });

  it("uses config.configPath and switches jGrants to JGRANTS_MCP_URL", () => {
    const path = file("jg.json", {
      mcpServers: { jgrants: { builtin: "jgrants", blockTools: ["get_file_content"] } },
    });
    const servers = resolveServers({
      config: mcpConfig({ configPath: path }),
      jgrants: { ...jgrantsConfig, mcpUrl: "http://127.0.0.1:8000/mcp" },
    });
    expect(servers.jgrants).toMatchObject({
      kind: "remote",
      url: "http://127.0.0.1:8000/mcp",
      blockTools: ["get_file_content"],
      readOnly: true,
    });
  });
});

describe("names and results", () => {
  it("qualifies tool names as server__tool within [A-Za-z0-9_] and 64 characters", () => {
    expect(qualifyName("jgrants", "search_subsidies")).toBe("jgrants__search_subsidies");
    expect(qualifyName("my-api", "get.item")).toMatch(/^my_api__get_item_[0-9a-f]{8}$/);
    const long = qualifyName("server", "x".repeat(100));
    expect(long).toMatch(/^[A-Za-z0-9_]{64}$/);
    expect(long).not.toBe(qualifyName("server", `${"x".repeat(99)}y`));
  });

  it("prefers structuredContent, parses JSON text otherwise, and keeps isError", () => {
    const call = { server: "s", tool: "t", args: {} };
    const structured = toToolResult(
      call,
      { content: [{ type: "text", text: "{}" }], structuredContent: { a: 1 } },
      100,
      1,
    );
    expect(structured).toMatchObject({ isError: false, data: { a: 1 } });
    const parsed = toToolResult(call, { content: [{ type: "text", text: '{"total_count":2}' }] }, 100, 1);
    expect(parsed.data).toEqual({ total_count: 2 });
    const failed = toToolResult(
      call,
      { content: [{ type: "text", text: "bad input" }], isError: true },
      100,
      1,
    );
    expect(failed).toMatchObject({ isError: true, error: "bad input" });
  });
});
