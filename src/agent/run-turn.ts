/**
 * One turn of the plan → execute → evaluate loop. Rules (from the first seed): zero hits → plan again
 * with other keywords; hits → fetch the details of the top N without asking the LLM; enough → stop.
 * Limits (rounds, tool calls) end in an answer built from what was found, never in an exception.
 */

import type {
  CallSummary,
  PlanFocus,
  PlanInput,
  Planner,
  PlanStep,
  RoundSummary,
} from "../planner/planner.ts";
import { summariseCall } from "../subsidies/index.ts";
import type {
  HistoryTurn,
  PlanEntry,
  ProgressEvent,
  SearchConditions,
  Subsidy,
  ToolCall,
  ToolHost,
  ToolInfo,
  ToolResult,
} from "../types.ts";
import { Collected, DETAIL_TOOL, isSearchTool, SEARCH_TOOL, selectShown, shownLimit } from "./collect.ts";
import { callSignature, executeCalls } from "./execute.ts";
import type { AgentLimits } from "./limits.ts";

export interface LoopInput {
  question: string;
  history: HistoryTurn[];
  tools: ToolInfo[];
  host: ToolHost;
  planner: Planner;
  fallbackPlanner: Planner;
  limits: AgentLimits;
  now: () => Date;
  emit: (event: ProgressEvent) => void;
  /** Called as each call finishes, before it is read: lets the caller move its data clock. */
  onToolResult?: (result: ToolResult) => void;
  /** Called once a finished call is summarised (the summary planners and replies see). */
  onToolSummary?: (result: ToolResult, summary: CallSummary) => void;
  onPlanned?: (entry: PlanEntry) => void;
  signal?: AbortSignal;
  /** Which hits may be shown (e.g. a deadline window); details are fetched only for those. */
  keep?: (s: Subsidy) => boolean;
  /** When the turn began (epoch ms), passed to planners for their time budget. */
  startedAt?: number;
}

export interface LoopOutput {
  collected: Collected;
  conditions: SearchConditions | null;
  focus: PlanFocus;
  plan: PlanEntry[];
  results: ToolResult[];
  rounds: number;
  llmCalls: number;
  promptBytes: number;
  planner: Planner;
  degraded?: string;
  /** Why the loop stopped early, when a limit was hit. */
  limitHit?: "rounds" | "toolCalls";
  /** The summary of every result (complete once detailsPending settles). */
  summaries: Map<ToolResult, CallSummary>;
  /** Settles when the last round's detail fetches are done (results and plan are complete then). */
  detailsPending: Promise<void>;
  /**
   * Fetches the details of these hits when they lack them (after detailsPending; within the tool-call
   * limit): for subsidies the answer chose beyond the top ones.
   */
  fetchDetails(ids: string[]): Promise<void>;
  /** The first search, when it found nothing and broader searches found the hits (the answer says so). */
  broadenedFrom?: { keywords: string[]; area?: string };
}

function filtersOf(args: Record<string, unknown>): Partial<Omit<SearchConditions, "keywords">> {
  const pick = (key: string) => (typeof args[key] === "string" ? (args[key] as string) : undefined);
  const count = typeof args.employees === "number" ? `${args.employees}名` : undefined;
  const filters = {
    // The planners add 全国 to a prefecture so nationwide subsidies are found; users asked for the prefecture.
    area: pick("city") ?? pick("area") ?? pick("target_area_search")?.replace(/ \/ 全国$/, ""),
    industry: pick("industry"),
    // Planners send the user's size bucket and every larger one; the first is what the user said.
    employees: count ?? pick("target_number_of_employees")?.split(" / ")[0],
    purpose: pick("use_purpose"),
  };
  return Object.fromEntries(Object.entries(filters).filter(([, v]) => v)) as typeof filters;
}

/** Runs the loop for one question. */
export async function runLoop(input: LoopInput): Promise<LoopOutput> {
  const { limits, emit } = input;
  const collected = new Collected();
  const seen = new Set<string>();
  const plan: PlanEntry[] = [];
  const results: ToolResult[] = [];
  const rounds: RoundSummary[] = [];
  let planner = input.planner;
  let llmCalls = 0;
  let promptBytes = 0;
  let degraded: string | undefined;
  let conditions: SearchConditions | null = null;
  let focus: PlanFocus = { kind: "search" };
  let round = 0;
  let limitHit: LoopOutput["limitHit"];
  let detailsFetched = false;
  let detailsPending: Promise<void> = Promise.resolve();
  let broadenedFrom: LoopOutput["broadenedFrom"];
  // Each result is read once: its summary serves the planner, the tool events and the reply.
  const summaries = new Map<ToolResult, CallSummary>();

  const run = async (calls: ToolCall[], reasonRound: number, onEach?: () => void): Promise<ToolResult[]> => {
    const room = limits.maxToolCalls - results.length;
    const fresh = calls.filter((c) => !seen.has(callSignature(c)));
    const allowed = fresh.slice(0, Math.max(0, room));
    if (allowed.length < fresh.length) limitHit = "toolCalls";
    for (const call of allowed) {
      seen.add(callSignature(call));
      const entry = { ...call, reason: call.reason ?? "", round: reasonRound };
      plan.push(entry);
      input.onPlanned?.(entry);
    }
    const out = await executeCalls(input.host, allowed, {
      concurrency: limits.concurrency,
      timeoutMs: limits.toolTimeoutMs,
      signal: input.signal,
      onResult: (r) => {
        input.onToolResult?.(r);
        // One instant for both reads, so the summary reuses what add() read.
        const now = input.now();
        collected.add(r, now);
        const summary = summariseCall(r.call, r, now);
        summaries.set(r, summary);
        input.onToolSummary?.(r, summary);
        onEach?.();
      },
    });
    results.push(...out);
    rounds.push({ round: reasonRound, calls: out.map((r) => summaries.get(r)!) });
    return out;
  };

  const { question, history, tools, startedAt } = input;
  const planInput = (): PlanInput => ({ question, history, tools, rounds, now: input.now(), startedAt });

  while (round < limits.maxRounds) {
    if (input.signal?.aborted) break;
    round += 1;
    let step: PlanStep = await planner.plan(planInput(), input.signal);
    llmCalls += step.llmCalls;
    promptBytes += step.promptBytes;
    if (step.degraded && planner !== input.fallbackPlanner) {
      degraded = step.degraded;
      planner = input.fallbackPlanner;
      step = await planner.plan(planInput(), input.signal);
    }
    conditions = step.conditions ?? conditions;
    focus = step.focus ?? focus;
    const calls = step.calls.filter((c) => !seen.has(callSignature(c)));
    if (calls.length === 0) break;

    const searches = calls.filter((c) => isSearchTool(c.tool));
    const wordsOf = (list: ToolCall[]) =>
      list.flatMap((c) =>
        c.tool === SEARCH_TOOL ? [String(c.args.keyword ?? "")] : (step.conditions?.keywords ?? []),
      );
    if (searches.length > 0) {
      const keywords = wordsOf(searches).filter(Boolean);
      if (round > 1 && collected.size === 0) {
        emit({ type: "retrying", why: "zero-hits", keywords });
      } else {
        emit({ type: "searching", keywords, filters: filtersOf(searches[0]!.args) });
      }
    } else if (calls.some((c) => c.tool === DETAIL_TOOL)) {
      emit({ type: "fetching-details", count: calls.filter((c) => c.tool === DETAIL_TOOL).length });
    }
    await run(calls, round);
    // A server without the ranked tool: its literal hits are ranked here with the same scorer.
    if (searches.length > 0 && searches.every((c) => c.tool === SEARCH_TOOL) && focus.kind !== "detail") {
      collected.rerankLiteral(input.question, input.now());
    }
    if (limitHit) break;
    if (round === 1 && searches.length > 0 && collected.size === 0) {
      const keywords = wordsOf(searches).filter(Boolean);
      broadenedFrom = { keywords, area: filtersOf(searches[0]!.args).area };
    }

    let found = 0;
    if (searches.length > 0) {
      found = input.keep ? collected.all().filter(input.keep).length : collected.totalCount;
      const room = shownLimit(collected, limits.detailTopN || found);
      emit({ type: "found", count: found, shown: Math.min(found, room) });
    }
    if (focus.kind === "detail") {
      if (focus.ids.every((id) => collected.get(id)?.detailed) || step.done) break;
      continue;
    }
    if (collected.size === 0) {
      if (step.done) break;
      continue; // zero hits: plan again with other keywords
    }
    // Hits: fetch the top N details in parallel, without asking the LLM, then stop.
    if (!detailsFetched && limits.detailTopN > 0 && round < limits.maxRounds) {
      detailsFetched = true;
      const top = selectShown(
        collected,
        focus,
        conditions,
        shownLimit(collected, limits.detailTopN),
        input.keep,
      )
        .filter((s) => !s.detailed)
        .map((s) => s.id);
      const detailCalls = top.map<ToolCall>((id) => ({
        server: searches[0]?.server ?? jgrantsServer(input.tools),
        tool: DETAIL_TOOL,
        args: { subsidy_id: id },
        reason: "上位の補助金の補助率・対象などを確認するため",
      }));
      if (detailCalls.length > 0) {
        round += 1;
        const count = detailCalls.length;
        let done = 0;
        emit({ type: "fetching-details", count, done, found });
        // Not awaited here: the answer can start from the hits while the details arrive.
        const each = () => emit({ type: "fetching-details", count, done: ++done, found });
        detailsPending = run(detailCalls, round, each).then(() => undefined);
      }
    }
    break;
  }
  if (round >= limits.maxRounds && collected.size === 0 && !limitHit) limitHit = "rounds";
  const fetchDetails = async (ids: string[]): Promise<void> => {
    await detailsPending.catch(() => undefined);
    const missing = ids.filter((id) => collected.get(id)?.detailed === false);
    if (missing.length === 0 || input.signal?.aborted) return;
    const calls = missing.map<ToolCall>((id) => ({
      server: jgrantsServer(input.tools),
      tool: DETAIL_TOOL,
      args: { subsidy_id: id },
      reason: "回答で紹介する補助金の補助率・対象などを確認するため",
    }));
    round += 1;
    await run(calls, round);
  };
  return {
    collected,
    conditions,
    focus,
    plan,
    results,
    rounds: round,
    llmCalls,
    promptBytes,
    planner,
    degraded,
    limitHit,
    summaries,
    detailsPending,
    fetchDetails,
    broadenedFrom: collected.size > 0 ? broadenedFrom : undefined,
  };
}

function jgrantsServer(tools: ToolInfo[]): string {
  return tools.find((t) => t.name === SEARCH_TOOL)?.server ?? "jgrants";
}
