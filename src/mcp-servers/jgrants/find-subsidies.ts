/**
 * find_subsidies: ranked search over the catalog (our additive tool; the official server has none).
 * Takes the user's need in plain words plus plain filters, applies the 全国 rule itself, and returns ranked
 * list items with score, matched words, a snippet and the programme's other rounds, and how well the best
 * hits fit (`match`: good | weak | none).
 */
import { areaFilter } from "../../catalog/areas.ts";
import { type Catalog, matchedWords, shownHits } from "../../catalog/catalog.ts";
import type { CatalogFilters } from "../../catalog/filters.ts";
import { snippetOf } from "../../catalog/snippet.ts";
import { asWritten } from "../../catalog/text.ts";
import { portalUrl, toListItem } from "./records.ts";
import { jstDate } from "./search-result.ts";
import type { DataSourceInfo, ToolPayload } from "./types.ts";

export const FIND_DESCRIPTION = `補助金を自然文の質問でランキング検索します（本サーバーの追加ツール）。
- query: ユーザーのやりたいこと・困りごとをそのまま（例: "店の看板をLEDに替えて電気代を下げたい"）。キーワード1〜2語ではなく内容全体を渡します。
- area（都道府県, 例 "東京都"）・city（市区町村, 例 "福岡市"）・employees（従業員数, 整数）・industry（業種）で絞り込みます。都道府県を指定すると全国対象の補助金も含まれます。
- 既定は open_on（YYYY-MM-DD、既定は今日）に受付中のもの。include_closed=true で受付終了・受付前も含めます。
- 結果: match（good=合うものあり / weak=近いものだけ / none=なし）、subsidies（score, matched_terms, snippet, rounds=同じ制度の他の回 を含む一覧項目）、data_source。出典（Jグランツ）を明記してください。`;

export const FIND_SCHEMA_PROPERTIES = {
  query: {
    type: "string",
    minLength: 1,
    maxLength: 4000,
    description: "ユーザーの困りごと・やりたいことを質問の言葉のまま（キーワード1〜2語にしない）",
  },
  area: {
    anyOf: [{ type: "string" }, { type: "null" }],
    default: null,
    description: "都道府県（例: 東京都）を指定すると、全国対象の補助金も含めて探します",
  },
  city: {
    anyOf: [{ type: "string" }, { type: "null" }],
    default: null,
    description: "市区町村（例: 福岡市）",
  },
  employees: {
    anyOf: [{ type: "integer", minimum: 0, maximum: 1_000_000 }, { type: "null" }],
    default: null,
    description: "従業員数（人）",
  },
  industry: {
    anyOf: [{ type: "string" }, { type: "null" }],
    default: null,
    description: "業種（jGrantsの業種名）",
  },
  open_on: {
    anyOf: [{ type: "string", pattern: "^\\d{4}-\\d{2}-\\d{2}$" }, { type: "null" }],
    default: null,
    description: "この日（YYYY-MM-DD, JST）に受付中のもの。既定は今日",
  },
  closes_by: {
    anyOf: [{ type: "string", pattern: "^\\d{4}-\\d{2}-\\d{2}$" }, { type: "null" }],
    default: null,
    description: "締切がこの日（YYYY-MM-DD, JST）までのものに限る",
  },
  include_closed: { type: "boolean", default: false, description: "受付終了・受付前も含める" },
  limit: { type: "integer", minimum: 1, maximum: 50, default: 10, description: "返す件数（制度単位）" },
  all_ranked: {
    type: "boolean",
    default: false,
    description: "true なら合わないものも含めてスコア順に返す（評価用）。既定は合うものだけ",
  },
} as const;

const isDay = (v: unknown): v is string => typeof v === "string" && /^\d{4}-\d{2}-\d{2}$/.test(v);
const text = (v: unknown): string | undefined => (typeof v === "string" && v.trim() ? v.trim() : undefined);

/** Validates the arguments (official-style error strings) into catalog filters. */
export function readFindArgs(
  args: Record<string, unknown>,
  now: number,
): { error: string } | { query: string; filters: CatalogFilters; limit: number; all: boolean } {
  const query = text(args.query);
  if (!query) return { error: "query は1文字以上の文字列で指定してください" };
  if (query.length > 4000) return { error: "query は4000文字以内で指定してください" };
  for (const key of ["open_on", "closes_by"] as const) {
    if (args[key] != null && !isDay(args[key]))
      return { error: `${key} は YYYY-MM-DD 形式で指定してください` };
  }
  const employees = args.employees;
  if (employees != null && (typeof employees !== "number" || !Number.isInteger(employees) || employees < 0)) {
    return { error: "employees は0以上の整数（人数）で指定してください" };
  }
  const limit = args.limit == null ? 10 : Number(args.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 50)
    return { error: "limit は1〜50の整数で指定してください" };
  const place = areaFilter(text(args.area), text(args.city));
  const filters: CatalogFilters = {
    ...place,
    employees: typeof employees === "number" ? employees : undefined,
    industry: text(args.industry),
    openOn: isDay(args.open_on) ? Date.parse(`${args.open_on}T00:00:00+09:00`) : now,
    closesBy: isDay(args.closes_by) ? Date.parse(`${args.closes_by}T23:59:59.999+09:00`) : undefined,
    includeClosed: args.include_closed === true,
  };
  return { query, filters, limit, all: args.all_ranked === true };
}

/** Runs the ranked search and shapes the result like search_subsidies (list items plus ranking fields). */
export function findSubsidies(
  catalog: Catalog,
  args: Record<string, unknown>,
  now: number,
  dataSource: DataSourceInfo,
): ToolPayload {
  const read = readFindArgs(args, now);
  if ("error" in read) return { error: read.error };
  const result = catalog.find(read.query, read.filters, read.all ? read.limit : Math.max(read.limit, 50));
  // Only what fits; when nothing does, the three nearest ones, which `match: "weak"` labels as such.
  const chosen = read.all ? result.hits : shownHits(result, read.limit);
  const subsidies = chosen.map((hit) => ({
    ...toListItem(hit.entry.record),
    subsidy_catch_phrase: hit.entry.record.subsidy_catch_phrase ?? null,
    subsidy_rate: hit.entry.record.subsidy_rate ?? null,
    use_purpose: hit.entry.record.use_purpose ?? null,
    industry: hit.entry.record.industry ?? null,
    city: hit.entry.city,
    front_subsidy_detail_page_url: portalUrl(hit.entry.record),
    score: Math.round(hit.score * 100) / 100,
    fits: hit.fits === true,
    coverage: Math.round(hit.coverage * 100) / 100,
    matched_terms: matchedWords(hit.matched).map((w) => asWritten(w, read.query)),
    // Only for what is returned (a snippet folds the record's texts again).
    snippet: snippetOf(hit.entry, hit.matched) ?? null,
    rounds: hit.rounds,
  }));
  return {
    total_count: read.all ? result.total : result.match === "good" ? result.fitting : subsidies.length,
    related_count: result.total,
    match: result.match,
    subsidies,
    search_conditions: {
      query: read.query,
      area: read.filters.area ?? null,
      city: read.filters.city ?? null,
      employees: read.filters.employees ?? null,
      industry: read.filters.industry ?? null,
      open_on: read.filters.includeClosed ? null : jstDate(read.filters.openOn ?? now),
      closes_by: read.filters.closesBy ? jstDate(read.filters.closesBy) : null,
      include_closed: read.filters.includeClosed === true,
    },
    query_terms: result.concepts.map((c) => asWritten(c.from, read.query)),
    data_source: dataSource,
  };
}
