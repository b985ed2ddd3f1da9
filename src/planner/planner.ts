/**
 * The Planner seam: one planning step. The loop, its limits and its stop rules live in the agent
 * (src/agent), not here. Implementations: gemini-planner.ts (Gemini) and rule-planner.ts (offline).
 */
import type { HistoryTurn, SearchConditions, ToolCall, ToolInfo } from "../types.ts";

/** A compact view of one executed call, as planners see it: never raw results, HTML or base64. */
export interface CallSummary {
  call: ToolCall;
  isError: boolean;
  /** e.g. "12件: a0W… 東京都IT導入補助金, …" or the error text. At most a few hundred characters. */
  summary: string;
  /** For search calls: total hits. */
  hitCount?: number;
  /** Ids of the hits or of the fetched record, in order. */
  ids?: string[];
}

export interface RoundSummary {
  round: number;
  calls: CallSummary[];
}

export interface PlanInput {
  question: string;
  /** Earlier turns of this thread, oldest first. */
  history: HistoryTurn[];
  /** Tools the host offers now. */
  tools: ToolInfo[];
  /** Rounds already run in this turn (empty on the first call). */
  rounds: RoundSummary[];
  /** The clock of the data ("now" for deadlines), e.g. the snapshot date in offline demos. */
  now: Date;
  /** When the turn began (epoch ms): an LLM planner measures the turn's time budget from it. */
  startedAt?: number;
}

/** What a follow-up refers to, so the agent can show the right records. */
export type PlanFocus =
  /** A search; `exclude` lists ids already shown, for "他には？". */
  | { kind: "search"; exclude?: string[] }
  /** The user asked about specific subsidies (e.g. "2番目の詳細は？", an id, "それの補助率は？"). */
  | { kind: "detail"; ids: string[] }
  /** The user asked to re-sort the previous results ("締切が近い順にして"). */
  | {
      kind: "resort";
      sort: NonNullable<SearchConditions["sort"]>;
      order: NonNullable<SearchConditions["order"]>;
    };

export interface PlanStep {
  /** Calls to run now, in parallel; each carries a reason. Empty with done=true means "answer now". */
  calls: ToolCall[];
  done: boolean;
  /** The search conditions this turn uses (recorded in history for "大阪府なら？"). */
  conditions: SearchConditions | null;
  focus: PlanFocus;
  /** Counters of this step. */
  llmCalls: number;
  promptBytes: number;
  /** Set when the planner had to give up on its LLM (the agent then falls back to the offline planner). */
  degraded?: string;
}

export interface Planner {
  /** "gemini" or "offline". */
  readonly mode: "gemini" | "offline";
  /** Model name, or null for rules. */
  readonly model: string | null;
  /** Plans one step. Throws only for programming errors; an LLM outage is reported through `degraded`. */
  plan(input: PlanInput, signal?: AbortSignal): Promise<PlanStep>;
}
