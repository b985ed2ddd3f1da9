/**
 * The offline planner: no key, no LLM. Reads keywords and filters from the question, resolves
 * follow-ups from the thread's history, and broadens step by step while searches return nothing.
 */

import { domainTermOf, domainWordsIn } from "../catalog/domain-terms.ts";
import type { SearchConditions, ToolCall, ToolInfo } from "../types.ts";
import { extractFilters } from "./filters.ts";
import { resolveFollowUp } from "./follow-up.ts";
import { extractKeywords } from "./keywords.ts";
import type { PlanFocus, PlanInput, Planner, PlanStep, RoundSummary } from "./planner.ts";
import { FIND_TOOL, findCall, findConditions } from "./rule-find.ts";
import { callKey, conditionsFromCalls, ladderOf, MAX_KEYWORDS, searchArgs } from "./rule-ladder.ts";

export interface RulePlannerOptions {
  /** At most this many subsidies are fetched for a detail follow-up (default 5). */
  detailTopN?: number;
}

interface JgrantsTools {
  server: string;
  search: string;
  /** The ranked tool, when the server has it (ours does; the official server does not). */
  find: string | null;
  detail: string | null;
  detailArg: string;
}

/** The jGrants server is whichever server offers `search_subsidies`. */
export function findJgrantsTools(tools: ToolInfo[]): JgrantsTools | null {
  const search = tools.find((t) => t.name === "search_subsidies");
  if (!search) return null;
  const detail = tools.find((t) => t.server === search.server && t.name === "get_subsidy_detail") ?? null;
  const find = tools.find((t) => t.server === search.server && t.name === FIND_TOOL) ?? null;
  const props = detail?.inputSchema.properties;
  const names = props && typeof props === "object" ? Object.keys(props) : [];
  const detailArg = names.includes("subsidy_id") ? "subsidy_id" : names.includes("id") ? "id" : "subsidy_id";
  return {
    server: search.server,
    search: search.name,
    find: find?.name ?? null,
    detail: detail?.name ?? null,
    detailArg,
  };
}

const FALLBACK_KEYWORD = "補助金";
/** With conditions but no topic ("今月締切のもの"), search the common names of such programmes. */
const FALLBACK_KEYWORDS = ["補助金", "助成金", "奨励金"];

function step(
  calls: ToolCall[],
  conditions: SearchConditions | null,
  focus: PlanFocus,
  done = false,
): PlanStep {
  return { calls, done: done || calls.length === 0, conditions, focus, llmCalls: 0, promptBytes: 0 };
}

/**
 * The question's words plus the known topic inside a compound or behind a synonym ("省エネ設備" → 省エネ,
 * "開業" → 創業), so a literal compound does not miss the subsidies of its topic. At most MAX_KEYWORDS.
 */
function withCoreTerms(own: string[]): string[] {
  const core = own.flatMap((k) => {
    const inner = domainWordsIn(k).filter((w) => w !== k && w.length >= 2);
    const term = domainTermOf(k)?.term;
    return term && term !== k ? [...inner, term] : inner;
  });
  return [...new Set([...own, ...core])].slice(0, Math.max(MAX_KEYWORDS, own.length));
}

/** The question's own search: keywords, filters, and the purpose filter only when there is no keyword. */
function searchOf(question: string): {
  conditions: SearchConditions;
  hasOwnTopic: boolean;
  filters: ReturnType<typeof extractFilters>;
} {
  const filters = extractFilters(question);
  const own = extractKeywords(filters.rest, MAX_KEYWORDS);
  // An industry is a filter; with no other topic, its word (ranked first) and the usual programme names.
  const industryFirst = [...filters.industryWords.slice(0, 1), ...FALLBACK_KEYWORDS].slice(0, MAX_KEYWORDS);
  const keywords =
    own.length > 0
      ? withCoreTerms(own)
      : filters.industry
        ? industryFirst
        : filters.industryWords.length > 0
          ? filters.industryWords.slice(0, 1)
          : FALLBACK_KEYWORDS;
  const c: SearchConditions = { keywords, acceptance: filters.acceptance ?? "1" };
  if (filters.area) c.area = filters.area;
  if (filters.employees) c.employees = filters.employees;
  if (filters.industry) c.industry = filters.industry;
  // Purpose words are search words themselves; as a filter they only narrow a keyword-less search.
  if (filters.purpose && own.length === 0) c.purpose = filters.purpose;
  if (filters.sort) {
    c.sort = filters.sort;
    c.order = filters.order ?? "ASC";
  }
  return { conditions: c, hasOwnTopic: own.length > 0, filters };
}

/** Stored conditions, checked: history may hold turns written by an older version. */
function sane(c: SearchConditions | null | undefined): SearchConditions | null {
  if (!c || typeof c !== "object") return null;
  const keywords = Array.isArray(c.keywords)
    ? c.keywords.filter((k) => typeof k === "string" && k.length >= 2)
    : [];
  return { ...c, keywords: keywords.length > 0 ? keywords.slice(0, MAX_KEYWORDS) : [FALLBACK_KEYWORD] };
}

/** True when some search of this turn found something (the agent then fetches details and answers). */
function searchHits(rounds: RoundSummary[]): { round: RoundSummary; calls: ToolCall[] } | null {
  for (let i = rounds.length - 1; i >= 0; i--) {
    const round = rounds[i];
    const hit = round?.calls.filter((c) => !c.isError && (c.hitCount ?? 0) > 0) ?? [];
    if (round && hit.length > 0) return { round, calls: hit.map((c) => c.call) };
  }
  return null;
}

/**
 * The ranked path: one find_subsidies call per turn. A refinement keeps the thread's need and replaces
 * the conditions the user named (「大阪府なら？」 switches the area; a city gives way to a new prefecture).
 */
function planRanked(
  input: PlanInput,
  server: string,
  follow: ReturnType<typeof resolveFollowUp>,
  last: SearchConditions | null,
  f: ReturnType<typeof extractFilters>,
  topN: number,
): PlanStep {
  const question = input.question.normalize("NFKC");
  const fresh = findConditions(question, f);
  let base = fresh;
  let focus: PlanFocus = { kind: "search" };
  if (follow?.kind === "resort") {
    base = { ...(last ?? fresh), sort: follow.sort, order: follow.order };
    focus = { kind: "resort", sort: follow.sort, order: follow.order };
  } else if (follow?.kind === "refine") {
    const prior = sane(follow.base) ?? fresh;
    base = { ...prior, acceptance: f.acceptance ?? prior.acceptance ?? "1" };
    if (fresh.area) {
      base.area = fresh.area;
      if (fresh.city) base.city = fresh.city;
      else delete base.city;
    }
    if (fresh.employees) base.employees = fresh.employees;
    if (fresh.industry) base.industry = fresh.industry;
    if (fresh.sort) Object.assign(base, { sort: fresh.sort, order: fresh.order });
    if (follow.exclude) focus = { kind: "search", exclude: follow.exclude };
  }
  if (input.rounds.length > 0) return step([], base, focus, true);
  const limit = Math.max(10, topN * 2 + (focus.kind === "search" ? (focus.exclude?.length ?? 0) : 0));
  return step([findCall(server, base, question, input.now, limit)], base, focus);
}

/** Creates the offline rule planner (mode "offline", model null; never calls an LLM). */
export function createRulePlanner(options: RulePlannerOptions = {}): Planner {
  const topN = Math.max(1, options.detailTopN ?? 5);
  return {
    mode: "offline",
    model: null,
    async plan(input: PlanInput): Promise<PlanStep> {
      const jg = findJgrantsTools(input.tools);
      if (!jg) return step([], null, { kind: "search" }, true);
      const question = input.question.normalize("NFKC");
      const own = searchOf(question);
      const f = own.filters;
      const hasNewFilters = Boolean(f.area || f.employees || f.industry || f.sort || f.acceptance);
      const follow = resolveFollowUp(question, input.history, own.hasOwnTopic, hasNewFilters);
      const lastConditions = sane([...input.history].reverse().find((h) => h.conditions)?.conditions);

      // Nothing to search for: no topic, no conditions, not a follow-up ("こんにちは", "😀", "？").
      if (!follow && !own.hasOwnTopic && !hasNewFilters && !f.purpose && f.industryWords.length === 0) {
        return step([], null, { kind: "search" }, true);
      }
      if (follow?.kind === "detail") {
        const focus: PlanFocus = { kind: "detail", ids: follow.ids.slice(0, topN) };
        if (input.rounds.length > 0 || !jg.detail) return step([], lastConditions, focus, true);
        const calls = focus.ids.map((id) => ({
          server: jg.server,
          tool: jg.detail as string,
          args: { [jg.detailArg]: id },
          reason: `${follow.why}の補助金（${id}）の詳細を取得`,
        }));
        return step(calls, lastConditions, focus);
      }

      if (jg.find) return planRanked(input, jg.server, follow, lastConditions, f, topN);

      let base = own.conditions;
      let focus: PlanFocus = { kind: "search" };
      if (follow?.kind === "resort") {
        base = { ...(lastConditions ?? own.conditions), sort: follow.sort, order: follow.order };
        focus = { kind: "resort", sort: follow.sort, order: follow.order };
      } else if (follow?.kind === "refine") {
        const prior = sane(follow.base) ?? own.conditions;
        base = { ...prior, acceptance: f.acceptance ?? prior.acceptance ?? "1" };
        if (f.area) base.area = f.area;
        if (f.employees) base.employees = f.employees;
        if (f.industry) base.industry = f.industry;
        if (f.sort) Object.assign(base, { sort: f.sort, order: f.order ?? "ASC" });
        if (follow.exclude) focus = { kind: "search", exclude: follow.exclude };
      }

      const made = new Set(input.rounds.flatMap((r) => r.calls.map((c) => callKey(c.call))));
      const hits = searchHits(input.rounds);
      if (hits) return step([], conditionsFromCalls(hits.calls, base), focus, true);
      const last = input.rounds.at(-1);
      if (last && last.calls.length > 0 && last.calls.every((c) => c.isError))
        return step([], base, focus, true);

      for (const rung of ladderOf(base)) {
        const calls: ToolCall[] = rung.conditions.keywords
          .map((keyword) => ({
            server: jg.server,
            tool: jg.search,
            args: searchArgs(keyword, rung.conditions),
            reason: rung.why ? `${rung.why}: 「${keyword}」` : `キーワード「${keyword}」で検索`,
          }))
          .filter((c) => !made.has(callKey(c)));
        if (calls.length > 0) return step(calls, rung.conditions, focus);
      }
      return step([], base, focus, true);
    },
  };
}
