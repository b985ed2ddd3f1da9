/**
 * The facts block of one subsidy and the small phrases around it. Shared by the template and the Gemini
 * answerers, so amounts, rates, deadlines and links always come from the data.
 */
import type { DataSource, SearchConditions, Subsidy } from "../types.ts";
import { inertLinks } from "./inert-links.ts";

/** "あと18日" / "本日締切" / "受付終了" / "受付開始前", or null when the deadline is unknown. */
export function deadlineNote(s: Subsidy): string | null {
  if (s.status === "受付終了") return "受付終了";
  if (s.status === "受付前") return "受付開始前";
  if (s.daysLeft === null) return null;
  return s.daysLeft === 0 ? "本日締切" : `あと${s.daysLeft}日`;
}

/** The deadline as shown: "2026/12/17(木) 23:59（あと18日）". */
export function deadlineText(s: Subsidy): string {
  if (!s.end) return "公募要領を確認";
  const note = deadlineNote(s);
  return note ? `${s.end.jst}（${note}）` : s.end.jst;
}

/** The target area, short: "全国" when nationwide (some records list 全国 plus every prefecture), else ≤3 names. */
export function areaText(area: string | null): string {
  if (!area) return "公募要領を確認";
  const parts = area.split(/\s*\/\s*/).filter(Boolean);
  if (parts.includes("全国")) return "全国";
  return parts.length > 3 ? `${parts.slice(0, 3).join("・")} ほか${parts.length - 3}地域` : parts.join("・");
}

/** The facts block: title, 上限額, 補助率, 締切, 受付状況, 対象地域, 従業員規模, link. index is 1-based (0 = no number). */
export function renderSubsidyFacts(subsidy: Subsidy, index: number): string {
  const s = subsidy;
  const lines = [
    `**${index > 0 ? `${index}. ` : ""}${s.title}**`,
    `- 上限額: ${s.maxAmountText}`,
    `- 補助率: ${s.rate ?? "公募要領を確認"}`,
    `- 締切: ${deadlineText(s)}`,
    `- 受付状況: ${s.status}${s.status === "受付前" && s.start ? `（${s.start.jst}開始）` : ""}`,
    `- 対象地域: ${areaText(s.area)}`,
    `- 従業員規模: ${s.employees ?? "公募要領を確認"}`,
  ].map((line) => inertLinks(line, [s.url]));
  // The portal link is the one link in the block; data text above it cannot add clickable ones.
  lines.push(`- [Jグランツで見る](${s.url})`);
  return lines.join("\n");
}

/** The full facts of one subsidy (a detail focus): the block plus industry, purpose, body and summary. */
export function renderSubsidyDetail(subsidy: Subsidy, index: number): string {
  const s = subsidy;
  const block = renderSubsidyFacts(s, index).split("\n");
  const link = block.pop() ?? "";
  const extra = [
    s.start ? `- 受付開始: ${s.start.jst}` : null,
    s.industry ? `- 対象業種: ${s.industry}` : null,
    s.purpose ? `- 利用目的: ${s.purpose}` : null,
    s.institution ? `- 実施機関: ${s.institution}` : null,
    s.summary ? `- 概要: ${s.summary}` : null,
  ]
    .filter((l): l is string => l !== null)
    .map((line) => inertLinks(line, [s.url]));
  return [...block, ...extra, link].join("\n");
}

/** "2026-08-22時点のデータ" for a snapshot, "Jグランツの最新データ" for live. */
export function dataDateText(source: DataSource | null): string | null {
  if (!source) return null;
  if (source.mode === "snapshot") return source.asOf ? `${source.asOf}時点のデータ` : "保存済みデータ";
  return source.asOf ? `Jグランツの最新データ（${source.asOf.slice(0, 10)}取得）` : "Jグランツの最新データ";
}

const SORT_LABELS: Record<string, string> = {
  acceptance_end_datetime: "締切が近い順",
  acceptance_start_datetime: "受付開始順",
  created_date: "新着順",
};

/** The conditions as a user reads them: "「IT導入・DX」東京都・20名以下・締切が近い順". */
export function conditionsText(c: SearchConditions | null): string {
  if (!c) return "";
  const words = c.keywords.length > 0 ? `「${c.keywords.join("・")}」` : "";
  // An employee filter lists every bucket a firm qualifies for; its first one says the size.
  const size = c.employees?.split(" / ")[0];
  const employees = size && !size.startsWith("従業員") ? `従業員${size}` : size;
  const filters = [c.city ?? c.area, employees, c.industry, c.purpose].filter(Boolean) as string[];
  const sortLabel = c.sort ? SORT_LABELS[c.sort] : undefined;
  if (sortLabel) filters.push(sortLabel);
  if (c.acceptance === "0") filters.push("受付終了を含む");
  return filters.length > 0 ? `${words}（${filters.join("・")}）` : words;
}

/** Attribution and the reminder to confirm on the official page. */
export const ATTRIBUTION =
  "出典: Jグランツ（デジタル庁）。申請前に必ず公式ページで最新の公募要領をご確認ください。";
