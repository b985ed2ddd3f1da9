/**
 * Follow-ups in a thread, resolved against the last turn: "2番目の詳細は？", "それの補助率は？",
 * "大阪府なら？", "締切が近い順にして", and an id quoted by the user.
 */
import type { HistoryTurn, SearchConditions } from "../types.ts";

export type FollowUp =
  | { kind: "detail"; ids: string[]; why: string }
  | {
      kind: "resort";
      sort: NonNullable<SearchConditions["sort"]>;
      order: NonNullable<SearchConditions["order"]>;
    }
  /** The same search as last time with some conditions replaced (e.g. another area). */
  | { kind: "refine"; base: SearchConditions; exclude?: string[] };

/** A jGrants id as users paste it (18 characters, "a0W…"). */
const ID_RE = /\ba0W[A-Za-z0-9]{15}\b/g;

const KANJI_NUM: Record<string, number> = {
  一: 1,
  二: 2,
  三: 3,
  四: 4,
  五: 5,
  六: 6,
  七: 7,
  八: 8,
  九: 9,
  十: 10,
};
const KANA_NUM: Record<string, number> = { ひとつ: 1, ふたつ: 2, みっつ: 3, よっつ: 4, いつつ: 5 };

/** 1-based positions named in the text: "2番目", "3つ目", "二件目", "最初", "最後". */
export function ordinalsIn(text: string, count: number): number[] {
  const out: number[] = [];
  const re =
    /(\d{1,2}|[一二三四五六七八九十]|ひとつ|ふたつ|みっつ|よっつ|いつつ)\s*(?:番目|つ目|つめ|個目|件目|番|位)/g;
  for (const m of text.matchAll(re)) {
    const token = m[1] ?? "";
    // 「一番」 is "the most" (一番安い, 一番おすすめ), not "number one".
    if (token === "一" && m[0].endsWith("番")) continue;
    const n = /^\d+$/.test(token) ? Number(token) : (KANJI_NUM[token] ?? KANA_NUM[token] ?? 0);
    if (n > 0) out.push(n);
  }
  // 「トップ3」「上位3件」 are the first three.
  const top = /(?:トップ|上位)\s*([0-9]{1,2})/.exec(text.normalize("NFKC"));
  if (top?.[1]) for (let n = 1; n <= Math.min(Number(top[1]), 10); n++) out.push(n);
  // 「最初に申請すべき」 is about order, not the list.
  if (/最初の|一番上|トップ(?![0-9０-９])|先頭/.test(text)) out.push(1);
  if (/最後|一番下/.test(text) && count > 0) out.push(count);
  return [...new Set(out)].filter((n) => n <= count);
}

const ANAPHORA = /(それ|その|これ|この|あれ|あの|さっき|先ほど|今の|上記)(の)?(補助金|助成金|制度|件|もの)?/;
const RESORT = /(順|並べ替え|並び替え|ソート)/;
const SOON_ORDER = /(締め?切り?|〆切|期限|締切日)(が|の)?(近い|早い)?順|締め?切り?(が)?近い順/;
const NEWEST_ORDER = /新しい順|新着順|最新順/;
/** "他には？", "もっと見せて": the same search again. */
const MORE = /^(他|ほか|もっと|さらに|別の|続き|つづき|次の)/;

/** The last turn with subsidies or conditions, newest first. */
function lastUseful(history: HistoryTurn[]): HistoryTurn | null {
  for (let i = history.length - 1; i >= 0; i--) {
    const h = history[i];
    // Stored turns may come from an older version: read them defensively.
    if (h && ((Array.isArray(h.subsidies) && h.subsidies.length > 0) || h.conditions)) {
      return { ...h, subsidies: Array.isArray(h.subsidies) ? h.subsidies : [] };
    }
  }
  return null;
}

/** The subsidies of the newest turn that showed at least `n`, or null. */
function listWith(history: HistoryTurn[], n: number): Array<{ id: string; title: string }> | null {
  for (let i = history.length - 1; i >= 0; i--) {
    const subsidies = history[i]?.subsidies;
    if (Array.isArray(subsidies) && subsidies.length >= n) return subsidies;
  }
  return null;
}

/**
 * Resolves a follow-up, or null when the question is a new search. `hasNewFilters` says whether it names
 * an area, a size, an industry or an order. `hasOwnTopic` says whether the
 * question names its own search words (then "大阪府なら？"-style reuse does not apply).
 */
export function resolveFollowUp(
  question: string,
  history: HistoryTurn[],
  hasOwnTopic: boolean,
  hasNewFilters = false,
): FollowUp | null {
  const ids = [...new Set(question.match(ID_RE) ?? [])];
  if (ids.length > 0) return { kind: "detail", ids, why: "ID指定" };
  const last = lastUseful(history);
  const shown = last?.subsidies ?? [];
  const wanted = ordinalsIn(question, Number.MAX_SAFE_INTEGER).filter((n) => n !== Number.MAX_SAFE_INTEGER);
  // "2番目", "3つ目" point into a list even in a sentence with other words; "最初", "トップ" only alone.
  const explicit = /(\d|[一二三四五六七八九十])\s*(番目|つ目|つめ|個目|件目)|(トップ|上位)\s*\d/.test(
    question,
  );
  const referential = explicit || !hasOwnTopic;
  if (wanted.length > 0 && referential) {
    // "2番目" means the newest list long enough to have a 2nd entry: after "それの補助率は？" (one subsidy
    // shown) it still points into the list before it.
    // A one-subsidy details answer is not a list: "1番目" after "2番目の詳細" still means the list before it.
    const list = listWith(history, Math.max(2, ...wanted)) ?? listWith(history, Math.max(...wanted)) ?? shown;
    const positions = ordinalsIn(question, list.length);
    const picked = positions.map((p) => list[p - 1]?.id).filter((x): x is string => Boolean(x));
    // With nothing (or too little) shown before, it refers to nothing: say so rather than search.
    return picked.length > 0
      ? { kind: "detail", ids: picked, why: `${positions.join("・")}番目` }
      : { kind: "detail", ids: [], why: "参照先なし" };
  }
  if (!last) return null;
  const positions = referential ? ordinalsIn(question, shown.length) : [];
  if (positions.length > 0) {
    const picked = positions.map((p) => shown[p - 1]?.id).filter((x): x is string => Boolean(x));
    return { kind: "detail", ids: picked, why: `${positions.join("・")}番目` };
  }
  if (last.conditions && RESORT.test(question) && !hasOwnTopic) {
    if (SOON_ORDER.test(question)) return { kind: "resort", sort: "acceptance_end_datetime", order: "ASC" };
    if (NEWEST_ORDER.test(question)) return { kind: "resort", sort: "created_date", order: "DESC" };
    if (/受付開始|開始日/.test(question))
      return { kind: "resort", sort: "acceptance_start_datetime", order: "ASC" };
  }
  if (!hasOwnTopic && !hasNewFilters && ANAPHORA.test(question) && shown[0]) {
    return { kind: "detail", ids: [shown[0].id], why: "直前に話題にした" };
  }
  // "大阪府なら？", "従業員50人だと？": no topic of its own, but new conditions for the last search.
  if (last.conditions && !hasOwnTopic && (hasNewFilters || MORE.test(question.trim()))) {
    // "他には？": the same search, without what was already shown.
    const exclude = MORE.test(question.trim()) && !hasNewFilters ? shown.map((x) => x.id) : undefined;
    return exclude
      ? { kind: "refine", base: last.conditions, exclude }
      : { kind: "refine", base: last.conditions };
  }
  return null;
}
