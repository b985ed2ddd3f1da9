/**
 * Agent benchmark: the same questions through our agent (Gemini planner + answerer) and through the seed's
 * baseline loop, against a scripted fake Gemini with injected latency and the bundled jGrants server
 * (snapshot) with injected latency per tool call. Prints figures; asserts nothing.
 */
import { createAgent } from "../src/agent/agent.ts";
import { createGeminiAnswerer } from "../src/answer/gemini-answerer.ts";
import { createTemplateAnswerer } from "../src/answer/template-answerer.ts";
import { loadConfig } from "../src/config.ts";
import { createGeminiClient } from "../src/llm/gemini-client.ts";
import { loadSystemPrompt } from "../src/llm/system-prompt.ts";
import { silentLogger } from "../src/logger.ts";
import { createGeminiPlanner } from "../src/planner/gemini-planner.ts";
import { createRulePlanner } from "../src/planner/rule-planner.ts";
import { createThreadStore } from "../src/store/index.ts";
import { createMcpHost } from "../src/tools/mcp-host.ts";
import type { FakeGeminiReply, RecordedRequest } from "../test/fakes/fake-gemini.ts";
import { startFakeGemini } from "../test/fakes/fake-gemini.ts";
import { runBaseline } from "./baseline.ts";
import { withLatency } from "./latency-host.ts";
import { type BenchQuestion, QUESTIONS } from "./questions.ts";

export interface AgentBenchOptions {
  llmLatencyMs?: number;
  toolLatencyMs?: number;
}

const ID = /a0W[A-Za-z0-9]{15}/g;

/** The scripted model: searches the question's keywords, broadens after zero hits, then answers. */
function script(request: RecordedRequest): FakeGeminiReply {
  const q = QUESTIONS.find((item) => request.text.includes(item.question)) as BenchQuestion;
  if (request.functionNames.length === 0 || request.stream) {
    return {
      text: [
        "ご質問の条件に合う補助金をまとめました。",
        "金額・締切は下の一覧のとおりです。",
        "詳細は公募要領をご確認ください。",
      ],
    };
  }
  const search =
    request.functionNames.find((n) => n.endsWith("search_subsidies")) ?? "jgrants__search_subsidies";
  const detail =
    request.functionNames.find((n) => n.endsWith("get_subsidy_detail")) ?? "jgrants__get_subsidy_detail";
  const zeroHits = /total_count":0|\b0件/.test(request.text);
  const keywords = zeroHits && q.broader ? q.broader : q.keywords;
  const searchCalls = keywords.map((keyword) => ({
    name: search,
    args: { keyword, reason: `「${keyword}」で検索` },
  }));
  const stage = /STAGE:(\w+)/.exec(request.text)?.[1];
  if (!stage) return { functionCalls: searchCalls };
  // Baseline stages: the model decides everything.
  if (stage === "plan") return { functionCalls: searchCalls };
  const fetched = request.text.includes("get_subsidy_detail");
  if (!fetched) {
    const ids = [...new Set(request.text.match(ID) ?? [])].slice(0, 5);
    if (ids.length === 0)
      return zeroHits && !request.text.includes(q.broader?.[0] ?? "\u0000")
        ? { functionCalls: searchCalls }
        : { text: "見つかりませんでした。" };
    return { functionCalls: ids.map((id) => ({ name: detail, args: { subsidy_id: id } })) };
  }
  return { text: "十分な情報が集まりました。" };
}

export async function runAgentBench(options: AgentBenchOptions = {}) {
  const llmLatencyMs = options.llmLatencyMs ?? 1000;
  const toolLatencyMs = options.toolLatencyMs ?? 500;
  const fake = await startFakeGemini(script, { latencyMs: llmLatencyMs });
  const config = loadConfig({
    GOOGLE_API_KEY: "bench-key",
    GEMINI_BASE_URL: fake.url,
    JGRANTS_SOURCE: "snapshot",
    STORE_BACKEND: "memory",
    MCP_HEARTBEAT_MS: "0",
    AGENT_CONCURRENCY: "6",
  });
  const gemini = config.gemini!;
  const host = createMcpHost({ config: config.mcp, jgrants: config.jgrants, logger: silentLogger });
  const tools = withLatency(host, toolLatencyMs);
  const store = await createThreadStore(config.store, { logger: silentLogger });
  const systemPrompt = loadSystemPrompt();
  const rulePlanner = createRulePlanner();
  const agent = createAgent({
    planner: createGeminiPlanner({ config: gemini, systemPrompt, logger: silentLogger }),
    fallbackPlanner: rulePlanner,
    answerer: createGeminiAnswerer({ config: gemini, systemPrompt, logger: silentLogger }),
    fallbackAnswerer: createTemplateAnswerer(),
    tools,
    store,
    limits: config.agent,
  });
  const client = createGeminiClient({ config: gemini, logger: silentLogger });
  await host.listTools(); // connect once, outside the timings

  const rows: Array<Record<string, string | number>> = [];
  const totals = { ours: zero(), base: zero() };
  for (const [i, q] of QUESTIONS.entries()) {
    const started = Date.now();
    const reply = await agent.handle({
      threadKey: `bench:${i}`,
      platform: "cli",
      userId: "bench",
      text: q.question,
    });
    const ours = {
      llmCalls: reply.meta.llmCalls,
      toolCalls: reply.meta.toolCalls,
      rounds: reply.meta.rounds,
      promptBytes: reply.meta.promptBytes,
      wallMs: Date.now() - started,
    };
    const base = await runBaseline(q.question, client, tools);
    add(totals.ours, ours);
    add(totals.base, base);
    rows.push({
      question: q.question.slice(0, 18),
      "llm ours/base": `${ours.llmCalls}/${base.llmCalls}`,
      "tools ours/base": `${ours.toolCalls}/${base.toolCalls}`,
      "rounds ours/base": `${ours.rounds}/${base.rounds}`,
      "prompt B ours/base": `${ours.promptBytes}/${base.promptBytes}`,
      "wall ms ours/base": `${ours.wallMs}/${base.wallMs}`,
      "wall ratio": round(ours.wallMs / base.wallMs),
      degraded: reply.meta.degraded ?? "",
    });
  }
  await host.close();
  await store.close();
  await fake.close();
  return {
    rows,
    totals: {
      "LLM calls (ours / baseline)": `${totals.ours.llmCalls} / ${totals.base.llmCalls}`,
      "tool calls (ours / baseline)": `${totals.ours.toolCalls} / ${totals.base.toolCalls}`,
      "prompt bytes (ours / baseline)": `${totals.ours.promptBytes} / ${totals.base.promptBytes}`,
      "max prompt bytes per answer (ours)": Math.max(
        ...rows.map((r) => Number(String(r["prompt B ours/base"]).split("/")[0])),
      ),
      "wall ms (ours / baseline)": `${totals.ours.wallMs} / ${totals.base.wallMs}`,
      "wall time ratio (target <= 0.4)": round(totals.ours.wallMs / totals.base.wallMs),
      "prompt bytes ratio": round(totals.ours.promptBytes / totals.base.promptBytes),
      "LLM latency / tool latency (ms)": `${llmLatencyMs} / ${toolLatencyMs}`,
    },
  };
}

function zero() {
  return { llmCalls: 0, toolCalls: 0, rounds: 0, promptBytes: 0, wallMs: 0 };
}

function add(total: ReturnType<typeof zero>, f: ReturnType<typeof zero>) {
  for (const key of Object.keys(total) as Array<keyof typeof total>) total[key] += f[key];
}

function round(n: number): number {
  return Math.round(n * 100) / 100;
}
