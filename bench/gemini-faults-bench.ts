/**
 * What a user waits for when Gemini is slow or failing, with the default settings (12 s per call,
 * 25 s per turn, 2 retries): the fake Gemini answers every request after 3 s, or fails in the ways the
 * agent must survive (5xx, a 429 asking for 60 s, a 30 s hang), while the jGrants tools take 500 ms a
 * call. Each row is one question through the agent; the fallback rows end in the offline answer.
 * Prints figures; asserts nothing.
 */

import { loadConfig } from "../src/config.ts";
import type { FakeGeminiReply, FakeGeminiScript, RecordedRequest } from "../test/fakes/fake-gemini.ts";
import { startFakeGemini } from "../test/fakes/fake-gemini.ts";
import { benchModel } from "./agent-bench.ts";
import { createBenchAgent } from "./gemini-agent.ts";
import { QUESTIONS } from "./questions.ts";

interface Case {
  name: string;
  script: FakeGeminiScript;
  latencyMs?: number;
  /** How many of the benchmark questions to ask (hangs are slow by design). */
  questions: number;
}

const always = (reply: FakeGeminiReply) => (_request: RecordedRequest) => reply;

const CASES: Case[] = [
  { name: "answers after 3 s", script: benchModel, latencyMs: 3000, questions: 2 },
  { name: "503 on every request", script: always({ error: 503 }), questions: 2 },
  { name: "429, retryDelay 60s", script: always({ error: 429, retryDelay: "60s" }), questions: 2 },
  { name: "hangs 30 s", script: always({ delayMs: 30_000, text: "DONE" }), questions: 1 },
];

export async function runGeminiFaultsBench(options: { toolLatencyMs?: number } = {}) {
  const toolLatencyMs = options.toolLatencyMs ?? 500;
  const rows: Array<Record<string, string | number>> = [];
  const gemini = loadConfig({ GOOGLE_API_KEY: "bench-key" }).gemini!;
  for (const c of CASES) {
    const fake = await startFakeGemini(c.script, { latencyMs: c.latencyMs });
    const bench = await createBenchAgent(fake.url, toolLatencyMs);
    for (const [i, q] of QUESTIONS.slice(0, c.questions).entries()) {
      fake.requests.length = 0;
      const started = Date.now();
      const reply = await bench.agent.handle({
        threadKey: `faults:${c.name}:${i}`,
        platform: "cli",
        userId: "bench",
        text: q.question,
      });
      rows.push({
        gemini: c.name,
        question: q.question.slice(0, 14),
        "wall ms": Date.now() - started,
        mode: reply.meta.mode,
        "llm calls": reply.meta.llmCalls,
        "prompt B": reply.meta.promptBytes,
        shown: reply.subsidies.length,
        degraded: reply.meta.degraded ?? "",
      });
    }
    await bench.close();
    await fake.close();
  }
  return {
    rows,
    totals: {
      "settings (per call / per turn / retries)": `${gemini.timeoutMs} ms / ${gemini.turnBudgetMs} ms / ${gemini.maxRetries}`,
      "tool latency (ms)": toolLatencyMs,
    },
  };
}
