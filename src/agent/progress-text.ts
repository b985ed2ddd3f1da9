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
        ? `📋 ${event.count}件見つかりました。上位${event.shown}件の詳細を確認中…`
        : `📋 ${event.count}件見つかりました。詳細を確認中…`;
    case "retrying": {
      const words = event.keywords.map((k) => `「${k}」`).join("");
      return words ? `🔁 ${words}で探し直しています…` : "🔁 条件を広げて探し直しています…";
    }
    case "fetching-details":
      return `📄 ${event.count}件の詳細を確認しています…`;
    case "composing":
      return "✍️ 回答をまとめています…";
    case "error":
      return `⚠️ ${event.message}`;
    default:
      return null;
  }
}
