/**
 * The labels every surface shows beside a subsidy's facts (Slack, LINE, the CLI text; the web page
 * mirrors them in cards.js): the data date beside the status, the city, matched words, grouped rounds,
 * and the rows of a details answer. One wording, so the surfaces agree.
 */
import type { DataSource, Reply, Subsidy } from "../types.ts";

/** "2026-08-22時点" when the data is a snapshot (its statuses are as of that day); null for live data. */
export function dataDateLabel(source: DataSource | null | undefined): string | null {
  if (source?.mode !== "snapshot") return null;
  return source.asOf ? `${source.asOf.slice(0, 10)}時点` : "収録データ時点";
}

/** The status as shown: "2026-08-22時点: 受付中" when `dated`, else "受付中" (plus the start of 受付前). */
export function statusLabel(s: Subsidy, dated = false): string {
  const base = `${s.status}${s.status === "受付前" && s.start ? `（${s.start.jst}開始）` : ""}`;
  const date = dated ? dataDateLabel(s.source) : null;
  return date ? `${date}: ${base}` : base;
}

/**
 * True for a note that only restates the data's date (the snapshot note): a card already shows that date
 * beside its status, so the note would say it a second time.
 */
export function isDataDateNote(note: string, source: DataSource | null | undefined): boolean {
  const date = dataDateLabel(source);
  return date !== null && note.includes(`${date}のデータ`);
}

/** The reply's notes without the one the first card's status already says. */
export function notesBesideCards(reply: Pick<Reply, "notes" | "subsidies">): string[] {
  const source = reply.subsidies[0]?.source;
  return reply.notes.filter(
    (n) => n.trim() !== "" && !(reply.subsidies.length > 0 && isDataDateNote(n, source)),
  );
}

/** The area, with the city of a city's programme: "福岡県宗像市"; nationwide lists read "全国". */
export function areaLabel(s: Subsidy, fallback = "公募要領を確認"): string {
  if (!s.area) return s.city ?? fallback;
  const parts = s.area.split(/\s*\/\s*/).filter(Boolean);
  if (parts.includes("全国")) return "全国";
  if (s.city && parts.length === 1) return s.city.startsWith(parts[0]!) ? s.city : `${parts[0]}${s.city}`;
  return parts.length > 3 ? `${parts.slice(0, 3).join("・")} ほか${parts.length - 3}地域` : parts.join("・");
}

/** 「電子カルテ」「DX」に一致, or null. */
export function matchedLabel(s: Subsidy): string | null {
  const terms = (s.matchedTerms ?? []).filter((t) => t.trim() !== "").slice(0, 4);
  return terms.length > 0 ? `${terms.map((t) => `「${t}」`).join("")}に一致` : null;
}

/** The other rounds grouped into this card: "ほか第19次・第20次", or "ほか2回" when labels are long. */
export function otherRoundsLabel(s: Subsidy): string | null {
  const rounds = s.otherRounds ?? [];
  if (rounds.length === 0) return null;
  const labels = rounds.map((r) => r.label.trim()).filter(Boolean);
  if (labels.length === rounds.length && labels.join("・").length <= 24) return `ほか${labels.join("・")}`;
  return `ほか${rounds.length}回`;
}

/** 可 / 不可, or null when unknown. */
export function multipleLabel(s: Subsidy): string | null {
  if (s.multipleApplications === true) return "可（複数回の申請ができます）";
  if (s.multipleApplications === false) return "不可（1事業者1回）";
  return null;
}

/**
 * A " / "-joined list as read aloud: up to five names, else the first four and "ほかN業種" (some records
 * list all 19 industries, which says less than the count does).
 */
export function shortList(value: string | null | undefined, unit: string): string | null {
  if (!value) return null;
  const parts = value.split(/\s*\/\s*/).filter(Boolean);
  return parts.length > 5 ? `${parts.slice(0, 4).join(" / ")} ほか${parts.length - 4}${unit}` : value;
}

/** One row of a details answer: a label and its value. */
export interface DetailRow {
  label: string;
  value: string;
}

/**
 * The rows of a details answer beyond the list card's facts, in reading order; rows without data are left
 * out, so nothing reads "不明" six times.
 */
export function detailRows(s: Subsidy): DetailRow[] {
  const rows: Array<[string, string | null | undefined]> = [
    ["受付開始", s.start?.jst],
    ["事業終了期限", s.projectEnd?.jst],
    ["従業員規模", s.employees],
    ["対象業種", shortList(s.industry, "業種")],
    ["利用目的", s.purpose],
    ["実施機関", s.institution],
    ["複数回申請", multipleLabel(s)],
  ];
  return rows
    .filter((r): r is [string, string] => typeof r[1] === "string" && r[1].trim() !== "")
    .map(([label, value]) => ({ label, value }));
}

/** The attachments as "公募要領: R8公募要領.pdf" lines (at most `max`, then "ほかN件"). */
export function attachmentLines(s: Subsidy, max = 6): string[] {
  const list = s.attachments ?? [];
  const lines = list.slice(0, max).map((a) => `${a.kind}: ${a.name}`);
  if (list.length > max) lines.push(`ほか${list.length - max}件`);
  return lines;
}
