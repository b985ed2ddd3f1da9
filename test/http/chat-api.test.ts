import { request, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAgent } from "../../src/agent/agent.ts";
import { createTemplateAnswerer } from "../../src/answer/template-answerer.ts";
import { createHttpApp, finishHttpApp, listen } from "../../src/http/server.ts";
import { silentLogger } from "../../src/logger.ts";
import { createMemoryStoreFake } from "../fakes/memory-store.ts";
import { createScriptedPlanner, searchCall } from "../fakes/scripted-planner.ts";
import { createSnapshotTools } from "../fakes/snapshot-tools.ts";
import { readJson } from "../helpers/json.ts";

const TOKEN = "test-token-0123456789";

async function start(apiToken?: string, allowedHosts: string[] = []) {
  const planner = createScriptedPlanner(
    Array.from({ length: 50 }, () => ({ calls: [searchCall("事業承継")] })),
  );
  const store = createMemoryStoreFake();
  const tools = createSnapshotTools();
  const agent = createAgent({
    planner,
    fallbackPlanner: planner,
    answerer: createTemplateAnswerer(),
    fallbackAnswerer: createTemplateAnswerer(),
    tools,
    store,
  });
  const app = createHttpApp({
    agent,
    tools,
    store,
    logger: silentLogger,
    apiToken,
    allowedHosts,
    llm: { mode: "offline", model: null },
  });
  finishHttpApp(app, silentLogger);
  const server = await listen(app, "127.0.0.1", 0);
  const address = server.address();
  const url = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
  return { server, url, store, planner };
}

let env: Awaited<ReturnType<typeof start>>;
let secured: Awaited<ReturnType<typeof start>>;
beforeAll(async () => {
  env = await start();
  secured = await start(TOKEN);
});
afterAll(async () => {
  for (const s of [env.server, secured.server] as Server[]) await new Promise((r) => s.close(r));
});

const post = (url: string, body: string, headers: Record<string, string> = {}) =>
  fetch(url, { method: "POST", headers: { "content-type": "application/json", ...headers }, body });

describe("HTTP API", () => {
  it("GET /healthz reports components", async () => {
    const res = await fetch(`${env.url}/healthz`);
    expect(res.status).toBe(200);
    const body = await readJson(res);
    expect(body.status).toBe("ok");
    expect(body.components.store.ok).toBe(true);
    expect(body.components.tools[0]).toMatchObject({ name: "jgrants", state: "connected" });
  });

  it("GET /healthz answers 503 when the store is down", async () => {
    const original = env.store.health;
    env.store.health = async () => ({ ok: false, backend: "sqlite", error: "disk I/O error" });
    try {
      const res = await fetch(`${env.url}/healthz`);
      expect(res.status).toBe(503);
      expect((await readJson(res)).components.store.error).toBe("disk I/O error");
    } finally {
      env.store.health = original;
    }
  });

  it("GET /tools lists tools with their server and status", async () => {
    const body = await readJson(await fetch(`${env.url}/tools`));
    expect(body.tools).toContainEqual(
      expect.objectContaining({ server: "jgrants", name: "search_subsidies", status: "connected" }),
    );
  });

  it("POST /chat returns the seed's shape, and a follow-up keeps the thread", async () => {
    const res = await post(
      `${env.url}/chat`,
      JSON.stringify({ message: "事業承継の補助金", threadId: "t-1" }),
    );
    expect(res.status).toBe(200);
    const body = await readJson(res);
    expect(Object.keys(body)).toEqual(
      expect.arrayContaining(["answer", "plan", "toolResults", "subsidies", "threadId", "_meta"]),
    );
    expect(body.threadId).toBe("t-1");
    expect(body._meta.agent.name).toBe("subsidy-concierge");
    expect(body._meta.tools.used_count).toBe(body.toolResults.length);
    expect(body.plan[0]).toMatchObject({ server: "jgrants", tool: "search_subsidies" });
    expect(body.subsidies.length).toBeGreaterThan(0);
    expect(JSON.stringify(body.toolResults)).not.toContain("<p");
    await post(`${env.url}/chat`, JSON.stringify({ message: "2番目の詳細は？", threadId: "t-1" }));
    const last = env.planner.inputs.at(-1)!;
    expect(last.history).toHaveLength(1);
    expect(last.history[0]!.question).toBe("事業承継の補助金");
  });

  it("POST /chat without threadId creates one", async () => {
    const body = await readJson(await post(`${env.url}/chat`, JSON.stringify({ message: "事業承継" })));
    expect(body.threadId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it.each([
    ["invalid JSON", "{message: ", 400, /JSON/],
    ["a missing message", "{}", 400, /message/],
    ["an empty message", JSON.stringify({ message: "   " }), 400, /空/],
    ["a non-string message", JSON.stringify({ message: 42 }), 400, /message/],
    ["an array body", "[1,2]", 400, /JSON オブジェクト/],
    ["a bad threadId", JSON.stringify({ message: "補助金", threadId: "../../etc" }), 400, /threadId/],
    ["a message over 4,000 characters", JSON.stringify({ message: "あ".repeat(4001) }), 413, /4000文字/],
    ["a body over 64 KB", JSON.stringify({ message: "a", pad: "x".repeat(70_000) }), 413, /64KB/],
  ])("rejects %s with a clear message", async (_name, body, status, message) => {
    const res = await post(`${env.url}/chat`, body);
    expect(res.status).toBe(status);
    expect((await readJson(res)).error).toMatch(message);
  });

  it("requires the bearer token when one is configured", async () => {
    const body = JSON.stringify({ message: "事業承継" });
    expect((await post(`${secured.url}/chat`, body)).status).toBe(401);
    expect((await post(`${secured.url}/chat`, body, { authorization: "Bearer wrong" })).status).toBe(401);
    expect((await post(`${secured.url}/chat`, body, { authorization: `Bearer ${TOKEN}` })).status).toBe(200);
  });

  it("POST /chat/stream sends progress, tool and reply events", async () => {
    const res = await post(
      `${env.url}/chat/stream`,
      JSON.stringify({ message: "事業承継", threadId: "s-1" }),
    );
    expect(res.headers.get("content-type")).toContain("text/event-stream");
    const text = await res.text();
    const events = [...text.matchAll(/^event: (\w+)\ndata: (.*)$/gm)].map((m) => ({
      event: m[1],
      data: JSON.parse(m[2]!),
    }));
    const kinds = events.map((e) => (e.event === "progress" ? `progress:${e.data.type}` : e.event));
    expect(kinds[0]).toBe("progress:searching");
    expect(kinds).toContain("tool");
    expect(kinds).toContain("progress:found");
    expect(kinds.at(-1)).toBe("reply");
    const reply = events.at(-1)!.data;
    expect(reply.threadId).toBe("s-1");
    expect(reply.subsidies.length).toBeGreaterThan(0);
    const planned = events.find((e) => e.event === "tool" && e.data.phase === "planned")!.data;
    expect(planned).toMatchObject({ server: "jgrants", tool: "search_subsidies" });
  });

  it("POST /chat/stream rejects bad input before streaming", async () => {
    const res = await post(`${env.url}/chat/stream`, "not json");
    expect(res.status).toBe(400);
    expect((await readJson(res)).error).toMatch(/JSON/);
  });

  it("unknown routes get a JSON 404", async () => {
    const res = await fetch(`${env.url}/nope`);
    expect(res.status).toBe(404);
    expect((await readJson(res)).error).toBeTruthy();
  });
});

/** A raw request, so the Host and Origin headers can be set as a browser on another site would. */
function raw(
  url: string,
  headers: Record<string, string>,
  body: string,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: "POST", headers }, (res) => {
      let data = "";
      res.on("data", (c) => {
        data += c;
      });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: data }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

describe("HTTP API: browser-facing guards", () => {
  const body = JSON.stringify({ message: "事業承継" });

  it("refuses a body that is not JSON (a cross-site 'simple request')", async () => {
    const res = await raw(`${env.url}/chat`, { "content-type": "text/plain" }, body);
    expect(res.status).toBe(415);
    expect(JSON.parse(res.body).error).toContain("application/json");
  });

  it("refuses a foreign Host (DNS rebinding) and a foreign Origin (CSRF)", async () => {
    const json = { "content-type": "application/json" };
    const rebound = await raw(`${env.url}/chat`, { ...json, host: "evil.example:3000" }, body);
    expect(rebound.status).toBe(403);
    const port = new URL(env.url).port;
    const foreign = await raw(`${env.url}/chat`, { ...json, origin: "http://evil.example" }, body);
    expect(foreign.status).toBe(403);
    const same = await raw(`${env.url}/chat/stream`, { ...json, origin: `http://127.0.0.1:${port}` }, body);
    expect(same.status).toBe(200);
    const local = await raw(`${env.url}/chat`, { ...json, host: `localhost:${port}` }, body);
    expect(local.status).toBe(200);
  });

  it("answers the public host names it is told about", async () => {
    const app = await start(undefined, ["bot.example.jp"]);
    try {
      const ok = await raw(
        `${app.url}/chat`,
        { "content-type": "application/json", host: "bot.example.jp" },
        body,
      );
      expect(ok.status).toBe(200);
    } finally {
      await new Promise((r) => app.server.close(r));
    }
  });
});
