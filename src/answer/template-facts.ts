/**
 * The facts block of one subsidy and the small phrases around it. Shared by the template and the Gemini
 * answerers, so amounts, rates, deadlines and links always come from the data.
 */
import {
  areaLabel,
  attachmentLines,
  detailRows,
  matchedLabel,
  otherRoundsLabel,
  statusLabel,
} from "../subsidies/present.ts";
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
  return areaLabel({ area } as Subsidy);
}

/** The small line under the facts: matched words and grouped rounds, or null. */
function matchLine(s: Subsidy): string | null {
  const parts = [matchedLabel(s), otherRoundsLabel(s)].filter(Boolean);
  return parts.length > 0 ? `- ${parts.join("・")}` : null;
}

/** The title and the facts every card starts with. */
function headLines(s: Subsidy, index: number, dated: boolean): string[] {
  return [
    `**${index > 0 ? `${index}. ` : ""}${s.title}**`,
    `- 上限額: ${s.maxAmountText}`,
    `- 補助率: ${s.rate ?? "公募要領を確認"}`,
    `- 締切: ${deadlineText(s)}`,
    `- 受付状況: ${statusLabel(s, dated)}`,
    `- 対象地域: ${areaLabel(s)}`,
  ].map((line) => inertLinks(line, [s.url]));
}

/**
 * The facts block: title, 上限額, 補助率, 締切, 受付状況, 対象地域, 従業員規模, link. index is 1-based
 * (0 = no number); `dated` puts the data's date beside the status (the first card of a snapshot answer).
 */
export function renderSubsidyFacts(subsidy: Subsidy, index: number, dated = false): string {
  const s = subsidy;
  // The portal link is the one link in a block; data text above it cannot add clickable ones.
  const lines = [
    ...headLines(s, index, dated),
    inertLinks(`- 従業員規模: ${s.employees ?? "公募要領を確認"}`, [s.url]),
    matchLine(s),
    `- [Jグランツで見る](${s.url})`,
  ];
  return lines.filter((l): l is string => l !== null).join("\n");
}

/**
 * The full facts of one subsidy (a details answer): the card's facts without its number, then 受付開始,
 * 事業終了期限, 対象業種, 利用目的, 実施機関, 複数回申請, the attachments by name, the 概要 and the link.
 */
export function renderSubsidyDetail(subsidy: Subsidy, index: number, dated = false): string {
  const s = subsidy;
  const lines = [
    ...headLines(s, index, dated),
    ...detailRows(s).map((r) => inertLinks(`- ${r.label}: ${r.value}`, [s.url])),
  ];
  const files = attachmentLines(s);
  if (files.length > 0) lines.push("- 添付資料:", ...files.map((f) => inertLinks(`  - ${f}`, [s.url])));
  if (s.summary) lines.push(inertLinks(`- 概要: ${s.summary}`, [s.url]));
  lines.push(`- [Jグランツで見る](${s.url})`);
  return lines.join("\n");
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
