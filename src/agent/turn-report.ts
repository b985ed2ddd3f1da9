/** Small pure helpers that report on a turn: compact tool results, the data clock, and user notes. */
import type { CallSummary } from "../planner/planner.ts";
import type { CompactToolResult, DataSource, ToolResult } from "../types.ts";
import type { LoopOutput } from "./run-turn.ts";

/** A tool result as replies carry it: the planner's compact summary, never raw HTML or base64. */
export function compactResult(result: ToolResult, summary: CallSummary | undefined): CompactToolResult {
  return {
    server: result.call.server,
    tool: result.call.tool,
    args: result.call.args,
    isError: result.isError,
    summary: summary?.summary ?? "",
    durationMs: result.durationMs,
  };
}

/** Short notes for the user about how this turn was answered. */
export function notesFor(loop: LoopOutput, source: DataSource | null): string[] {
  const notes: string[] = [];
  if (loop.degraded) notes.push("AI（Gemini）が応答しなかったため、簡易検索でお答えしています。");
  if (source?.mode === "snapshot" && source.asOf) {
    notes.push(
      `${source.asOf}時点のデータ（オフラインの収録データ）です。最新の情報はJグランツでご確認ください。`,
    );
  }
  const fallback = loop.results
    .map(
      (r) =>
        (r.data as { data_source?: { fallback_reason?: string } } | undefined)?.data_source?.fallback_reason,
    )
    .find(Boolean);
  if (fallback) notes.push("Jグランツに接続できなかったため、収録済みのデータで検索しました。");
  const first = loop.broadenedFrom;
  if (first) {
    const words = first.keywords.map((k) => `「${k}」`).join("");
    const where = first.area ? `（${first.area}）` : "";
    notes.push(`${words}${where}では見つからなかったため、関連する言葉や条件を広げて検索しました。`);
  }
  if (loop.limitHit === "toolCalls") notes.push("検索回数の上限に達したため、ここまでの結果でお答えします。");
  if (loop.limitHit === "rounds")
    notes.push("何度か条件を変えて探しましたが、ここまでの結果でお答えします。");
  const failed = loop.results.filter((r) => r.isError);
  if (failed.length > 0 && failed.length === loop.results.length) {
    notes.push("補助金データの取得に失敗しました。しばらくしてからもう一度お試しください。");
  }
  return notes;
}
