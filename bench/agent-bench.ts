/**
 * Agent benchmark: the same questions through our agent (Gemini planner + answerer) and through the seed's
 * baseline loop, against a scripted fake Gemini with injected latency and the bundled jGrants server
 * (snapshot) with injected latency per tool call. Prints figures; asserts nothing.
 */
import type { FakeGeminiReply, RecordedRequest } from "../test/fakes/fake-gemini.ts";
import { startFakeGemini } from "../test/fakes/fake-gemini.ts";
import { runBaseline } from "./baseline.ts";
import { createBenchAgent } from "./gemini-agent.ts";
import { type BenchQuestion, QUESTIONS } from "./questions.ts";

export interface AgentBenchOptions {
  llmLatencyMs?: number;
  toolLatencyMs?: number;
}

const ID = /a0W[A-Za-z0-9]{15}/g;

/** The scripted model: searches the question's keywords, broadens after zero hits, then answers. */
export function benchModel(request: RecordedRequest): FakeGeminiReply {
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
  const fake = await startFakeGemini(benchModel, { latencyMs: llmLatencyMs });
  const { agent, tools, client, close } = await createBenchAgent(fake.url, toolLatencyMs);

  const rows: Array<Record<string, string | number>> = [];
  const totals = { ours: zero(), base: zero(), par: zero() };
  const sizes = { plain: [] as number[], retried: [] as number[] };
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
    // One planning request and one answer is the common case; more means a re-plan (a retry).
    (ours.llmCalls > 2 ? sizes.retried : sizes.plain).push(ours.promptBytes);
    const base = await runBaseline(q.question, client, tools);
    const par = await runBaseline(q.question, client, tools, { parallel: true });
    add(totals.ours, ours);
    add(totals.base, base);
    add(totals.par, par);
    rows.push({
      question: q.question.slice(0, 18),
      "llm ours/base": `${ours.llmCalls}/${base.llmCalls}`,
      "tools ours/base": `${ours.toolCalls}/${base.toolCalls}`,
      "rounds ours/base": `${ours.rounds}/${base.rounds}`,
      "prompt B ours/base": `${ours.promptBytes}/${base.promptBytes}`,
      "wall ms ours/base/base∥": `${ours.wallMs}/${base.wallMs}/${par.wallMs}`,
      "ratio base/base∥": `${round(ours.wallMs / base.wallMs)}/${round(ours.wallMs / par.wallMs)}`,
      degraded: reply.meta.degraded ?? "",
    });
  }
  await close();
  await fake.close();
  const most = (values: number[]) => (values.length > 0 ? Math.max(...values) : "n/a");
  return {
    rows,
    totals: {
      "LLM calls (ours / baseline)": `${totals.ours.llmCalls} / ${totals.base.llmCalls}`,
      "tool calls (ours / baseline)": `${totals.ours.toolCalls} / ${totals.base.toolCalls}`,
      "prompt bytes (ours / baseline)": `${totals.ours.promptBytes} / ${totals.base.promptBytes}`,
      "max prompt bytes per answer (target <= 6144)": most(sizes.plain),
      "max prompt bytes per answer with a re-plan (target <= 9216)": most(sizes.retried),
      "wall ms (ours / baseline 依次 / baseline parallel)": `${totals.ours.wallMs} / ${totals.base.wallMs} / ${totals.par.wallMs}`,
      "wall time ratio vs sequential baseline (target <= 0.4)": round(
        totals.ours.wallMs / totals.base.wallMs,
      ),
      "wall time ratio vs parallel-tools baseline": round(totals.ours.wallMs / totals.par.wallMs),
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
