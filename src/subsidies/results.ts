/**
 * Whole tool results → domain values: a search result (ours, the official server's, or the REST list
 * envelope) and a detail result (a bare record, `{result:[record]}` or `{subsidy: record}`).
 */
import type { DataSource, SearchConditions, Subsidy } from "../types.ts";
import { isRecord, pickString, subsidyFromDetail, subsidyFromListItem } from "./normalise.ts";

const SORTS = ["created_date", "acceptance_start_datetime", "acceptance_end_datetime"] as const;

/** `data_source: {mode, as_of?}` → DataSource; live when absent (the official server has no such field). */
export function readDataSource(data: unknown): DataSource {
  const ds = isRecord(data) ? (data.data_source ?? data.dataSource) : undefined;
  if (!isRecord(ds)) return { mode: "live" };
  // The catalog's fallback is stored data of a given day, like the snapshot.
  const mode = ds.mode === "snapshot" || ds.mode === "catalog" ? "snapshot" : "live";
  const asOf = pickString(ds, "as_of", "asOf");
  return asOf ? { mode, asOf } : { mode };
}

/** search_conditions → SearchConditions, keeping only well-formed values. */
export function readConditions(raw: unknown): Partial<SearchConditions> {
  if (!isRecord(raw)) return {};
  const out: Partial<SearchConditions> = {};
  const keyword = pickString(raw, "keyword");
  if (keyword) out.keywords = [keyword];
  const area = pickString(raw, "target_area_search");
  if (area) out.area = area;
  const employees = pickString(raw, "target_number_of_employees");
  if (employees) out.employees = employees;
  const industry = pickString(raw, "industry");
  if (industry) out.industry = industry;
  const purpose = pickString(raw, "use_purpose");
  if (purpose) out.purpose = purpose;
  const sort = pickString(raw, "sort");
  if (sort && (SORTS as readonly string[]).includes(sort)) out.sort = sort as SearchConditions["sort"];
  const order = pickString(raw, "order")?.toUpperCase();
  if (order === "ASC" || order === "DESC") out.order = order;
  const acc = raw.acceptance;
  if (acc === 1 || acc === "1" || acc === true) out.acceptance = "1";
  else if (acc === 0 || acc === "0" || acc === false) out.acceptance = "0";
  return out;
}

export interface SearchRead {
  totalCount: number;
  subsidies: Subsidy[];
  source: DataSource;
  conditions: Partial<SearchConditions>;
}

/**
 * The reads of one result object at one instant. A turn reads each result twice in a row (what it found,
 * and the summary the planners see); the second read returns the first one's values, which nobody
 * changes. Weak: a result's reads go when the result does.
 */
interface Reads {
  at: number;
  search?: SearchRead | null;
  detail?: Subsidy | null;
}
const reads = new WeakMap<object, Reads>();

function readsOf(data: object, now: Date): Reads {
  let entry = reads.get(data);
  if (!entry || entry.at !== now.getTime()) {
    entry = { at: now.getTime() };
    reads.set(data, entry);
  }
  return entry;
}

/** A search tool's result → hits, total and conditions; null when it is not a search result (e.g. an error). */
export function readSearchResult(data: unknown, now: Date): SearchRead | null {
  if (!isRecord(data)) return null;
  const entry = readsOf(data, now);
  if (entry.search === undefined) entry.search = searchOf(data, now);
  return entry.search;
}

/** A detail tool's result → Subsidy (detailed); null for errors and unknown shapes. */
export function readDetailResult(data: unknown, now: Date): Subsidy | null {
  if (!isRecord(data)) return null;
  const entry = readsOf(data, now);
  if (entry.detail === undefined) entry.detail = detailOf(data, now);
  return entry.detail;
}

function searchOf(data: Record<string, unknown>, now: Date): SearchRead | null {
  if (typeof data.error === "string") return null;
  const items = Array.isArray(data.subsidies)
    ? data.subsidies
    : Array.isArray(data.result)
      ? data.result
      : null;
  if (!items) return null;
  const source = readDataSource(data);
  const subsidies: Subsidy[] = [];
  for (const item of items) {
    const s = subsidyFromListItem(item, source, now);
    if (s) subsidies.push(s);
  }
  const meta = isRecord(data.metadata) && isRecord(data.metadata.resultset) ? data.metadata.resultset : {};
  const total = [data.total_count, data.totalCount, meta.count].find((v) => typeof v === "number");
  return {
    totalCount: typeof total === "number" ? Math.max(total, subsidies.length) : subsidies.length,
    subsidies,
    source,
    conditions: readConditions(data.search_conditions ?? data.searchConditions),
  };
}

function detailOf(data: Record<string, unknown>, now: Date): Subsidy | null {
  if (typeof data.error === "string") return null;
  const source = readDataSource(data);
  let record: unknown = data;
  if (Array.isArray(data.result)) record = data.result[0];
  else if (isRecord(data.subsidy)) record = data.subsidy;
  else if (isRecord(data.result)) record = data.result;
  const s = subsidyFromDetail(record, source, now);
  if (!s) return null;
  // A data_source inside the wrapped record wins over none at the top.
  if (record !== data && isRecord(record) && record.data_source) s.source = readDataSource(record);
  return s;
}
