/**
 * The compact view of one executed call that planners (and the Gemini prompt) see: counts, ids, titles,
 * conditions. Never raw results, HTML or base64; a few hundred characters at most.
 */
import type { CallSummary } from "../planner/planner.ts";
import type { ToolCall, ToolResult } from "../types.ts";
import { isRecord } from "./normalise.ts";
import { readDetailResult, readSearchResult } from "./results.ts";
import { clip, collapseWhitespace, htmlToText } from "./text.ts";

/** Upper bound of CallSummary.summary, in characters. */
export const SUMMARY_MAX_CHARS = 400;
const IDS_MAX = 20;
const TITLES_SHOWN = 5;

/** Text safe to show a planner: no tags, no long base64-ish runs, no data URLs, bounded. */
export function sanitiseForPlanner(text: string, max = 200): string {
  const plain = htmlToText(text)
    .replace(/data:[\w/+.-]+;base64,[A-Za-z0-9+/=]+/g, "[data]")
    .replace(/[A-Za-z0-9+/=]{80,}/g, "[…]");
  return clip(collapseWhitespace(plain), max);
}

/** The error a jGrants server reports as an ordinary result: `{"error": "…"}`. */
function inlineError(data: unknown): string | null {
  return isRecord(data) && typeof data.error === "string" ? data.error : null;
}

/** Summarises one call for planners. */
export function summariseCall(call: ToolCall, result: ToolResult, now: Date): CallSummary {
  const error = result.isError ? (result.error ?? result.text) : inlineError(result.data);
  if (result.isError || error !== null) {
    return { call, isError: true, summary: `エラー: ${sanitiseForPlanner(error ?? "unknown error", 300)}` };
  }
  const search = /search|find_subsidies/.test(call.tool) ? readSearchResult(result.data, now) : null;
  if (search) {
    const shown = search.subsidies.slice(0, TITLES_SHOWN).map((s) => {
      const status = s.status === "受付中" ? "" : `${s.status}、`;
      // Titles are data too: no angle brackets that could close the prompt's data block.
      return `${s.id} ${clip(s.title.replace(/[<>]/g, " "), 32)}（${status}締切${s.end?.jst.slice(0, 10) ?? "不明"}）`;
    });
    const more = search.totalCount > TITLES_SHOWN ? ` ほか${search.totalCount - TITLES_SHOWN}件` : "";
    const summary = search.totalCount === 0 ? "0件" : `${search.totalCount}件: ${shown.join(", ")}${more}`;
    return {
      call,
      isError: false,
      summary: clip(summary, SUMMARY_MAX_CHARS),
      hitCount: search.totalCount,
      ids: search.subsidies.slice(0, IDS_MAX).map((s) => s.id),
    };
  }
  const detail = call.tool.includes("detail") ? readDetailResult(result.data, now) : null;
  if (detail) {
    const facts = [
      `上限${detail.maxAmountText}`,
      detail.rate ? `補助率${clip(detail.rate, 40)}` : null,
      `${detail.status}`,
      detail.end ? `締切${detail.end.jst}` : null,
      detail.area ? `地域${clip(detail.area, 30)}` : null,
    ].filter(Boolean);
    return {
      call,
      isError: false,
      summary: clip(
        `詳細 ${detail.id} ${clip(detail.title.replace(/[<>]/g, " "), 60)}: ${facts.join("、")}`,
        SUMMARY_MAX_CHARS,
      ),
      ids: [detail.id],
    };
  }
  const text = result.text || (result.data === undefined ? "" : JSON.stringify(result.data));
  return { call, isError: false, summary: sanitiseForPlanner(text, 300) || "(結果なし)" };
}
