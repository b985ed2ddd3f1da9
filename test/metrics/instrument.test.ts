/** The measuring decorators count what their seams report: LLM calls, bytes and failures; store errors and lock waits. */
import { describe, expect, it } from "vitest";
import type { Answerer } from "../../src/answer/answerer.ts";
import { instrumentAnswerer, instrumentPlanner } from "../../src/metrics/instrument-core.ts";
import { instrumentStore } from "../../src/metrics/instrument-store.ts";
import { createMetrics, type Metrics } from "../../src/metrics/registry.ts";
import { StoreError, ThreadBusyError } from "../../src/store/index.ts";
import { createMemoryStoreFake } from "../fakes/memory-store.ts";
import { createScriptedPlanner } from "../fakes/scripted-planner.ts";

const planInput = { question: "q", history: [], tools: [], rounds: [], now: new Date() };

async function sample(metrics: Metrics, name: string, labels: Record<string, string> = {}) {
  const full = `subsidy_concierge_${name}`;
  const base = full.replace(/_count$/, "");
  const metric = (await metrics.registry.getMetricsAsJSON()).find((m) => m.name === base);
  const match = metric?.values.find(
    (v) =>
      ((v as { metricName?: string }).metricName ?? base) === full &&
      Object.entries(labels).every(([k, want]) => v.labels[k] === want),
  );
  return match?.value ?? 0;
}

describe("LLM decorators", () => {
  it("count plan calls and bytes, and a degraded step as a failure", async () => {
    const metrics = createMetrics({ processMetrics: false });
    const planner = instrumentPlanner(
      createScriptedPlanner(
        [
          { done: true, promptBytes: 1200 },
          { done: true, degraded: "429" },
        ],
        {
          mode: "gemini",
          llmCallsPerStep: 1,
        },
      ),
      metrics,
    );
    await planner.plan(planInput);
    await planner.plan(planInput);
    expect(await sample(metrics, "llm_calls_total", { kind: "plan", outcome: "ok" })).toBe(2);
    expect(await sample(metrics, "llm_calls_total", { kind: "plan", outcome: "failed" })).toBe(1);
    expect(await sample(metrics, "llm_prompt_bytes_total", { kind: "plan" })).toBe(1200);
  });

  it("count an answerer that throws as a failed answer call", async () => {
    const metrics = createMetrics({ processMetrics: false });
    const failing: Answerer = {
      mode: "gemini",
      compose: async () => {
        throw new Error("503");
      },
    };
    await expect(instrumentAnswerer(failing, metrics).compose({} as never)).rejects.toThrow("503");
    expect(await sample(metrics, "llm_calls_total", { kind: "answer", outcome: "failed" })).toBe(1);
  });
});

describe("store decorator", () => {
  it("counts errors by operation, busy threads, lock waits and dedup hits, and passes results through", async () => {
    const metrics = createMetrics({ processMetrics: false });
    const inner = createMemoryStoreFake();
    const store = instrumentStore(inner, metrics);
    expect(await store.markDelivered("e1")).toBe(true);
    expect(await store.markDelivered("e1")).toBe(false);
    expect(await store.withThreadLock("t", async () => "ran")).toBe("ran");
    inner.load = async () => {
      throw new StoreError("down");
    };
    await expect(store.load("t")).rejects.toBeInstanceOf(StoreError);
    inner.withThreadLock = async () => {
      throw new ThreadBusyError("t", 10);
    };
    await expect(store.withThreadLock("t", async () => "never")).rejects.toBeInstanceOf(ThreadBusyError);
    expect(await sample(metrics, "dedup_hits_total")).toBe(1);
    expect(await sample(metrics, "store_errors_total", { op: "load" })).toBe(1);
    expect(await sample(metrics, "thread_lock_busy_total")).toBe(1);
    expect(await sample(metrics, "thread_lock_wait_seconds_count")).toBe(1);
  });
});
