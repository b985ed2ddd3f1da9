/**
 * Input validation for every tool. Wrong values get the official server's error strings; odd input the
 * official server never meets (control characters, arrays, unknown filter values) gets a clear Japanese one.
 */
import { FILTER_ENUMS, type FilterName } from "./enums.ts";
import type { SearchParams, SortField } from "./types.ts";

type Checked<T> = { ok: T } | { error: string };

const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;
const ANY_CONTROL = /[\u0000-\u001F\u007F]/;
const SORTS: SortField[] = ["created_date", "acceptance_start_datetime", "acceptance_end_datetime"];

/** The search the official server runs for get_subsidy_overview. */
export const DEFAULT_SEARCH: SearchParams = {
  keyword: "事業",
  sort: "acceptance_end_datetime",
  order: "ASC",
  acceptance: 1,
};

const absent = (v: unknown) => v === undefined || v === null;

/** Validates one " / " filter: every value must be one the API knows. Arrays of strings are joined. */
function checkFilter(name: FilterName, value: unknown): Checked<string | undefined> {
  if (absent(value) || value === "") return { ok: undefined };
  const parts = Array.isArray(value) ? value : typeof value === "string" ? value.split(/\s*[/／]\s*/) : null;
  if (!parts || parts.some((p) => typeof p !== "string")) {
    return { error: `${name} は文字列で指定してください（複数の値は「 / 」で区切ります）` };
  }
  const allowed: readonly string[] = FILTER_ENUMS[name];
  const values = (parts as string[]).map((p) => p.normalize("NFKC").trim()).filter(Boolean);
  const normalisedAllowed = new Map(allowed.map((a) => [a.normalize("NFKC"), a]));
  const bad = values.find((v) => !normalisedAllowed.has(v));
  if (bad !== undefined) {
    const shown = bad.length > 40 ? `${bad.slice(0, 40)}…` : bad;
    return {
      error: `${name} に指定できない値です: '${shown}'。次の値から選び、複数の場合は「 / 」で区切ってください: ${allowed.join(", ")}`,
    };
  }
  return { ok: values.length ? values.map((v) => normalisedAllowed.get(v)).join(" / ") : undefined };
}

/** Validates search_subsidies arguments in the official order (keyword, acceptance, sort, order), then ours. */
export function validateSearch(args: Record<string, unknown>): Checked<SearchParams> {
  const { keyword } = args;
  if (typeof keyword !== "string") return { error: "keyword は2〜255文字の非空文字列で指定してください" };
  if (ANY_CONTROL.test(keyword)) return { error: "keyword に制御文字（改行・タブなど）は使えません" };
  const length = [...keyword.trim()].length;
  if (length < 2 || length > 255) return { error: "keyword は2〜255文字の非空文字列で指定してください" };

  const acceptance = absent(args.acceptance) ? 1 : args.acceptance;
  if (![0, 1, "0", "1"].includes(acceptance as number | string)) {
    return { error: "acceptance は 0 または 1 を指定してください" };
  }
  const sort = absent(args.sort) ? "acceptance_end_datetime" : args.sort;
  if (!SORTS.includes(sort as SortField)) {
    return {
      error:
        "sort は created_date / acceptance_start_datetime / acceptance_end_datetime から選択してください",
    };
  }
  const order = absent(args.order) ? "ASC" : args.order;
  const upper = typeof order === "string" ? order.toUpperCase() : "";
  if (upper !== "ASC" && upper !== "DESC") return { error: "order は ASC または DESC を指定してください" };

  const params: SearchParams = {
    keyword,
    sort: sort as SortField,
    order: upper,
    acceptance: Number(acceptance) as 0 | 1,
  };
  for (const name of Object.keys(FILTER_ENUMS) as FilterName[]) {
    const checked = checkFilter(name, args[name]);
    if ("error" in checked) return checked;
    if (checked.ok) params[name] = checked.ok;
  }
  if (!absent(args.limit)) {
    const limit =
      typeof args.limit === "string" && /^\d+$/.test(args.limit) ? Number(args.limit) : args.limit;
    if (typeof limit !== "number" || !Number.isInteger(limit) || limit < 1 || limit > 1000) {
      return { error: "limit は1〜1000の整数で指定してください" };
    }
    params.limit = limit;
  }
  return { ok: params };
}

/** Validates a subsidy id: the official message for blanks; ids that cannot exist are simply not found. */
export function validateSubsidyId(value: unknown): Checked<string> | { notFound: string } {
  if (typeof value !== "string" || value.trim() === "")
    return { error: "subsidy_id は非空の文字列で指定してください" };
  const id = value.trim();
  if (CONTROL.test(id) || /[\r\n\t]/.test(id) || id.length > 64) {
    return { error: "subsidy_id は64文字以内の補助金ID（例: a0WJ200000CDR9HMAX）で指定してください" };
  }
  if (!/^[A-Za-z0-9_-]+$/.test(id)) return { notFound: id };
  return { ok: id };
}

/** Validates get_file_content's filename and return_format. */
export function validateFileArgs(
  args: Record<string, unknown>,
): Checked<{ filename: string; format: "markdown" | "base64" }> {
  const { filename } = args;
  if (typeof filename !== "string" || filename.trim() === "")
    return { error: "filename は非空の文字列で指定してください" };
  if (ANY_CONTROL.test(filename) || filename.length > 255) {
    return { error: "filename は制御文字を含まない255文字以内のファイル名で指定してください" };
  }
  const format = absent(args.return_format) ? "markdown" : args.return_format;
  const lower = typeof format === "string" ? format.toLowerCase() : "";
  if (lower !== "markdown" && lower !== "base64") {
    return { error: "return_format は markdown または base64 を指定してください" };
  }
  return { ok: { filename, format: lower } };
}

/** Validates get_subsidy_overview's output_format ("json" by default, case-insensitive like the official). */
export function validateOutputFormat(value: unknown): Checked<"json" | "csv"> {
  if (absent(value)) return { ok: "json" };
  const lower = typeof value === "string" ? value.toLowerCase() : "";
  if (lower !== "json" && lower !== "csv")
    return { error: "output_format は json または csv を指定してください" };
  return { ok: lower };
}
