/**
 * Defects 2 and 6 of issue 14: malformed Origin and Host headers are 400 (never 500), the read-only
 * routes apply the Host check, another port is another origin, a null body and long emoji messages get
 * the right 400/413. The fuzz uses a seeded generator, so a failure can be replayed.
 */
import { request, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAgent } from "../../src/agent/agent.ts";
import { createTemplateAnswerer } from "../../src/answer/template-answerer.ts";
import { createHttpApp, finishHttpApp, listen } from "../../src/http/server.ts";
import { silentLogger } from "../../src/logger.ts";
import { createMemoryStoreFake } from "../fakes/memory-store.ts";
import { createScriptedPlanner, searchCall } from "../fakes/scripted-planner.ts";
import { createSnapshotTools } from "../fakes/snapshot-tools.ts";
import { seeded } from "../helpers/random.ts";

let server: Server;
let port: number;

beforeAll(async () => {
  const planner = createScriptedPlanner(Array.from({ length: 400 }, () => ({ calls: [searchCall("創業")] })));
  const tools = createSnapshotTools();
  const store = createMemoryStoreFake();
  const answerer = createTemplateAnswerer();
  const agent = createAgent({
    planner,
    fallbackPlanner: planner,
    answerer,
    fallbackAnswerer: answerer,
    tools,
    store,
  });
  const app = createHttpApp({
    agent,
    tools,
    store,
    logger: silentLogger,
    llm: { mode: "offline", model: null },
  });
  app.get("/", (_req, res) => void res.send("page"));
  finishHttpApp(app, silentLogger);
  server = await listen(app, "127.0.0.1", 0);
  const address = server.address();
  port = typeof address === "object" && address ? address.port : 0;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** A raw request with exactly these headers (fetch would not let us set Host). */
function send(method: string, path: string, headers: Record<string, string>, body?: string) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, method, path, headers }, (res) => {
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

const json = { "content-type": "application/json" };
const question = JSON.stringify({ message: "創業" });

const PIECES = [
  "http://",
  "https://",
  "x://",
  "[",
  "]",
  "::1",
  "%",
  "%zz",
  ":",
  "@",
  "localhost",
  "127.0.0.1",
  "/",
  "?",
  "#",
  ".",
  "..",
  "0",
  "65536",
  "99999",
  "a-b",
  " ",
  "\\",
  "[::1",
  "::ffff:127.0.0.1",
  "xn--",
  "*",
];

function mutant(next: () => number): string {
  const n = 1 + Math.floor(next() * 5);
  let out = "";
  for (let i = 0; i < n; i += 1) out += PIECES[Math.floor(next() * PIECES.length)];
  return out.trim() || "%";
}

describe("browser guard: malformed headers", () => {
  it.each([
    ["Origin", "http://"],
    ["Origin", "x://[::1"],
    ["Origin", "http://%"],
    ["Origin", "http://[::1"],
    ["Host", "x://["],
    ["Host", "["],
    ["Host", "localhost:99999"],
    ["Host", "local host"],
  ])("%s: %s → 400", async (name, value) => {
    const res = await send("POST", "/chat", { ...json, [name.toLowerCase()]: value }, question);
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body).error).toMatch(/形式/);
  });

  it("fuzzed Origin and Host values never give 500", async () => {
    const next = seeded(14);
    const statuses = new Map<number, number>();
    for (let i = 0; i < 300; i += 1) {
      const name = next() < 0.5 ? "origin" : "host";
      const path = ["/chat", "/healthz", "/tools", "/"][i % 4]!;
      const method = path === "/chat" ? "POST" : "GET";
      const res = await send(
        method,
        path,
        { ...json, [name]: mutant(next) },
        method === "POST" ? question : undefined,
      );
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      expect(res.status, `${name} on ${path}`).toBeLessThan(500);
    }
    // The fuzz reached both the refusals and the accepted requests.
    expect(statuses.get(400)).toBeGreaterThan(0);
    expect(statuses.get(200)).toBeGreaterThan(0);
  });
});

describe("browser guard: same origin and host checks", () => {
  it("another port on the same host is another origin", async () => {
    const other = await send("POST", "/chat", { ...json, origin: `http://127.0.0.1:${port + 1}` }, question);
    expect(other.status).toBe(403);
    const same = await send("POST", "/chat", { ...json, origin: `http://127.0.0.1:${port}` }, question);
    expect(same.status).toBe(200);
    const https = await send("POST", "/chat", { ...json, origin: `https://127.0.0.1:${port}` }, question);
    expect(https.status).toBe(200);
    const defaultPort = await send(
      "POST",
      "/chat",
      { ...json, host: "localhost", origin: "http://localhost:80" },
      question,
    );
    expect(defaultPort.status).toBe(200);
    const explicitOther = await send(
      "POST",
      "/chat",
      { ...json, host: "localhost", origin: "http://localhost:8080" },
      question,
    );
    expect(explicitOther.status).toBe(403);
  });

  it.each(["/", "/healthz", "/tools"])("GET %s refuses a foreign Host (DNS rebinding)", async (path) => {
    const foreign = await send("GET", path, { host: `evil.example:${port}` });
    expect(foreign.status).toBe(403);
    const own = await send("GET", path, { host: `localhost:${port}` });
    expect(own.status).toBe(200);
  });
});

describe("chat request: minor points", () => {
  it("a null body says the body must be a JSON object", async () => {
    for (const body of ["null", "42", '"text"', "[]"]) {
      const res = await send("POST", "/chat", json, body);
      expect(res.status).toBe(400);
      expect(JSON.parse(res.body).error).toContain("JSON オブジェクト");
    }
  });

  it("counts the 4,000-character limit in code points", async () => {
    const emoji = "😀".repeat(4000); // 8,000 UTF-16 units, 4,000 characters
    const ok = await send("POST", "/chat", json, JSON.stringify({ message: emoji }));
    expect(ok.status).toBe(200);
    const over = await send("POST", "/chat", json, JSON.stringify({ message: `${emoji}😀` }));
    expect(over.status).toBe(413);
  });
});
