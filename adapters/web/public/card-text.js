/**
 * The labels a card shows beside its facts, from the structured record (mirrors src/subsidies/present.ts,
 * so the web page says what Slack, LINE and the CLI say): the data date beside the status, the city,
 * matched words, grouped rounds, and the rows of a details card. Pure; tested in Node.
 */

/**
 * "2026-08-22時点" when the reply's data is a snapshot (its statuses are as of that day), else "".
 * @param {any} source
 */
export function dataDateLabel(source) {
  if (source?.mode !== "snapshot") return "";
  return typeof source.asOf === "string" ? `${source.asOf.slice(0, 10)}時点` : "収録データ時点";
}

/**
 * The status as a card shows it: "2026-08-22時点: 受付中" when `dated`, else "受付中".
 * @param {any} subsidy @param {boolean} dated
 */
export function statusText(subsidy, dated) {
  const status = String(subsidy?.status ?? "不明");
  const start = subsidy?.status === "受付前" && subsidy?.start?.jst ? `（${subsidy.start.jst}開始）` : "";
  const date = dated ? dataDateLabel(subsidy?.source) : "";
  return date ? `${date}: ${status}${start}` : `${status}${start}`;
}

/** The area with a city programme's city: "福岡県宗像市"; nationwide lists read "全国". @param {any} subsidy */
export function areaText(subsidy) {
  const area = typeof subsidy?.area === "string" ? subsidy.area : "";
  const city = typeof subsidy?.city === "string" ? subsidy.city : "";
  if (!area) return city || "—";
  const parts = area.split(/\s*\/\s*/).filter(Boolean);
  if (parts.includes("全国")) return "全国";
  if (city && parts.length === 1) return city.startsWith(parts[0]) ? city : `${parts[0]}${city}`;
  return parts.length > 3 ? `${parts.slice(0, 3).join("・")} ほか${parts.length - 3}地域` : parts.join("・");
}

/** 「電子カルテ」に一致・ほか第19次, or "". @param {any} subsidy */
export function matchText(subsidy) {
  const terms = Array.isArray(subsidy?.matchedTerms)
    ? subsidy.matchedTerms.filter((t) => typeof t === "string" && t.trim()).slice(0, 4)
    : [];
  const rounds = Array.isArray(subsidy?.otherRounds) ? subsidy.otherRounds : [];
  const labels = rounds.map((r) => String(r?.label ?? "").trim()).filter(Boolean);
  const parts = [];
  if (terms.length > 0) parts.push(`${terms.map((t) => `「${t}」`).join("")}に一致`);
  if (rounds.length > 0)
    parts.push(
      labels.length === rounds.length && labels.join("・").length <= 24
        ? `ほか${labels.join("・")}`
        : `ほか${rounds.length}回`,
    );
  return parts.join("・");
}

/**
 * A " / "-joined list as read aloud: up to five names, else the first four and "ほかN業種".
 * @param {unknown} value @param {string} unit
 */
export function shortList(value, unit) {
  if (typeof value !== "string" || !value) return "";
  const parts = value.split(/\s*\/\s*/).filter(Boolean);
  return parts.length > 5 ? `${parts.slice(0, 4).join(" / ")} ほか${parts.length - 4}${unit}` : value;
}

/**
 * The rows only a details card has, in reading order; rows without data are left out.
 * @param {any} subsidy
 * @returns {Array<{ key: string, label: string, value: string }>}
 */
export function detailRows(subsidy) {
  const multiple =
    subsidy?.multipleApplications === true
      ? "可（複数回の申請ができます）"
      : subsidy?.multipleApplications === false
        ? "不可（1事業者1回）"
        : "";
  const rows = [
    ["start", "受付開始", subsidy?.start?.jst],
    ["project-end", "事業終了期限", subsidy?.projectEnd?.jst],
    ["employees", "従業員規模", subsidy?.employees],
    ["industry", "対象業種", shortList(subsidy?.industry, "業種")],
    ["purpose", "利用目的", subsidy?.purpose],
    ["institution", "実施機関", subsidy?.institution],
    ["multiple", "複数回申請", multiple],
  ];
  return rows
    .filter(([, , value]) => typeof value === "string" && value.trim() !== "")
    .map(([key, label, value]) => ({ key: String(key), label: String(label), value: String(value) }));
}

/**
 * The reply's notes without the one the first card's status already says (the snapshot's date).
 * @param {any} reply @returns {string[]}
 */
export function notesBesideCards(reply) {
  const notes = Array.isArray(reply?.notes) ? reply.notes.filter((n) => typeof n === "string" && n) : [];
  const subsidies = Array.isArray(reply?.subsidies) ? reply.subsidies : [];
  const date = dataDateLabel(subsidies[0]?.source);
  return subsidies.length > 0 && date ? notes.filter((n) => !n.includes(`${date}のデータ`)) : notes;
}
