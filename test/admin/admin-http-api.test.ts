/**
 * http-api servers through the admin API: described by an OpenAPI URL (fetched when saved, shown as its
 * URL only) or by a simple list, with their header secrets used for the calls and never returned.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { silentLogger } from "../../src/logger.ts";
import type { RunningApp } from "../../src/main.ts";
import { type FakeHttpApi, startFakeHttpApi } from "../fakes/fake-http-api.ts";
import { type AdminClient, adminClient, startAdminApp } from "./helpers.ts";

const DOC = readFileSync(new URL("../mcp-servers/http-api/petstore.openapi.json", import.meta.url), "utf8");
const KEY = "notes-key-5e6f7a8b9c";
const dir = mkdtempSync(join(tmpdir(), "sc-admin-api-"));
let app: RunningApp;
let api: AdminClient;
let rest: FakeHttpApi;
let docs: Server;
let docsOrigin: string;

beforeAll(async () => {
  rest = await startFakeHttpApi();
  docs = createServer((req, res) => {
    if (req.url !== "/openapi.json") return void res.writeHead(404).end();
    res.writeHead(200, { "content-type": "application/json" }).end(DOC);
  });
  await new Promise<void>((resolve) => docs.listen(0, "127.0.0.1", resolve));
  docsOrigin = `http://127.0.0.1:${(docs.address() as { port: number }).port}`;
  app = await startAdminApp({ SQLITE_PATH: join(dir, "store.sqlite") }, silentLogger);
  api = adminClient(app);
});
afterAll(async () => {
  await app?.stop();
  await rest?.close();
  await new Promise((resolve) => docs?.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

describe("http-api servers through the admin API", () => {
  it("fetches an OpenAPI document from its URL, offers its operations, and shows the URL, not the document", async () => {
    const config = {
      builtin: "http-api",
      apis: [
        {
          openapiUrl: `${docsOrigin}/openapi.json`,
          baseUrl: `${rest.origin}/v1`,
          headers: { "X-Api-Key": KEY },
        },
      ],
    };
    const added = await api.call("POST", "", { name: "notes", config });
    expect(added.status).toBe(201);
    expect(added.body.server.config.apis).toEqual([
      {
        openapiUrl: `${docsOrigin}/openapi.json`,
        baseUrl: `${rest.origin}/v1`,
        headers: { "X-Api-Key": "********" },
      },
    ]);
    expect(await api.tools()).toContain("notes__getNote");
    const result = await app.core.tools.callTool({
      server: "notes",
      tool: "getNote",
      args: { noteId: "n1" },
    });
    expect(result.isError).toBe(false);
    expect(rest.requests.at(-1)).toMatchObject({ path: "/v1/notes/n1" });
    expect(rest.requests.at(-1)?.headers["x-api-key"]).toBe(KEY);
    expect(JSON.stringify((await api.call("GET", "")).body)).not.toContain(KEY);
  });

  it("names the URL field when the document cannot be fetched", async () => {
    const res = await api.call("POST", "", {
      name: "broken",
      config: { builtin: "http-api", apis: [{ openapiUrl: `${docsOrigin}/missing.json` }] },
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ field: "apis.0.openapiUrl" });
    expect(res.body.error).toContain("HTTP 404");
  });

  it("takes the simple list form as well", async () => {
    const config = {
      builtin: "http-api",
      apis: [{ name: "lookup", url: `${rest.origin}/v1/lookup`, params: [{ name: "q", required: true }] }],
    };
    expect((await api.call("POST", "", { name: "simple", config })).status).toBe(201);
    const result = await app.core.tools.callTool({ server: "simple", tool: "lookup", args: { q: "補助金" } });
    expect(result.isError).toBe(false);
    expect(rest.requests.at(-1)).toMatchObject({ path: "/v1/lookup", query: { q: "補助金" } });
  });
});
