/** A Planner that replays scripted steps, one per plan() call, and records what it was shown. */
import type { PlanInput, Planner, PlanStep } from "../../src/planner/planner.ts";
import type { ToolCall } from "../../src/types.ts";

export type ScriptedStep = Partial<PlanStep> | ((input: PlanInput) => Partial<PlanStep>);

export interface ScriptedPlanner extends Planner {
  inputs: PlanInput[];
}

/** Builds a search_subsidies call on the "jgrants" server. */
export function searchCall(keyword: string, extra: Record<string, unknown> = {}): ToolCall {
  return {
    server: "jgrants",
    tool: "search_subsidies",
    args: { keyword, ...extra },
    reason: `「${keyword}」で検索`,
  };
}

export function createScriptedPlanner(
  steps: ScriptedStep[],
  options: { mode?: "gemini" | "offline"; model?: string | null; llmCallsPerStep?: number } = {},
): ScriptedPlanner {
  const inputs: PlanInput[] = [];
  return {
    mode: options.mode ?? "offline",
    model: options.model ?? null,
    inputs,
    async plan(input: PlanInput): Promise<PlanStep> {
      inputs.push(structuredClone(input));
      const scripted = steps[inputs.length - 1];
      const partial =
        typeof scripted === "function" ? scripted(input) : (scripted ?? { calls: [], done: true });
      return {
        calls: [],
        done: false,
        conditions: null,
        focus: { kind: "search" },
        llmCalls: options.llmCallsPerStep ?? 0,
        promptBytes: 0,
        ...partial,
      };
    },
  };
}
