/**
 * Runs the relevance set through the real agent offline (bundled snapshot, rule planner, template
 * answer, clock pinned to the set's date) and computes the figures `npm run eval` prints and the floors
 * test asserts. Ranking depth (nDCG@10, recall@20) is measured on the same find_subsidies call the planner
 * made, asked for 20 results.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { createCore } from "../../src/compose.ts";
import { loadConfig } from "../../src/config.ts";
import { silentLogger } from "../../src/logger.ts";
import type { Reply } from "../../src/types.ts";

export interface EvalQuestion {
  id: string;
  question: string;
  relevant: string[];
  primary: string[];
  noMatch: boolean;
}

export interface QuestionOutcome {
  q: EvalQuestion;
  shown: Array<{ ids: string[]; title: string }>;
  ranked20: string[][];
  match: string | undefined;
  procedural: number;
  duplicates: number;
  ms: number;
}

export interface EvalFigures {
  questions: number;
  answerable: number;
  noMatch: number;
  hitAt5: number;
  precisionAt5: number;
  precisionAt5Strict: number;
  ndcgAt10: number;
  recallAt20: number;
  honesty: number;
  proceduralOrDuplicateInTop5: number;
  p50Ms: number;
  p95Ms: number;
  misses: QuestionOutcome[];
  dishonest: QuestionOutcome[];
}

const SET_PATH = fileURLToPath(new URL("./relevance-set.json", import.meta.url));
const PROCEDURAL = /(撤回|変更|中止|廃止|辞退)届|交付申請等|実績報告|[2-9２-９二三]年目申請|事前着手|練習用/;

export function loadSet(): { clock: string; questions: EvalQuestion[] } {
  return JSON.parse(readFileSync(SET_PATH, "utf8"));
}

const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? 0;
};

function ndcg(ranked: string[][], relevant: Set<string>, k: number): number {
  const gains = ranked.slice(0, k).map((ids) => (ids.some((id) => relevant.has(id)) ? 1 : 0));
  const dcg = gains.reduce<number>((sum, g, i) => sum + g / Math.log2(i + 2), 0);
  const ideal = Array.from({ length: Math.min(k, relevant.size) }, (_, i) => 1 / Math.log2(i + 2));
  const idcg = ideal.reduce((a, b) => a + b, 0);
  return idcg > 0 ? dcg / idcg : 0;
}

/** Runs every question (each in its own thread) and computes the figures. */
export async function evaluate(): Promise<EvalFigures> {
  const set = loadSet();
  const config = loadConfig({
    JGRANTS_SOURCE: "snapshot",
    JGRANTS_NOW: `${set.clock}T12:00:00+09:00`,
    STORE_BACKEND: "memory",
    MCP_HEARTBEAT_MS: "0",
    LOG_LEVEL: "silent",
  });
  const core = await createCore(config, silentLogger);
  const outcomes: QuestionOutcome[] = [];
  try {
    for (const q of set.questions) {
      const started = performance.now();
      const reply: Reply = await core.agent.handle({
        threadKey: `eval:${q.id}`,
        platform: "cli",
        userId: "eval",
        text: q.question,
      });
      const ms = performance.now() - started;
      const shown = reply.subsidies.slice(0, 5).map((s) => ({
        ids: [s.id, ...(s.otherRounds ?? []).map((r) => r.id)],
        title: s.title,
      }));
      const find = reply.plan.find((p) => p.tool === "find_subsidies");
      let ranked20: string[][] = [];
      if (find) {
        const deep = await core.tools.callTool({
          ...find,
          args: { ...find.args, limit: 20, all_ranked: true },
        });
        const items = ((deep.data as { subsidies?: Array<{ id: string; rounds?: Array<{ id: string }> }> })
          ?.subsidies ?? []) as Array<{ id: string; rounds?: Array<{ id: string }> }>;
        ranked20 = items.map((i) => [i.id, ...(i.rounds ?? []).map((r) => r.id)]);
      }
      const titles = shown.map((s) => s.title.replace(/\s+/g, ""));
      outcomes.push({
        q,
        shown,
        ranked20,
        match: reply.meta.match,
        procedural: shown.filter((s) => PROCEDURAL.test(s.title)).length,
        duplicates: titles.length - new Set(titles).size,
        ms,
      });
    }
  } finally {
    await core.close();
  }
  return figures(outcomes);
}

function figures(outcomes: QuestionOutcome[]): EvalFigures {
  const answerable = outcomes.filter((o) => !o.q.noMatch);
  const none = outcomes.filter((o) => o.q.noMatch);
  const rel = (o: QuestionOutcome) => new Set(o.q.relevant);
  const hit = (o: QuestionOutcome) => o.shown.some((s) => s.ids.some((id) => rel(o).has(id)));
  const goodCards = (o: QuestionOutcome) => o.shown.filter((s) => s.ids.some((id) => rel(o).has(id))).length;
  const misses = answerable.filter((o) => !hit(o));
  const dishonest = none.filter((o) => o.match === "good");
  return {
    questions: outcomes.length,
    answerable: answerable.length,
    noMatch: none.length,
    hitAt5: mean(answerable.map((o) => (hit(o) ? 1 : 0))),
    // Over the cards actually shown (an honest answer shows fewer when fewer fit).
    precisionAt5: mean(answerable.map((o) => (o.shown.length ? goodCards(o) / o.shown.length : 0))),
    precisionAt5Strict: mean(answerable.map((o) => goodCards(o) / 5)),
    ndcgAt10: mean(answerable.map((o) => ndcg(o.ranked20, rel(o), 10))),
    recallAt20: mean(
      answerable.map((o) => {
        const found = new Set(o.ranked20.flat());
        return o.q.relevant.filter((id) => found.has(id)).length / o.q.relevant.length;
      }),
    ),
    honesty: none.length ? 1 - dishonest.length / none.length : 1,
    proceduralOrDuplicateInTop5: outcomes.reduce((n, o) => n + o.procedural + o.duplicates, 0),
    p50Ms: pct(
      outcomes.map((o) => o.ms),
      50,
    ),
    p95Ms: pct(
      outcomes.map((o) => o.ms),
      95,
    ),
    misses,
    dishonest,
  };
}
