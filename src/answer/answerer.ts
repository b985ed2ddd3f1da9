/**
 * The Answerer seam: composes the final answer from compact facts. Amounts, rates, deadlines and links
 * always come from the Subsidy records, never from LLM prose. Implementations: template-answerer.ts
 * (deterministic Japanese) and gemini-answerer.ts (an LLM explanation around the same facts).
 */

import type { PlanFocus } from "../planner/planner.ts";
import type { DataSource, HistoryTurn, MatchQuality, SearchConditions, Subsidy } from "../types.ts";

/** At most this many ranked candidates are offered to an answerer to choose from. */
export const MAX_CANDIDATES = 10;

export interface AnswerInput {
  question: string;
  /** The subsidies to show, in order (already limited to what should be shown). */
  subsidies: Subsidy[];
  /**
   * The same subsidies with their details, while those are still being fetched. An answerer may start
   * its prose from `subsidies`, but renders the facts from these records once they arrive.
   */
  detailed?: Promise<Subsidy[]>;
  /** Total matches (may exceed subsidies.length: "他にN件"). */
  totalCount: number;
  conditions: SearchConditions | null;
  focus: PlanFocus;
  history: HistoryTurn[];
  /** Where the data came from (live, or a snapshot and its date). */
  source: DataSource | null;
  /** Notes to include briefly, e.g. that Gemini was unavailable or that the search was broadened. */
  notes: string[];
  now: Date;
  /** How well a search answer fits: "weak" = only the nearest ones are shown, "none" = nothing. */
  match?: MatchQuality;
  /** What the user could ask instead when nothing clearly fits. */
  suggestions?: string[];
  /** When the turn began (epoch ms): an LLM answerer measures the turn's time budget from it. */
  startedAt?: number;
  /**
   * A plain search (no order asked for) with a good fit: the ranked candidates, `subsidies` first, that
   * an LLM answerer may choose and order among by id. Ids not among them are ignored.
   */
  candidates?: Subsidy[];
  /** The chosen candidates with their details, in the order given (details fetched when missing). */
  detailsOf?: (ids: string[]) => Promise<Subsidy[]>;
}

export interface AnswerOutput {
  text: string;
  llmCalls: number;
  promptBytes: number;
  /** Set when an LLM answerer failed and the template was used instead. */
  degraded?: string;
  /** The note the fallback answer states (TEMPLATE_FALLBACK_NOTE unless said otherwise). */
  fallbackNote?: string;
  /** The subsidies the answer shows, when the answerer chose them among the candidates. */
  subsidies?: Subsidy[];
}

export interface Answerer {
  readonly mode: "gemini" | "offline";
  /** Composes the answer; may stream text deltas through onDelta. */
  compose(
    input: AnswerInput,
    options?: { onDelta?: (text: string) => void; signal?: AbortSignal },
  ): Promise<AnswerOutput>;
}

/** Said to the user when an LLM answerer failed and the template answered instead. */
export const TEMPLATE_FALLBACK_NOTE =
  "AI（Gemini）の説明文を作成できなかったため、定型の回答でお答えしています。";
