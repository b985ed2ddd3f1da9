import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHttpApiMcpServer, type HttpApiSpec } from "../../../src/mcp-servers/http-api/server.ts";
import { toFunctionDeclarations } from "../../../src/planner/gemini-schema.ts";
import { loadMcpServersConfig } from "../../../src/tools/mcp-config.ts";
import { createMcpHost, type McpHost } from "../../../src/tools/mcp-host.ts";
import { type FakeHttpApi, startFakeHttpApi } from "../../fakes/fake-http-api.ts";
import { fastTiming, jgrantsConfig, mcpConfig } from "../../tools/helpers.ts";

const OPENAPI_FILE = fileURLToPath(new URL("./petstore.openapi.json", import.meta.url));

describe("http-api MCP server", () => {
  let api: FakeHttpApi;
  let client: Client;

  beforeAll(async () => {
    api = await startFakeHttpApi();
    const apis: HttpApiSpec[] = [
      {
        name: "search_items",
        description: "Search items",
        url: `${api.origin}/v1/items/{category}`,
        method: "get",
        params: [
          { name: "category", type: "string", required: true },
          { name: "q", type: "string", required: true, description: "keyword" },
          { name: "limit", type: "integer" },
        ],
        headers: { Authorization: `Bearer \${ITEMS_TOKEN}` },
      },
      {
        name: "create_item",
        url: `${api.origin}/v1/items`,
        method: "POST",
        params: { title: { type: "string", required: true }, price: { type: "number" } },
      },
      {
        name: "send_form",
        url: `${api.origin}/v1/form`,
        method: "POST",
        body: "form",
        params: { name: { type: "string" } },
      },
      { name: "big", url: `${api.origin}/v1/big` },
      { name: "fail", url: `${api.origin}/v1/fail` },
      { name: "needs_secret", url: `${api.origin}/v1/x`, headers: { "X-Key": `\${MISSING_KEY}` } },
    ];
    const server = createHttpApiMcpServer({
      apis,
      env: { ITEMS_TOKEN: "t0ken-123" },
      maxResponseChars: 1_000,
    });
    client = new Client({ name: "test", version: "0" });
    const [a, b] = InMemoryTransport.createLinkedPair();
    await server.connect(b);
    await client.connect(a);
  });
  afterAll(async () => {
    await client?.close();
    await api?.close();
  });

  const call = async (name: string, args: Record<string, unknown>) => {
    const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
    return { ...result, text: (result.content as Array<{ text: string }>)[0]?.text ?? "" };
  };

  it("generates tools with input schemas from the simple form", async () => {
    const { tools } = await client.listTools();
    const search = tools.find((t) => t.name === "search_items");
    expect(search?.inputSchema).toMatchObject({
      type: "object",
      properties: {
        category: { type: "string" },
        q: { type: "string", description: "keyword" },
        limit: { type: "integer" },
      },
      required: ["category", "q"],
    });
    expect(search?.annotations?.readOnlyHint).toBe(true);
    expect(tools.find((t) => t.name === "create_item")?.annotations?.readOnlyHint).toBe(false);
  });

  it("sends GET requests with path and query parameters and an auth header from env", async () => {
    const result = await call("search_items", { category: "IT 導入", q: "補助金", limit: 5 });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({
      method: "GET",
      path: "/v1/items/IT%20%E5%B0%8E%E5%85%A5",
    });
    const request = api.requests.at(-1)!;
    expect(request.query).toEqual({ q: "補助金", limit: "5" });
    expect(request.headers.authorization).toBe("Bearer t0ken-123");
  });

  it("sends JSON and form bodies", async () => {
    await call("create_item", { title: "申請", price: 1.5 });
    expect(api.requests.at(-1)).toMatchObject({ method: "POST", body: '{"title":"申請","price":1.5}' });
    expect(api.requests.at(-1)?.headers["content-type"]).toBe("application/json");
    await call("send_form", { name: "山田 太郎" });
    expect(api.requests.at(-1)?.body).toBe("name=%E5%B1%B1%E7%94%B0+%E5%A4%AA%E9%83%8E");
    expect(api.requests.at(-1)?.headers["content-type"]).toBe("application/x-www-form-urlencoded");
  });

  it("caps responses and reports HTTP errors and missing auth env as tool errors", async () => {
    const big = await call("big", {});
    expect(big.text).toMatch(/…\[truncated \d+\+ chars\]$/);
    const fail = await call("fail", {});
    expect(fail.isError).toBe(true);
    expect(fail.text).toContain("HTTP 500");
    const secret = await call("needs_secret", {});
    expect(secret.isError).toBe(true);
    expect(secret.text).toContain("MISSING_KEY");
  });

  it("keeps requests under the configured base URL", async () => {
    const doc = {
      openapi: "3.0.0",
      paths: {
        "/../../admin": { get: { operationId: "escape" } },
        "/items": { get: { operationId: "items" } },
      },
    };
    const server = createHttpApiMcpServer({ apis: [{ openapi: doc, baseUrl: `${api.origin}/v1/public` }] });
    const local = new Client({ name: "test", version: "0" });
    const [a, b] = InMemoryTransport.createLinkedPair();
    await server.connect(b);
    await local.connect(a);
    const before = api.requests.length;
    const outside = (await local.callTool({ name: "escape", arguments: {} })) as CallToolResult;
    expect(outside.isError).toBe(true);
    expect(JSON.stringify(outside.content)).toContain("is outside");
    expect(api.requests.length).toBe(before);
    const items = (await local.callTool({ name: "items", arguments: {} })) as CallToolResult;
    expect(items.structuredContent).toMatchObject({ path: "/v1/public/items" });
    await local.close();
  });

  it("rejects an invalid description with a message naming the entry and field", () => {
    expect(() => createHttpApiMcpServer({ apis: [{ name: "bad", url: "ftp://x" }] })).toThrow(
      /apis\[0\] "bad" field "url": must be an http\(s\) URL/,
    );
  });
});

describe("http-api from an OpenAPI file, through mcp.json and the host", () => {
  let api: FakeHttpApi;
  let host: McpHost;
  const dir = mkdtempSync(join(tmpdir(), "mcp-json-"));

  beforeAll(async () => {
    api = await startFakeHttpApi();
    const file = join(dir, "mcp.json");
    writeFileSync(
      file,
      JSON.stringify({
        mcpServers: {
          notes: {
            builtin: "http-api",
            allowWrite: true,
            apis: [
              {
                openapiFile: OPENAPI_FILE,
                baseUrl: `\${NOTES_URL}/v1`,
                headers: { "X-Api-Key": `\${NOTES_KEY}` },
              },
            ],
          },
        },
      }),
    );
    const env = { NOTES_URL: api.origin, NOTES_KEY: "k-42" };
    host = createMcpHost({
      config: mcpConfig({ substitutionEnv: env }),
      jgrants: jgrantsConfig,
      servers: loadMcpServersConfig(file, env),
      timing: fastTiming,
    });
  });
  afterAll(async () => {
    await host?.close();
    await api?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("turns operations into tools with schemas from parameters and request bodies", async () => {
    const tools = await host.listTools();
    expect(tools.map((t) => t.qualifiedName).sort()).toEqual([
      "notes__createNote",
      "notes__getNote",
      "notes__post_feedback",
    ]);
    expect(tools.find((t) => t.name === "getNote")).toMatchObject({
      readOnly: true,
      inputSchema: { required: ["noteId"], properties: { lang: { enum: ["ja", "en"] } } },
    });
    expect(tools.find((t) => t.name === "createNote")?.inputSchema).toMatchObject({
      required: ["body"],
      properties: { body: { required: ["title"], properties: { tags: { type: "array" } } } },
    });
  });

  it("calls operations against the configured base URL with env headers", async () => {
    const got = await host.callTool({ server: "notes", tool: "getNote", args: { noteId: "n1", lang: "ja" } });
    expect(got).toMatchObject({ isError: false, data: { path: "/v1/notes/n1", query: { lang: "ja" } } });
    expect(api.requests.at(-1)?.headers["x-api-key"]).toBe("k-42");
    const created = await host.callTool({
      server: "notes",
      tool: "createNote",
      args: { body: { title: "メモ", tags: ["a"] } },
    });
    expect(created.data).toMatchObject({ method: "POST", body: '{"title":"メモ","tags":["a"]}' });
    const form = await host.callTool({
      server: "notes",
      tool: "post_feedback",
      args: { body: { message: "良い" } },
    });
    expect(form.data).toMatchObject({
      contentType: "application/x-www-form-urlencoded",
      body: "message=%E8%89%AF%E3%81%84",
    });
    const invalid = await host.callTool({
      server: "notes",
      tool: "createNote",
      args: { body: { tags: [] } },
    });
    expect(invalid.error).toMatch(/required property 'title'/);
  });
});

describe("write tools are refused unless the server allows writing", () => {
  let api: FakeHttpApi;
  let host: McpHost;

  beforeAll(async () => {
    api = await startFakeHttpApi();
    host = createMcpHost({
      config: mcpConfig({}),
      jgrants: jgrantsConfig,
      servers: {
        crm: {
          kind: "builtin",
          name: "crm",
          builtin: "http-api",
          enabled: true,
          apis: [
            {
              name: "delete_customer",
              description: "Deletes a customer",
              url: `${api.origin}/v1/customers/{id}`,
              method: "DELETE",
              params: [{ name: "id", type: "string", required: true, in: "path" }],
            },
            {
              name: "get_customer",
              description: "Reads a customer",
              url: `${api.origin}/v1/customers/{id}`,
              method: "GET",
              params: [{ name: "id", type: "string", required: true, in: "path" }],
            },
          ],
        },
      },
      timing: fastTiming,
    });
  });
  afterAll(async () => {
    await host?.close();
    await api?.close();
  });

  it("refuses a DELETE tool without sending anything, runs the GET one, and never offers the DELETE to Gemini", async () => {
    const before = api.requests.length;
    const refused = await host.callTool({ server: "crm", tool: "delete_customer", args: { id: "42" } });
    expect(refused.isError).toBe(true);
    expect(refused.error).toMatch(/only runs read-only tools/);
    expect(api.requests.length).toBe(before);
    const read = await host.callTool({ server: "crm", tool: "get_customer", args: { id: "42" } });
    expect(read.isError).toBe(false);
    const count = api.requests.length;
    const escaped = await host.callTool({ server: "crm", tool: "get_customer", args: { id: ".." } });
    expect(escaped.isError).toBe(true);
    expect(escaped.error).toMatch(/must not be empty, "\." or "\.\."/);
    expect(api.requests.length).toBe(count);
    const declared = toFunctionDeclarations(await host.listTools()).map((d) => d.name);
    expect(declared).toContain("crm__get_customer");
    expect(declared).not.toContain("crm__delete_customer");
  });
});
