/**
 * Search filters read from a question: area, employee bucket, industry, purpose, deadline order and
 * window. Words that only served as a filter are blanked out of the text returned for keyword extraction.
 */

import { findArea } from "../catalog/areas.ts";
import type { SearchConditions } from "../types.ts";

export interface QuestionFilters {
  area?: string;
  employees?: string;
  industry?: string;
  purpose?: string;
  sort?: NonNullable<SearchConditions["sort"]>;
  order?: NonNullable<SearchConditions["order"]>;
  acceptance?: "0" | "1";
  /** Industry words that were blanked out (a fallback keyword when nothing else is left). */
  industryWords: string[];
  /** The text with filter-only words blanked out. */
  rest: string;
}

const BUCKETS: Array<[number, string]> = [
  [5, "5名以下"],
  [20, "20名以下"],
  [50, "50名以下"],
  [100, "100名以下"],
  [300, "300名以下"],
  [900, "900名以下"],
];
const NO_LIMIT = "従業員数の制約なし";

/** Head count → the jGrants employee bucket (upper bounds as the API names them). */
export function employeeBucket(n: number): string {
  return BUCKETS.find(([max]) => n <= max)?.[1] ?? "901名以上";
}

/**
 * The employee filter for a head count: its bucket, every larger "N名以下" bucket and 従業員数の制約なし,
 * joined with " / " (OR). The API matches bucket values literally, so the bucket alone would hide every
 * subsidy without a size limit, and those for larger firms that a small firm also qualifies for.
 */
export function employeeFilter(n: number): string {
  const bucket = employeeBucket(n);
  if (bucket === "901名以上") return `${bucket} / ${NO_LIMIT}`;
  const from = BUCKETS.findIndex(([, name]) => name === bucket);
  return [...BUCKETS.slice(from).map(([, name]) => name), NO_LIMIT].join(" / ");
}

const EMPLOYEE_PATTERNS = [
  /(?:従業員|社員|スタッフ|職員|従業者|メンバー)(?:数)?(?:は|が|:)?\s*(?:約|およそ)?\s*(\d{1,6})\s*(?:人|名)/,
  /(\d{1,6})\s*(?:人|名)\s*(?:程度|くらい|ぐらい|ほど|規模)?\s*の?\s*(?:会社|企業|事業者|事業所|法人|従業員|社員|規模|スタッフ)/,
];
const SOLO = /(個人事業主|一人社長|ひとり社長|フリーランス|一人親方)/;

const INDUSTRIES: Array<[RegExp, string]> = [
  [/製造業|製造|町工場|工場|メーカー/, "製造業"],
  [/飲食店|飲食業|飲食|レストラン|カフェ|居酒屋|ホテル|旅館|宿泊業|民宿/, "宿泊業、飲食サービス業"],
  [/IT企業|IT業|ソフトウェア(?:会社|企業)|情報通信業?|システム開発会社/, "情報通信業"],
  [/建設業|建設会社|工務店|建築業|土木/, "建設業"],
  [/小売業?|卸売業?|商店|販売店|小売店/, "卸売業、小売業"],
  [/運送業?|運輸業?|物流|トラック/, "運輸業、郵便業"],
  [/不動産業?/, "不動産業、物品賃貸業"],
  [/介護事業所|病院|クリニック|医療法人|福祉施設/, "医療、福祉"],
  [/美容室|美容院|理容|クリーニング/, "生活関連サービス業、娯楽業"],
  [/学習塾|教室運営/, "教育、学習支援業"],
  [/農家|林業|農業法人/, "農業、林業"],
  [/漁師|漁業者|漁協/, "漁業"],
];

const PURPOSES: Array<[RegExp, string]> = [
  [/創業|起業|新規事業|新事業|開業|スタートアップ/, "新たな事業を行いたい"],
  [/販路|海外展開|輸出|展示会|海外進出/, "販路拡大・海外展開をしたい"],
  [/イベント/, "イベント・事業運営支援がほしい"],
  [/事業承継|後継者|M&A|引継/, "事業を引き継ぎたい"],
  [/研究開発|実証|技術開発/, "研究開発・実証事業を行いたい"],
  [/人材育成|研修|リスキリング/, "人材育成を行いたい"],
  [/資金繰り|運転資金/, "資金繰りを改善したい"],
  [/設備|IT導入|ITツール|DX|デジタル化|機械/, "設備整備・IT導入をしたい"],
  [/雇用|職場環境|賃上げ|働き方|採用/, "雇用・職場環境を改善したい"],
  [/省エネ|脱炭素|SDGs|再エネ|環境/, "エコ・SDGs活動支援がほしい"],
  [/災害|被災|感染症/, "災害（自然災害、感染症等）支援がほしい"],
  [/子育て|少子化|保育|教育/, "教育・子育て・少子化支援がほしい"],
  [/スポーツ|文化|芸術/, "スポーツ・文化支援がほしい"],
  [/防災|防犯|安全対策/, "安全・防災対策支援がほしい"],
  [/まちづくり|地域振興|商店街|空き家|地域活性/, "まちづくり・地域振興支援がほしい"],
];

const SOON =
  /(締め?切り?|〆切|期限)(が|の)?(近い|間近|迫)|もうすぐ締|締め?切り?(が)?近|締め?切り?順|期限順|急ぎ/;
const THIS_MONTH = /今月(中|末)?(まで|締め?切り?|〆)|今月締/;
/** Deadline windows (the ones deadlineWindow reads): 今月締切, 来月まで, 今週中, 30日以内. */
const WINDOW =
  /(今月|来月|今週)(中|末)?(まで|締め?切り?|〆)(の|が)?|(今月|来月|今週)締め?切り?|[0-9]{1,3}\s*日以内(に)?(締め?切り?|〆)?(の|が)?/;
const NEWEST = /新しい順|新着|最新/;
const INCLUDE_CLOSED = /(過去の|受付)?(終了(した|済み?)|締め?切り?済み?)(もの)?(も)?(含めて|含む)?/;

const blank = (text: string, re: RegExp): string => text.replace(re, (m) => "　".repeat(m.length));

/** The head count a question states (「従業員8名」, 「個人事業主」 = 1), or undefined. */
export function employeeCount(text: string): number | undefined {
  for (const re of EMPLOYEE_PATTERNS) {
    const m = re.exec(text);
    if (m?.[1]) return Number(m[1]);
  }
  return SOLO.test(text) ? 1 : undefined;
}

/** Reads every filter kind from a question (NFKC-normalised by the caller). */
export function extractFilters(text: string): QuestionFilters {
  const { area, rest: afterArea } = findArea(text);
  let rest = afterArea;
  const out: QuestionFilters = { industryWords: [], rest };
  if (area) out.area = area;
  for (const re of EMPLOYEE_PATTERNS) {
    const m = re.exec(rest);
    if (m?.[1]) {
      out.employees = employeeFilter(Number(m[1]));
      rest = blank(rest, new RegExp(re.source));
      break;
    }
  }
  if (!out.employees && SOLO.test(rest)) {
    out.employees = employeeFilter(1);
    rest = blank(rest, SOLO);
  }
  for (const [re, industry] of INDUSTRIES) {
    const m = re.exec(rest);
    if (m) {
      out.industry = industry;
      out.industryWords.push(m[0]);
      rest = blank(rest, new RegExp(re.source, "g"));
      break;
    }
  }
  const purpose = PURPOSES.find(([re]) => re.test(rest));
  if (purpose) out.purpose = purpose[1];
  if (WINDOW.test(rest) || SOON.test(rest)) {
    out.sort = "acceptance_end_datetime";
    out.order = "ASC";
    out.acceptance = "1";
    rest = blank(blank(rest, new RegExp(WINDOW.source, "g")), new RegExp(SOON.source, "g"));
  } else if (NEWEST.test(rest)) {
    out.sort = "created_date";
    out.order = "DESC";
    rest = blank(rest, new RegExp(NEWEST.source, "g"));
  }
  if (INCLUDE_CLOSED.test(rest)) {
    out.acceptance = "0";
    rest = blank(rest, new RegExp(INCLUDE_CLOSED.source, "g"));
  }
  out.rest = rest;
  return out;
}

/** The deadline window a question asks for ("今月締切", "今週", "N日以内"), as UTC instants; null if none. */
export function deadlineWindow(text: string, now: Date): { from: Date; to: Date } | null {
  const jst = new Date(now.getTime() + 9 * 3_600_000);
  const endOfJstDay = (y: number, m: number, d: number) => new Date(Date.UTC(y, m, d, 14, 59, 59, 999));
  const y = jst.getUTCFullYear();
  const m = jst.getUTCMonth();
  if (THIS_MONTH.test(text)) return { from: now, to: endOfJstDay(y, m + 1, 0) };
  if (/来月(中|末)?(まで|締)/.test(text)) return { from: now, to: endOfJstDay(y, m + 2, 0) };
  if (/今週(中|末)?(まで|締)/.test(text)) {
    const toSunday = (7 - jst.getUTCDay()) % 7;
    return { from: now, to: endOfJstDay(y, m, jst.getUTCDate() + toSunday) };
  }
  const days = /(\d{1,3})\s*日以内/.exec(text);
  if (days?.[1]) return { from: now, to: endOfJstDay(y, m, jst.getUTCDate() + Number(days[1])) };
  return null;
}
