/** Pure text formatting for the page: progress lines, tool rows, data dates (tested in Node). */

const FILTER_LABELS = /** @type {const} */ (["area", "industry", "employees", "purpose"]);

/**
 * The progress line for one ProgressEvent, or null when it is not shown as a line.
 * @param {any} event
 * @returns {string | null}
 */
export function progressText(event) {
  if (!event || typeof event !== "object") return null;
  // The server renders its own line (the same wording as Slack and the CLI); ours is the fallback.
  if (event.type !== "answer-delta" && typeof event.text === "string" && event.text) return event.text;
  switch (event.type) {
    case "searching": {
      const keywords = list(event.keywords);
      const filters = filterText(event.filters);
      const what = keywords ? `「${keywords}」で検索中` : "検索中";
      return `🔍${what}${filters ? `（${filters}）` : ""}…`;
    }
    case "found": {
      const count = num(event.count);
      const shown = num(event.shown);
      if (count === 0) return "📭 該当する補助金が見つかりませんでした…";
      const top = shown > 0 && shown < count ? `（上位${shown}件を表示）` : "";
      return `📋 ${count}件見つかりました${top}…`;
    }
    case "retrying": {
      const keywords = list(event.keywords);
      return `🔁 ${keywords ? `「${keywords}」で` : "条件を広げて"}探し直しています…`;
    }
    case "fetching-details":
      return `📄 ${num(event.count)}件の詳細を取得中…`;
    case "composing":
      return "✍️ 回答を作成中…";
    case "error":
      return `⚠️ ${typeof event.message === "string" ? event.message : "エラーが発生しました"}`;
    default:
      return null;
  }
}

/** @param {any} filters */
function filterText(filters) {
  if (!filters || typeof filters !== "object") return "";
  /** @type {string[]} */
  const parts = [];
  for (const key of FILTER_LABELS) {
    if (typeof filters[key] === "string" && filters[key]) parts.push(filters[key]);
  }
  if (filters.acceptance === "1") parts.push("受付中のみ");
  return parts.join("・");
}

/** @param {unknown} value */
function list(value) {
  return Array.isArray(value) ? value.filter((v) => typeof v === "string" && v).join("・") : "";
}

/** @param {unknown} value */
function num(value) {
  return typeof value === "number" && Number.isFinite(value) ? value : 0;
}

/** Compact one-line arguments of a tool call, e.g. `keyword: "IT導入", area: "東京都"`. @param {unknown} args */
export function argsText(args, max = 160) {
  if (!args || typeof args !== "object") return "";
  const text = Object.entries(args)
    .map(([key, value]) => `${key}: ${JSON.stringify(value)}`)
    .join(", ");
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** "123 ms" or "1.2 s". @param {unknown} ms */
export function durationText(ms) {
  if (typeof ms !== "number" || !Number.isFinite(ms)) return "";
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/** "あと18日" / "本日締切" / "" for a Subsidy's daysLeft. @param {unknown} daysLeft */
export function daysLeftText(daysLeft) {
  if (typeof daysLeft !== "number" || daysLeft < 0) return "";
  return daysLeft === 0 ? "本日締切" : `あと${daysLeft}日`;
}

/**
 * The one line the progress collapses into once the answer is in: "✓ 12件から5件を表示（0.4秒）".
 * @param {any} reply
 */
export function doneText(reply) {
  const ms = reply?._meta?.durationMs;
  const time =
    typeof ms !== "number" || !Number.isFinite(ms)
      ? ""
      : ms < 100
        ? "（0.1秒未満）"
        : `（${(ms / 1000).toFixed(1)}秒）`;
  const shown = Array.isArray(reply?.subsidies) ? reply.subsidies.length : 0;
  const total = typeof reply?.totalCount === "number" ? reply.totalCount : shown;
  if (reply?.kind && reply.kind !== "answer") return `✓ 完了${time}`;
  if (reply?.view === "details") return shown > 0 ? `✓ 詳細を表示${time}` : `✓ 完了${time}`;
  if (shown === 0) return `✓ 該当なし${time}`;
  if (reply?._meta?.match === "weak") return `✓ 近い補助金を${shown}件表示${time}`;
  return total > shown ? `✓ ${total}件から${shown}件を表示${time}` : `✓ ${shown}件を表示${time}`;
}

/**
 * The answer's prose for a page that shows the subsidies as cards and the notes in a footer: paragraphs
 * that repeat a listed subsidy's facts, the attribution, or a footer note are left out.
 * @param {string} answer
 * @param {any[]} subsidies
 * @param {string[]} notes
 * @returns {string}
 */
export function proseOf(answer, subsidies, notes) {
  if (!Array.isArray(subsidies) || subsidies.length === 0) return answer;
  const urls = subsidies.map((s) => (typeof s?.url === "string" ? s.url : "")).filter(Boolean);
  const isFacts = (/** @type {string} */ p) =>
    urls.some((u) => p.includes(u)) || /^(\*\*)?\d+\.\s/.test(p) || /^- (上限額|補助率|締切)/m.test(p);
  const isFooter = (/** @type {string} */ p) =>
    p.startsWith("出典") ||
    p.split("\n").every((line) => line.startsWith("※") && notes.some((n) => line.includes(n.slice(0, 12))));
  const kept = answer
    .split(/\n{2,}/)
    .map((p) => p.trim())
    .filter((p) => p && !isFacts(p) && !isFooter(p));
  return kept.length > 0 ? kept.join("\n\n") : (answer.split(/\n{2,}/)[0] ?? "");
}
