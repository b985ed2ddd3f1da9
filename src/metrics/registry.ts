/**
 * The Prometheus metrics of one running app, on its own registry (tests build several side by side).
 * Metric names follow Prometheus conventions: a `subsidy_concierge_` prefix, `_total` for counters and
 * `_seconds`/`_bytes` units. Labels take only bounded values (platforms, outcomes, configured servers).
 */
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";
import type { CatalogInfo } from "../catalog/record-source.ts";
import type { ServerStatus } from "../types.ts";

const P = "subsidy_concierge_";
/** Turn latencies span offline answers (tens of ms) to Gemini turns with several tool rounds (a minute). */
const TURN_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 20, 40, 60, 120];
const SHORT_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/** Creates the registry with every metric, and the process metrics (CPU, memory, event loop, GC). */
export function createMetrics(options: { processMetrics?: boolean } = {}) {
  const registry = new Registry();
  if (options.processMetrics !== false) collectDefaultMetrics({ register: registry, prefix: P });
  const registers = [registry];
  /** Read at scrape time: set by whoever owns the tool host and the catalog. */
  const sources: { toolStatus?: () => ServerStatus[]; catalog?: () => CatalogInfo } = {};
  const servers = () => sources.toolStatus?.() ?? [];
  return {
    registry,
    sources,
    turns: new Counter({
      name: `${P}turns_total`,
      help: "Turns answered, by platform and outcome (answer, help, cleared, degraded, error, exception).",
      labelNames: ["platform", "outcome"] as const,
      registers,
    }),
    turnSeconds: new Histogram({
      name: `${P}turn_duration_seconds`,
      help: "Time from receiving a turn to its reply, including the wait for the thread lock.",
      labelNames: ["platform"] as const,
      buckets: TURN_BUCKETS,
      registers,
    }),
    firstProgressSeconds: new Histogram({
      name: `${P}turn_first_progress_seconds`,
      help: "Time from receiving a turn to its first progress event (what the user first sees move).",
      labelNames: ["platform"] as const,
      buckets: SHORT_BUCKETS,
      registers,
    }),
    llmCalls: new Counter({
      name: `${P}llm_calls_total`,
      help: "LLM requests, by kind (plan, answer) and outcome (ok, failed).",
      labelNames: ["kind", "outcome"] as const,
      registers,
    }),
    llmPromptBytes: new Counter({
      name: `${P}llm_prompt_bytes_total`,
      help: "Bytes of prompts sent to the LLM, by kind.",
      labelNames: ["kind"] as const,
      registers,
    }),
    toolCalls: new Counter({
      name: `${P}tool_calls_total`,
      help: "MCP tool calls, by server, tool and outcome (ok, error).",
      labelNames: ["server", "tool", "outcome"] as const,
      registers,
    }),
    toolSeconds: new Histogram({
      name: `${P}tool_call_duration_seconds`,
      help: "Duration of MCP tool calls, by server.",
      labelNames: ["server"] as const,
      buckets: SHORT_BUCKETS,
      registers,
    }),
    mcpServerState: new Gauge({
      name: `${P}mcp_server_state`,
      help: "1 for the current state of each MCP server (idle, connecting, connected, reconnecting, failed, …).",
      labelNames: ["server", "state"] as const,
      registers,
      collect() {
        this.reset();
        for (const s of servers()) this.set({ server: s.name, state: s.state }, 1);
      },
    }),
    mcpServerUp: new Gauge({
      name: `${P}mcp_server_up`,
      help: "1 when the MCP server is connected (or idle, not yet needed), 0 when it is failing.",
      labelNames: ["server"] as const,
      registers,
      collect() {
        this.reset();
        for (const s of servers()) this.set({ server: s.name }, s.state === "failed" ? 0 : 1);
      },
    }),
    storeErrors: new Counter({
      name: `${P}store_errors_total`,
      help: "Thread store operations that failed, by operation (load, append, clear, dedup, lock).",
      labelNames: ["op"] as const,
      registers,
    }),
    lockWaitSeconds: new Histogram({
      name: `${P}thread_lock_wait_seconds`,
      help: "Time a turn waited for its thread's lock.",
      buckets: SHORT_BUCKETS,
      registers,
    }),
    lockBusy: new Counter({
      name: `${P}thread_lock_busy_total`,
      help: "Turns that gave up waiting for their thread's lock (a 'busy' reply).",
      registers,
    }),
    mcpRegistryChanges: new Counter({
      name: `${P}mcp_registry_changes_total`,
      help: "MCP server registry changes made through the admin API or seen from another instance.",
      labelNames: ["action"] as const,
      registers,
    }),
    catalogRecords: new Gauge({
      name: `${P}catalog_records`,
      help: "Records in the subsidy catalog (all, and open on the current date).",
      labelNames: ["which"] as const,
      registers,
      collect() {
        this.reset();
        const info = sources.catalog?.();
        if (!info) return;
        this.set({ which: "all" }, info.recordCount);
        if (info.openCount !== undefined) this.set({ which: "open" }, info.openCount);
      },
    }),
    catalogDataAge: new Gauge({
      name: `${P}catalog_data_age_seconds`,
      help: "Age of the catalog's data: since the last successful sync, or since the snapshot's date.",
      registers,
      collect() {
        const info = sources.catalog?.();
        const at = info?.lastSyncAt ?? (info?.asOf ? `${info.asOf}T00:00:00+09:00` : undefined);
        const ms = at ? Date.parse(at) : Number.NaN;
        if (Number.isFinite(ms)) this.set(Math.max(0, (Date.now() - ms) / 1000));
      },
    }),
    dedupHits: new Counter({
      name: `${P}dedup_hits_total`,
      help: "Deliveries recognised as duplicates (platform retries, redeliveries) and not answered again.",
      registers,
    }),
  };
}

export type Metrics = ReturnType<typeof createMetrics>;
