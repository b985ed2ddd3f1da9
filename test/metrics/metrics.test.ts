/**
 * GET /metrics (issue 14): the Prometheus text of the running app, fed by the decorators around the
 * agent, the tool host and the store; protected like /healthz (Host check) plus an optional token. And one
 * trace id per turn: on every log line of the turn and, in an error reply, shown to the user as 参照ID.
 */
import { Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.ts";
import { createLogger, silentLogger } from "../../src/logger.ts";
import { type RunningApp, startApp } from "../../src/main.ts";
import type { ToolHost } from "../../src/types.ts";
import { postChat } from "../e2e/support/chat.ts";
import { type Json, readJson } from "../helpers/json.ts";

const TOKEN = "metrics-token-0123456789";
const env = { PORT: "0", JGRANTS_SOURCE: "snapshot", STORE_BACKEND: "memory", MCP_HEARTBEAT_MS: "0" };

let app: RunningApp;
beforeAll(async () => {
  app = await startApp(loadConfig({ ...env, METRICS_TOKEN: TOKEN }), silentLogger);
});
afterAll(() => app?.stop());

const scrape = async (headers: Record<string, string> = { authorization: `Bearer ${TOKEN}` }) =>
  fetch(`${app.url}/metrics`, { headers });

/** The value of one sample line, e.g. value(text, 'x_total{a="b"}'). */
function value(text: string, sample: string): number | undefined {
  const line = text.split("\n").find((l) => l.startsWith(`${sample} `));
  return line === undefined ? undefined : Number(line.slice(sample.length + 1));
}

const chat = (message: string, threadId: string): Promise<Json> => postChat(app.url, message, threadId);

describe("GET /metrics", () => {
  it("needs the token when one is set, and our own Host", async () => {
    expect((await scrape({})).status).toBe(401);
    expect((await scrape({ authorization: "Bearer wrong-token-0123456789" })).status).toBe(401);
    const res = await scrape();
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/plain");
  });

  it("counts turns, latency, first progress, tool calls, server state, store and process figures", async () => {
    await chat("東京都のIT導入補助金", "m1");
    await chat("創業の補助金", "m2");
    await chat("履歴を消して", "m2");
    await app.core.store.markDelivered("Ev-metrics");
    await app.core.store.markDelivered("Ev-metrics");
    const text = await (await scrape()).text();
    const p = "subsidy_concierge_";
    expect(value(text, `${p}turns_total{platform="http",outcome="answer"}`)).toBe(2);
    expect(value(text, `${p}turns_total{platform="http",outcome="cleared"}`)).toBe(1);
    expect(value(text, `${p}turn_duration_seconds_count{platform="http"}`)).toBe(3);
    expect(value(text, `${p}turn_first_progress_seconds_count{platform="http"}`)).toBe(2);
    expect(
      value(text, `${p}tool_calls_total{server="jgrants",tool="find_subsidies",outcome="ok"}`),
    ).toBeGreaterThanOrEqual(2);
    expect(value(text, `${p}mcp_server_up{server="jgrants"}`)).toBe(1);
    expect(value(text, `${p}mcp_server_state{server="jgrants",state="connected"}`)).toBe(1);
    expect(value(text, `${p}thread_lock_wait_seconds_count`)).toBe(3);
    expect(value(text, `${p}dedup_hits_total`)).toBe(1);
    // Catalog freshness: the bundled snapshot's records and how old its data is.
    expect(value(text, `${p}catalog_records{which="all"}`)).toBeGreaterThan(500);
    expect(value(text, `${p}catalog_data_age_seconds`)).toBeGreaterThan(0);
    expect(value(text, `${p}store_errors_total`)).toBeUndefined(); // no errors yet: no labelled sample
    expect(text).toContain(`# TYPE ${p}llm_calls_total counter`);
    expect(value(text, `${p}process_resident_memory_bytes`)).toBeGreaterThan(0);
    expect(value(text, `${p}nodejs_heap_size_used_bytes`)).toBeGreaterThan(0);
  });
});

describe("trace ids", () => {
  it("tags every log line of a turn with one id, and an error reply shows it as 参照ID", async () => {
    const lines: Array<Record<string, unknown>> = [];
    const sink = new Writable({
      write(chunk, _enc, done) {
        for (const line of String(chunk).split("\n").filter(Boolean)) lines.push(JSON.parse(line));
        done();
      },
    });
    const broken: ToolHost = {
      listTools: async () => {
        throw new Error("jgrants is down");
      },
      callTool: async (call) => ({ call, isError: true, text: "", error: "down", durationMs: 0 }),
      status: () => [{ name: "jgrants", state: "failed", toolCount: 0, lastError: "down" }],
      close: async () => {},
    };
    const failing = await startApp(
      loadConfig({ ...env, LOG_LEVEL: "info" }),
      createLogger({ destination: sink }),
      {
        tools: broken,
      },
    );
    try {
      const res = await fetch(`${failing.url}/chat`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ message: "東京都のIT導入補助金" }),
      });
      const body = await readJson(res);
      const traceId = body._meta.traceId as string;
      expect(traceId).toMatch(/^[0-9a-f]{8}$/);
      expect(res.headers.get("x-request-id")).toBe(traceId);
      expect(body.kind).toBe("error");
      expect(body.answer).toContain(`参照ID: ${traceId}`);
      const turnLines = lines.filter((l) => l.msg === "tool list unavailable");
      expect(turnLines).toHaveLength(1);
      expect(turnLines[0]!.traceId).toBe(traceId);
      // Lines outside any turn carry no trace id.
      expect(lines.find((l) => l.msg === "thread store ready")?.traceId).toBeUndefined();
      const metrics = await (await fetch(`${failing.url}/metrics`)).text();
      expect(value(metrics, 'subsidy_concierge_mcp_server_up{server="jgrants"}')).toBe(0);
      expect(value(metrics, 'subsidy_concierge_turns_total{platform="http",outcome="error"}')).toBe(1);
    } finally {
      await failing.stop();
    }
  });
});
