/**
 * The whole product in-process, keyless: the real composition root (startApp) with the bundled jGrants
 * MCP server, the MCP host, the offline planner, the template answerer and a SQLite file store — driven
 * over HTTP the way the web chat and the seed's API clients use it.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.ts";
import { silentLogger } from "../../src/logger.ts";
import { type RunningApp, startApp } from "../../src/main.ts";
import type { ToolCall, ToolResult } from "../../src/types.ts";
import { createMemoryStoreFake } from "../fakes/memory-store.ts";
import { createSnapshotTools } from "../fakes/snapshot-tools.ts";
import { type Json, readJson } from "../helpers/json.ts";

const dir = mkdtempSync(join(tmpdir(), "sc-e2e-"));
const env = {
  PORT: "0",
  JGRANTS_SOURCE: "snapshot",
  JGRANTS_NOW: "2026-08-22T12:00:00+09:00",
  SQLITE_PATH: join(dir, "threads.sqlite"),
  MCP_HEARTBEAT_MS: "0",
};

let app: RunningApp;
beforeAll(async () => {
  app = await startApp(loadConfig(env), silentLogger);
});
afterAll(async () => {
  await app?.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function chat(message: string, threadId: string): Promise<Json> {
  const res = await fetch(`${app.url}/chat`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ message, threadId }),
  });
  expect(res.status).toBe(200);
  return readJson(res);
}

describe("the keyless app end to end", () => {
  it("serves the web chat page", async () => {
    const res = await fetch(`${app.url}/`);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("補助金コンシェルジュ");
  });

  it("is healthy and lists the built-in tools with their servers", async () => {
    const health = await readJson(await fetch(`${app.url}/healthz`));
    expect(health.status).toBe("ok");
    expect(health.components.store).toMatchObject({ ok: true });
    expect(health.components.llm).toEqual({ mode: "offline", model: null });
    const tools = await readJson(await fetch(`${app.url}/tools`));
    const names = tools.tools.map((t: { server: string; name: string }) => `${t.server}/${t.name}`);
    expect(names).toEqual(
      expect.arrayContaining(["jgrants/search_subsidies", "jgrants/get_subsidy_detail", "time/now"]),
    );
  });

  it("answers a question with data-backed facts, then resolves follow-ups in the thread", async () => {
    const first = await chat("事業承継に使える補助金を教えて", "e2e-1");
    expect(first.kind).toBe("answer");
    expect(first.subsidies.length).toBeGreaterThan(1);
    expect(first._meta.mode).toBe("offline");
    const [one, two] = first.subsidies;
    // Amounts, deadlines and links in the text come from the records.
    expect(first.answer).toContain(one.title);
    expect(first.answer).toContain(one.maxAmountText);
    expect(first.answer).toContain(one.url);
    if (one.end) expect(first.answer).toContain(one.end.jst.slice(0, 10));
    expect(first.answer).toContain("出典: Jグランツ");
    expect(first.answer).toContain("2026-08-22時点");

    const second = await chat("2番目の詳細は？", "e2e-1");
    expect(second.subsidies.map((s: { id: string }) => s.id)).toEqual([two.id]);
    expect(second.plan).toContainEqual(
      expect.objectContaining({
        tool: "get_subsidy_detail",
        args: expect.objectContaining({ subsidy_id: two.id }),
      }),
    );
    expect(second.answer).toContain(two.title);

    const osaka = await chat("大阪府なら？", "e2e-1");
    const searches = osaka.plan.filter((p: { tool: string }) => p.tool === "find_subsidies");
    expect(searches.length).toBeGreaterThan(0);
    // The thread's need, now in 大阪府 (the ranked search applies the 全国 rule itself).
    expect(searches[0].args.area).toBe("大阪府");
    expect(searches[0].args.query).toBe(first.plan[0].args.query);
  });

  it("re-sorts the previous results by deadline on request", async () => {
    await chat("省エネ設備の補助金", "e2e-sort");
    const sorted = await chat("締切が近い順にして", "e2e-sort");
    const ends = sorted.subsidies.map((s: { end: { iso: string } | null }) => s.end?.iso).filter(Boolean);
    expect(ends.length).toBeGreaterThan(1);
    expect([...ends].sort()).toEqual(ends);
  });

  it("forgets a thread on 履歴を消して", async () => {
    await chat("創業支援の補助金", "e2e-forget");
    const cleared = await chat("履歴を消して", "e2e-forget");
    expect(cleared.kind).toBe("cleared");
    const after = await chat("2番目の詳細は？", "e2e-forget");
    expect(after.plan).toEqual([]);
    expect(after.answer).toContain("どの補助金のことか分かりませんでした");
  });
});

describe("the app when jGrants is unreachable", () => {
  it("reports it on /healthz from the start, and still answers the user with what happened", async () => {
    const down = await startApp(
      loadConfig({ ...env, STORE_BACKEND: "memory", JGRANTS_MCP_URL: "http://127.0.0.1:9/mcp" }),
      silentLogger,
    );
    try {
      let health: Json;
      for (let i = 0; i < 100; i++) {
        const res = await fetch(`${down.url}/healthz`);
        health = { status: res.status, body: await readJson(res) };
        if (res.status === 503) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(health.status).toBe(503);
      expect(health.body.components.tools).toContainEqual(
        expect.objectContaining({ name: "jgrants", state: "failed" }),
      );
      const res = await fetch(`${down.url}/chat`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ message: "創業支援の補助金", threadId: "down-1" }),
      });
      const reply = await readJson(res);
      expect(reply.kind).toBe("error");
      expect(reply.answer).toContain("Jグランツ");
      expect(reply.answer).toContain("https://www.jgrants-portal.go.jp/");
    } finally {
      await down.stop();
    }
  });
});

describe("the keyless app: more results", () => {
  it("「他には？」 shows the next subsidies, not the same ones again", async () => {
    const app2 = await startApp(loadConfig({ ...env, STORE_BACKEND: "memory" }), silentLogger);
    try {
      const ask = async (message: string) =>
        readJson(
          await fetch(`${app2.url}/chat`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ message, threadId: "more-1" }),
          }),
        );
      const first = await ask("創業支援の補助金");
      expect(first.totalCount).toBeGreaterThan(first.subsidies.length);
      const more = await ask("他には？");
      const firstIds = first.subsidies.map((s: { id: string }) => s.id);
      const moreIds = more.subsidies.map((s: { id: string }) => s.id);
      expect(moreIds.length).toBeGreaterThan(0);
      expect(moreIds.filter((id: string) => firstIds.includes(id))).toEqual([]);
      expect(more.notes).toContain("これまでに紹介したものを除いてお見せします。");
    } finally {
      await app2.stop();
    }
  });
});

describe("the keyless app: shutdown", () => {
  it("stop() ends a /chat answer that is stuck on a tool call, instead of waiting for it forever", async () => {
    let started: () => void = () => undefined;
    const stuck = new Promise<void>((resolve) => {
      started = resolve;
    });
    const base = createSnapshotTools();
    const tools = {
      ...base,
      // A tool call that never finishes unless it is aborted.
      callTool: (call: ToolCall, options: { signal?: AbortSignal } = {}): Promise<ToolResult> => {
        started();
        return new Promise((resolve) =>
          options.signal?.addEventListener("abort", () =>
            resolve({ call, isError: true, text: "aborted", error: "aborted", durationMs: 0 }),
          ),
        );
      },
    };
    const store = createMemoryStoreFake();
    const stopping = await startApp(loadConfig({ ...env, STORE_BACKEND: "memory" }), silentLogger, {
      tools,
      store,
    });
    const pending = fetch(`${stopping.url}/chat`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ message: "創業支援の補助金", threadId: "stuck-1" }),
    }).then(
      async (res) => ({ status: res.status, body: await readJson(res) }),
      () => null,
    );
    await stuck;
    await stopping.stop();
    const outcome = await pending;
    if (outcome) {
      expect(outcome.status).toBe(200);
      expect(outcome.body.answer.length).toBeGreaterThan(0);
    }
    // The abandoned turn is not remembered.
    expect(await store.load("web:stuck-1")).toEqual([]);
  }, 20_000);
});
