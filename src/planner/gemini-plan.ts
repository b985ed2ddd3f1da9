/**
 * Reading Gemini's function calls as a plan: each call must name an offered tool and carry object
 * arguments with a non-empty `reason` (checked with zod); anything else is a malformed plan that gets one
 * repair attempt. Also derives the turn's SearchConditions and PlanFocus from the calls of this turn.
 */
import { z } from "zod";
import { readConditions } from "../subsidies/index.ts";
import type { HistoryTurn, SearchConditions, ToolCall, ToolInfo } from "../types.ts";
import type { ArgsCheck } from "./gemini-args.ts";
import { REASON_ARG } from "./gemini-schema.ts";
import { toolKind } from "./gemini-tools.ts";
import type { PlanFocus, RoundSummary } from "./planner.ts";

/** At most this many calls are taken from one response (the agent enforces its own limits too). */
export const MAX_CALLS_PER_STEP = 10;

const argsSchema = z.looseObject({
  [REASON_ARG]: z.string().trim().min(1, "reason is missing").max(500),
});

/** The validated calls, or what was wrong with them (sent back to the model in the repair). */
export type ParsedPlan = { ok: true; calls: ToolCall[] } | { ok: false; problem: string };

/**
 * Validates the model's function calls (a reason each, and arguments that fit the tool's input schema
 * when `check` is given) and maps qualified names back to {server, tool}.
 */
export function parseFunctionCalls(
  functionCalls: Array<{ name: string; args: unknown }>,
  tools: Map<string, ToolInfo>,
  check?: ArgsCheck,
): ParsedPlan {
  const calls: ToolCall[] = [];
  const seen = new Set<string>();
  for (const fc of functionCalls.slice(0, MAX_CALLS_PER_STEP)) {
    const tool = tools.get(fc.name);
    if (!tool) return { ok: false, problem: `unknown function "${fc.name}"` };
    const parsed = argsSchema.safeParse(fc.args);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return {
        ok: false,
        problem: `${fc.name}: ${issue?.path.join(".") || "args"} ${issue?.message ?? "invalid"}`,
      };
    }
    const { [REASON_ARG]: reason, ...args } = parsed.data;
    const wrong = check?.(tool, args);
    if (wrong) return { ok: false, problem: `${fc.name}: ${wrong}` };
    const key = `${fc.name} ${JSON.stringify(args)}`;
    if (seen.has(key)) continue;
    seen.add(key);
    calls.push({ server: tool.server, tool: tool.name, args, reason });
  }
  return { ok: true, calls };
}

const kindOf = (call: ToolCall) => toolKind({ server: call.server, name: call.tool });
const isSearch = (call: ToolCall) => kindOf(call) === "search";
const isDetail = (call: ToolCall) => kindOf(call) === "detail" && typeof call.args.subsidy_id === "string";

/** The turn's conditions: those of its newest group of searches (after broadening, the broader ones). */
export function deriveConditions(
  step: ToolCall[],
  rounds: RoundSummary[],
  history: HistoryTurn[],
): SearchConditions | null {
  const groups = [...rounds.map((r) => r.calls.map((c) => c.call)), step]
    .map((calls) => calls.filter(isSearch))
    .filter((calls) => calls.length > 0);
  const newest = groups.at(-1);
  if (!newest) return history.at(-1)?.conditions ?? null;
  const keywords: string[] = [];
  for (const call of newest) {
    for (const keyword of readConditions(call.args).keywords ?? []) {
      if (!keywords.includes(keyword)) keywords.push(keyword);
    }
  }
  const filters: Partial<SearchConditions> = {};
  for (const call of [...newest].reverse()) {
    const { keywords: _k, ...read } = readConditions(call.args);
    Object.assign(filters, read);
  }
  return { ...filters, keywords };
}

/** Detail focus when this turn only fetched details (a follow-up about shown subsidies); else search. */
export function deriveFocus(step: ToolCall[], rounds: RoundSummary[]): PlanFocus {
  const all = [...rounds.flatMap((r) => r.calls.map((c) => c.call)), ...step];
  if (all.some(isSearch)) return { kind: "search" };
  const ids = [...new Set(all.filter(isDetail).map((call) => call.args.subsidy_id as string))];
  return ids.length > 0 ? { kind: "detail", ids } : { kind: "search" };
}
