/**
 * The admin API contract on the real app (SQLite store, built-in jGrants and time servers) with a real
 * remote MCP server on loopback: listing, adding, editing, enabling/disabling, testing, reconnecting and
 * removing; validation that names the field; the stdio opt-in; secrets never returned nor logged.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningApp } from "../../src/main.ts";
import { type FakeMcpHttp, startFakeMcpHttp } from "../fakes/fake-mcp-http.ts";
import { type AdminClient, adminClient, captureLogger, startAdminApp } from "./helpers.ts";

const SECRET = "Bearer sk-live-4f9a2c7e1b3d5f6a";
const SECRET_KEY = "key-9d8c7b6a5f4e3d2c";
// biome-ignore lint/suspicious/noTemplateCurlyInString: an mcp.json `${VAR}` reference, not a template
const REF = "${DOCS_REF}";
const dir = mkdtempSync(join(tmpdir(), "sc-admin-"));
const { logger, lines } = captureLogger();
let app: RunningApp;
let api: AdminClient;
let mcp: FakeMcpHttp;

beforeAll(async () => {
  mcp = await startFakeMcpHttp({ mode: "stateful", name: "docs" });
  app = await startAdminApp({ SQLITE_PATH: join(dir, "store.sqlite"), DOCS_REF: "ref-1" }, logger);
  api = adminClient(app);
});
afterAll(async () => {
  await app?.stop();
  await mcp?.close();
  rmSync(dir, { recursive: true, force: true });
});

const docs = () => ({
  url: mcp.url,
  headers: { Authorization: SECRET, "X-Api-Key": SECRET_KEY, "X-Ref": REF },
  readOnly: true,
});

describe("admin API: access", () => {
  it("refuses requests without the token, with a wrong one, and from another site's page", async () => {
    expect((await api.call("GET", "", undefined, { authorization: "" })).status).toBe(401);
    expect(
      (await api.call("GET", "", undefined, { authorization: "Bearer wrong-token-xxxxxxxxx" })).status,
    ).toBe(401);
    const foreign = await api.call("GET", "", undefined, { origin: "https://evil.example" });
    expect(foreign.status).toBe(403);
  });

  it("answers every request with a trace id", async () => {
    const res = await fetch(`${app.url}/admin/mcp-servers`, {
      headers: { authorization: "Bearer ops-token-0123456789abcdef" },
    });
    expect(res.headers.get("x-trace-id")).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe("admin API: the servers", () => {
  it("lists the configured servers as read-only file entries with their state", async () => {
    await app.core.tools.listTools();
    const { status, body } = await api.call("GET", "");
    expect(status).toBe(200);
    const names = body.servers.map((s: { name: string }) => s.name);
    expect(names).toEqual(["jgrants", "time"]);
    expect(body.servers[0]).toMatchObject({
      source: "file",
      kind: "builtin",
      state: "connected",
      enabled: true,
    });
    expect(body.servers[0].toolCount).toBeGreaterThan(0);
  });

  it("adds a remote server: it connects, its tools appear in /tools, its secrets are masked", async () => {
    const { status, body } = await api.call("POST", "", { name: "docs", config: docs() });
    expect(status).toBe(201);
    expect(body.server).toMatchObject({ name: "docs", source: "store", kind: "remote", updatedBy: "ops" });
    expect(body.server.config.headers).toEqual({
      Authorization: "********",
      "X-Api-Key": "********",
      "X-Ref": REF,
    });
    expect(body.server.createdAt).toBeTruthy();
    await expect.poll(async () => (await api.server("docs"))?.state, { timeout: 10_000 }).toBe("connected");
    await expect
      .poll(async () => (await api.server("docs")).toolCount, { timeout: 10_000 })
      .toBeGreaterThan(0);
    expect(await api.tools()).toContain("docs__echo");
    expect(JSON.stringify(await api.call("GET", ""))).not.toContain(SECRET_KEY);
    // The change is counted in /metrics.
    const metrics = await (await fetch(`${app.url}/metrics`)).text();
    expect(metrics).toMatch(/subsidy_concierge_mcp_registry_changes_total\{action="add"\} [1-9]/);
  });

  it("names the field of every validation error, and answers clashes, unknown and read-only names", async () => {
    const bad = async (body: unknown, field: string, status = 400) => {
      const res = await api.call("POST", "", body);
      expect(res.status).toBe(status);
      expect(res.body.field).toBe(field);
      expect(res.body.error).toBeTruthy();
    };
    await bad({ name: "x1", config: { url: "ftp://example.com" } }, "url");
    await bad({ name: "x2", config: { url: mcp.url, timeoutMs: 5 } }, "timeoutMs");
    await bad({ name: "x3", config: { url: mcp.url, surprise: 1 } }, "(server)");
    await bad({ name: "bad name!", config: { url: mcp.url } }, "name");
    await bad({ config: { url: mcp.url } }, "name");
    await bad(
      { name: "x4", config: { builtin: "http-api", apis: [{ openapiFile: "/etc/passwd" }] } },
      "apis.0.openapiFile",
    );
    await bad({ name: "docs", config: { url: mcp.url } }, "name", 409);
    await bad({ name: "jgrants", config: { url: mcp.url } }, "name", 409);
    expect((await api.call("POST", "", "[1,2]")).status).toBe(400);
    expect((await api.call("POST", "", "{not json")).status).toBe(400);
    expect((await api.call("PATCH", "/nope", { enabled: false })).status).toBe(404);
    expect((await api.call("DELETE", "/nope")).status).toBe(404);
    const readOnly = await api.call("PATCH", "/jgrants", { enabled: false });
    expect(readOnly.status).toBe(409);
    expect(readOnly.body.error).toContain("mcp.json");
    expect((await api.call("DELETE", "/time")).status).toBe(409);
    expect((await api.call("PATCH", "/docs", { url: "not a url" })).body.field).toBe("url");
  });

  it("refuses stdio servers without ADMIN_ALLOW_STDIO=true, naming the field", async () => {
    const res = await api.call("POST", "", {
      name: "shell",
      config: { command: "/bin/sh", args: ["-c", "id"] },
    });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ field: "command" });
    expect(res.body.error).toContain("ADMIN_ALLOW_STDIO");
    expect(await api.server("shell")).toBeUndefined();
    const test = await api.call("POST", "/shell/test", { config: { command: "/bin/sh" } });
    expect(test.status).toBe(403);
  });

  it("disables and re-enables a server: its tools leave and come back", async () => {
    const off = await api.call("PATCH", "/docs", { enabled: false });
    expect(off.status).toBe(200);
    expect(off.body.server).toMatchObject({ enabled: false, state: "disabled" });
    expect(await api.tools()).not.toContain("docs__echo");
    const on = await api.call("PATCH", "/docs", { enabled: true });
    expect(on.body.server.enabled).toBe(true);
    await expect.poll(async () => (await api.server("docs"))?.state, { timeout: 10_000 }).toBe("connected");
    expect(await api.tools()).toContain("docs__echo");
  });

  it("keeps a stored secret when an edit sends the mask back", async () => {
    const shown = (await api.server("docs")).config;
    const res = await api.call("PATCH", "/docs", { ...shown, blockTools: ["write"] });
    expect(res.status).toBe(200);
    const running = app.core.mcp?.host.servers.docs;
    expect(running?.kind === "remote" && running.headers).toMatchObject({
      Authorization: SECRET,
      "X-Api-Key": SECRET_KEY,
    });
    expect(await api.tools()).not.toContain("docs__write");
  });

  it("tests a connection without saving it, and reports one that fails", async () => {
    const ok = await api.call("POST", "/scratch/test", { config: { url: mcp.url } });
    expect(ok.status).toBe(200);
    expect(ok.body.tools.map((t: { name: string }) => t.name)).toContain("echo");
    expect(await api.server("scratch")).toBeUndefined();
    const saved = await api.call("POST", "/docs/test");
    expect(saved.body.ok).toBe(true);
    const dead = await api.call("POST", "/dead/test", { config: { url: "http://127.0.0.1:1/mcp" } });
    expect(dead.status).toBe(502);
    expect(dead.body.ok).toBe(false);
    expect(dead.body.error).toBeTruthy();
  });

  it("reconnects on demand", async () => {
    const before = mcp.sessionsOpened;
    const res = await api.call("POST", "/docs/reconnect");
    expect(res.status).toBe(200);
    expect(res.body.server.state).toBe("connected");
    expect(mcp.sessionsOpened).toBe(before + 1);
    expect((await api.call("POST", "/nope/reconnect")).status).toBe(404);
  });

  it("removes a server: gone from the list and from /tools", async () => {
    expect((await api.call("DELETE", "/docs")).status).toBe(204);
    expect(await api.server("docs")).toBeUndefined();
    expect(await api.tools()).not.toContain("docs__echo");
  });

  it("never logged a secret, and logged each change with its trace id and actor", () => {
    const all = lines.join("");
    expect(all).not.toContain(SECRET_KEY);
    expect(all).not.toContain("sk-live-4f9a2c7e1b3d5f6a");
    const changes = lines
      .map((l) => JSON.parse(l))
      .filter((l) => String(l.msg).startsWith("admin: mcp server"));
    expect(changes.map((l) => l.action)).toEqual(
      expect.arrayContaining(["added", "updated", "tested", "reconnected", "removed"]),
    );
    for (const line of changes) expect(line).toMatchObject({ actor: "ops", traceId: expect.any(String) });
  });
});
