/**
 * One jGrants record as the catalog indexes it: its searchable fields, where it applies (prefectures and
 * the city of a city's programme), whom it accepts (head count, industries), its window, whether it is a
 * procedural page, and the key that groups one programme's rounds.
 */
import { acceptanceEnd, acceptanceStart } from "../mcp-servers/jgrants/records.ts";
import type { JgrantsRecord } from "../mcp-servers/jgrants/types.ts";
import { tightenCjk } from "../subsidies/text.ts";
import { PREFECTURES, prefectureOfCity } from "./areas.ts";
import { programmeSectors } from "./sectors.ts";
import { fold } from "./text.ts";

export interface CatalogEntry {
  id: string;
  record: JgrantsRecord;
  title: string;
  catch: string;
  purpose: string;
  detail: string;
  /** Every searchable field, folded, for literal checks of matched words. */
  text: string;
  /** Prefectures (and "全国", regions) from target_area_search. */
  areas: string[];
  /** The city (市区町村) when the programme is a city's, else null. */
  city: string | null;
  /** Head-count bounds: accepts n when min ≤ n ≤ max. */
  employees: { min: number; max: number } | null;
  /** Industries it is limited to (empty = any). */
  industries: string[];
  start: number | null;
  end: number | null;
  /**
   * Withdrawal/change/cancellation notices, second-year pages, 交付申請等, reports and claims after the
   * project (事業完了後申請, 精算払), practice entries.
   */
  procedural: boolean;
  /** Records with the same key are one programme (rounds, courses, word-for-word copies). */
  groupKey: string;
  /** "第19次", "2次募集", "【東京都】" …: what tells this round apart, for 「ほか…」. */
  roundLabel: string;
  /** Sectors its title names as its target (医療, 建設 …); empty for programmes open to any business. */
  sectors: string[];
}

const PROCEDURAL =
  /(撤回|変更|中止|廃止|辞退|取下げ?)届|交付申請等|実績報告|状況報告|[2-9２-９二三四五]年目申請|事前着手|申請練習|練習用|テスト用|様式集のみ|共同申請(者|_)|事業完了後|完了報告|概算払|精算払|支払請求/;

const DETAIL_MAX_CHARS = 2_000;

const split = (value: unknown): string[] =>
  typeof value === "string"
    ? value
        .split(/\s*[/／]\s*/)
        .map((v) => v.trim())
        .filter(Boolean)
    : [];

function employeesOf(value: unknown): CatalogEntry["employees"] {
  if (typeof value !== "string") return null;
  const upTo = /(\d+)\s*名以下/.exec(value.normalize("NFKC"));
  if (upTo) return { min: 0, max: Number(upTo[1]) };
  const from = /(\d+)\s*名以上/.exec(value.normalize("NFKC"));
  if (from) return { min: Number(from[1]), max: Number.POSITIVE_INFINITY };
  return null;
}

const NOT_A_CITY =
  /^(都|市|各|同|本|当|県内|府内|都内|道内|全|近隣|周辺|対象|指定|区域|地区|区|町|村|政令|中核|特別|市区|市町|市町村|町村|都市)[市区町村]?$|^都市|市場|市区町村|市町村/;
const CITY_WORD = /([\p{Script=Han}\p{Script=Katakana}\p{Script=Hiragana}ヶ]{1,6}?[市区町村])/u;

/** A city name written in the area detail, in 【…】 of the title, or at the start of the title. */
function cityOf(record: JgrantsRecord, areas: string[]): string | null {
  const title = fold(record.title ?? "");
  const candidates: string[] = [];
  const detail = typeof record.target_area_detail === "string" ? fold(record.target_area_detail) : "";
  const bracket = /^[【［[]([^】］\]]{2,20})[】］\]]/.exec(title)?.[1] ?? "";
  for (const text of [detail.slice(0, 40), bracket, title.slice(0, 12)]) {
    const stripped = PREFECTURES.reduce((t, p) => t.replace(p, ""), text).replace(
      /令和\s*[0-9元]+\s*年度|20[0-9]{2}年度|[0-9]+/g,
      " ",
    );
    const m = CITY_WORD.exec(stripped);
    if (m?.[1] && !NOT_A_CITY.test(m[1]) && !PREFECTURES.includes(m[1])) candidates.push(m[1]);
  }
  const city = candidates[0];
  if (!city) return null;
  // A city programme never spans prefectures; one filed as 全国 is still the city's own.
  return areas.length === 1 ? city : null;
}

/** The title without what tells rounds apart: 第N次/回, N次募集, 令和N年度, bracketed prefixes, courses. */
function groupKeyOf(title: string): { key: string; label: string } {
  const t = fold(title);
  const labels: string[] = [];
  const key = t
    .replace(/[［[【(（]?第?[0-9一二三四五六七八九十]+(?:次|回)(?:締切|公募|募集)?[］\]】)）]?/g, (m) => {
      labels.push(m.replace(/[［[【(（］\]】)）]/g, ""));
      return "";
    })
    .replace(/[0-9一二三四五六七八九十]+次(?:公募|募集|締切)/g, (m) => {
      labels.push(m);
      return "";
    })
    .replace(/令和\s*[0-9元]+\s*年度(?:補正)?|20[0-9]{2}年度/g, "")
    .replace(/[_＿\s　・、。:：()（）［］[\]【】「」『』〜~\-–—]/g, "");
  return { key, label: labels.join(" ") };
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " " };

/** Plain text of the detail HTML, fast (indexing thousands of records): tags out, entities decoded. */
function stripTags(html: string): string {
  return html
    .replace(/<(script|style)[\s\S]*?<\/\1>/gi, " ")
    .replace(/<[^>]*>/g, " ")
    .replace(/&(#x?[0-9a-f]+|[a-z]+);/gi, (m, e: string) => {
      if (e[0] !== "#") return ENTITIES[e.toLowerCase()] ?? m;
      const code = e[1] === "x" || e[1] === "X" ? Number.parseInt(e.slice(2), 16) : Number(e.slice(1));
      return Number.isFinite(code) ? String.fromCodePoint(code) : m;
    });
}

/** Builds the entry of one record. */
export function toEntry(record: JgrantsRecord): CatalogEntry {
  let areas = split(record.target_area_search);
  const raw = typeof record._detail_text === "string" ? record._detail_text : (record.detail ?? "");
  const detailText = typeof raw === "string" ? stripTags(raw) : "";
  const detail = tightenCjk(detailText.replace(/https?:\/\/\S+/g, " ")).slice(0, DETAIL_MAX_CHARS);
  const title = record.title ?? "";
  const { key, label } = groupKeyOf(title);
  const city = cityOf(record, areas);
  // A city's programme filed as 全国 applies in that city only: its prefecture when known, else nowhere named.
  if (city && areas[0] === "全国") areas = [prefectureOfCity(city) ?? "不明"];
  return {
    id: record.id,
    record,
    title,
    catch: record.subsidy_catch_phrase ?? "",
    purpose: record.use_purpose ?? "",
    detail,
    // Not the purpose: its values are broad categories (「設備整備・IT導入をしたい」) that many records carry.
    text: fold([title, record.subsidy_catch_phrase ?? "", detail].join("\n")),
    areas,
    city,
    employees: employeesOf(record.target_number_of_employees),
    industries: split(record.industry),
    start: acceptanceStart(record),
    end: acceptanceEnd(record),
    procedural: PROCEDURAL.test(fold(title)),
    groupKey: `${key}|${areas.join("/")}`,
    roundLabel: label,
    sectors: programmeSectors(fold(title)),
  };
}
