/**
 * Input JSON Schemas and descriptions of the five tools. Names, types and defaults equal the official
 * server's; we add JSON-Schema enums (from data/jgrants-enums.json) and the optional `limit`. The schemas
 * are advertised through zod metadata on a loose object, so the handlers see every argument unchanged and
 * answer wrong values with the official error strings instead of the SDK's generic validation error.
 */
import { z } from "zod";
import { FILTER_ENUMS, ORDER_VALUES, SORT_VALUES } from "./enums.ts";
import { FIND_DESCRIPTION, FIND_SCHEMA_PROPERTIES } from "./find-subsidies.ts";

type JsonSchema = Record<string, unknown>;

const escapeRegExp = (value: string) => value.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");

/**
 * A filter that takes one enum value, or several joined with " / " as the API allows: the enum branch
 * lists the values, the pattern branch admits only joins of those same values.
 */
const multiEnum = (values: readonly string[], description: string): JsonSchema => {
  const one = `(?:${values.map(escapeRegExp).join("|")})`;
  return {
    anyOf: [
      { type: "string", enum: [...values] },
      { type: "string", pattern: `^${one}(?: / ${one})+$` },
      { type: "null" },
    ],
    default: null,
    description,
  };
};

const MULTI =
  '複数の値は「 / 」（半角スペース＋半角スラッシュ＋半角スペース）で区切って1つの文字列にします（例: "東京都 / 全国"）。';

/** The zod carrier of a JSON Schema: accepts any object, advertises `schema`. */
function advertised(schema: JsonSchema) {
  return z.looseObject({}).meta({ type: "object", ...schema });
}

export const SEARCH_SCHEMA = advertised({
  properties: {
    keyword: {
      type: "string",
      minLength: 2,
      maxLength: 255,
      description:
        "検索キーワード（2〜255文字、スペースなし）。大文字・小文字、全角・半角の違いは区別しません",
    },
    use_purpose: multiEnum(FILTER_ENUMS.use_purpose, `利用目的。${MULTI}`),
    industry: multiEnum(
      FILTER_ENUMS.industry,
      `業種（名前に「、」を含みます。「、」では区切りません）。${MULTI}`,
    ),
    target_number_of_employees: multiEnum(
      FILTER_ENUMS.target_number_of_employees,
      `従業員数の上限。${MULTI}`,
    ),
    target_area_search: multiEnum(
      FILTER_ENUMS.target_area_search,
      `補助対象地域。都道府県で絞り込むと全国対象の補助金は含まれないため、含めたいときは「 / 全国」を足します。${MULTI}`,
    ),
    sort: {
      type: "string",
      enum: [...SORT_VALUES],
      default: "acceptance_end_datetime",
      description: "並び順の項目",
    },
    order: { type: "string", enum: [...ORDER_VALUES], default: "ASC", description: "ソート順" },
    acceptance: {
      type: "integer",
      enum: [0, 1],
      default: 1,
      description: "1=受付中のみ、0=受付期間で絞り込まない",
    },
    limit: {
      anyOf: [{ type: "integer", minimum: 1, maximum: 1000 }, { type: "null" }],
      default: null,
      description: "返す件数の上限（本サーバーの追加機能）。省略時は全件。total_count は常に全件数",
    },
  },
  required: ["keyword"],
});

export const FIND_SCHEMA = advertised({ properties: FIND_SCHEMA_PROPERTIES, required: ["query"] });

export const DETAIL_SCHEMA = advertised({
  properties: { subsidy_id: { type: "string", description: '補助金ID（例: "a0WJ200000CDR9HMAX"）' } },
  required: ["subsidy_id"],
});

export const OVERVIEW_SCHEMA = advertised({
  properties: {
    output_format: { type: "string", enum: ["json", "csv"], default: "json", description: "出力形式" },
  },
});

export const FILE_SCHEMA = advertised({
  properties: {
    subsidy_id: { type: "string", description: "補助金ID" },
    filename: { type: "string", description: "get_subsidy_detail の files に出てくるファイル名" },
    return_format: {
      type: "string",
      enum: ["markdown", "base64"],
      default: "markdown",
      description: "返す形式",
    },
  },
  required: ["subsidy_id", "filename"],
});

export const PING_SCHEMA = advertised({ properties: {} });

export const DESCRIPTIONS = {
  search_subsidies: `jGrants（Jグランツ）の補助金を条件で検索します（公開API GET /subsidies 相当）。
- keyword は必須（2〜255文字）。sort（created_date / acceptance_start_datetime / acceptance_end_datetime）、order（ASC / DESC）、acceptance（1=受付中のみ、既定値）で並び順と期間を指定します。
- use_purpose・industry・target_number_of_employees・target_area_search で絞り込めます。${MULTI}
- 結果: total_count、subsidies（一覧項目の配列）、search_conditions、data_source（live か snapshot と、その日付）。
- 出典: 情報を利用・公開するときは「Jグランツ（jGrants）からの出典」と明記してください。詳細は https://www.jgrants-portal.go.jp/subsidy/{id} で確認できます。`,
  find_subsidies: FIND_DESCRIPTION,
  get_subsidy_detail: `補助金1件の詳細を取得します（GET /subsidies/id/{id} 相当）。
- 結果: id, title, description（HTML）, description_text（プレーンテキスト）, subsidy_max_limit, subsidy_rate, acceptance_start / acceptance_end（UTC）, status, target（area, industry, employees, purpose）, portal_url, files（添付ファイルの名前とサイズのみ）, data_source など。
- 添付ファイルの中身は get_file_content で取得します。出典（Jグランツ）を明記してください。`,
  get_subsidy_overview: `受付中の補助金（キーワード「事業」）の状況を集計します: 受付中の件数、締切までの期間別・金額規模別の件数、14日以内に締切を迎える案件、5,000万円以上の案件。output_format は "json"（既定）または "csv"。`,
  get_file_content: `get_subsidy_detail の files にある添付ファイル（公募要領など）を取得します。return_format="markdown"（既定）ならPDF・テキスト・HTML・CSVをテキストに変換し、長い場合は切り詰めます。"base64" は小さいファイルだけ返します。`,
  ping: "サーバーの応答を確認します。status, server, version, timestamp を返します。",
} as const;
