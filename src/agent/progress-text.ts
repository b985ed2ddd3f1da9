/** Japanese one-line renderings of progress events, shared by every adapter that shows progress. */
import type { ProgressEvent } from "../types.ts";

/** The initial status line, shown before any event arrives. */
export const STARTING_TEXT = "🔍 補助金を検索しています…";

/** One short line for a progress event, or null when the event is not worth showing on its own. */
export function progressText(event: ProgressEvent): string | null {
  switch (event.type) {
    case "searching": {
      const words = event.keywords.map((k) => `「${k}」`).join("");
      const filters = [event.filters.area, event.filters.industry, event.filters.employees].filter(Boolean);
      const where = filters.length > 0 ? `（${filters.join("・")}）` : "";
      return words ? `🔍${words}で検索中${where}` : STARTING_TEXT;
    }
    case "found":
      if (event.count === 0) return "🔎 該当がありませんでした。";
      return event.shown > 0 && event.shown < event.count
        ? `📋 ${event.count}件見つかりました。上位${event.shown}件の詳細を確認します…`
        : `📋 ${event.count}件見つかりました。`;
    case "retrying": {
      const words = event.keywords.map((k) => `「${k}」`).join("");
      return words ? `🔁 ${words}で探し直しています…` : "🔁 条件を広げて探し直しています…";
    }
    case "fetching-details": {
      // The count found rides along, so a surface that shows only the newest line still says it.
      const found = event.found ? `📋 ${event.found}件見つかりました。` : "📄 ";
      const step = event.done === undefined ? `${event.count}件の` : "";
      const of = event.done === undefined ? "…" : `（${event.done}/${event.count}）`;
      return `${found}${step}詳細を確認しています${of}`;
    }
    case "composing":
      return event.found
        ? `📋 ${event.found}件見つかりました。✍️ 回答をまとめています…`
        : "✍️ 回答をまとめています…";
    case "error":
      return `⚠️ ${event.message}`;
    default:
      return null;
  }
}
