/** The search_subsidies result shape shared by both sources. */
import type { DataSourceInfo, SearchParams, ToolPayload } from "./types.ts";

const FILTERS = ["use_purpose", "industry", "target_number_of_employees", "target_area_search"] as const;

/** The query the API receives, as the official server reports it in `search_conditions`. */
export function searchQuery(params: SearchParams): Record<string, string> {
  const query: Record<string, string> = {
    keyword: params.keyword,
    sort: params.sort,
    order: params.order,
    acceptance: String(params.acceptance),
  };
  for (const key of FILTERS) {
    const value = params[key];
    if (value) query[key] = value;
  }
  return query;
}

/**
 * `{ total_count, subsidies, search_conditions, data_source }`. Without `limit` every item is returned,
 * as the official server does; with it, total_count still counts every hit and returned_count says how
 * many are listed.
 */
export function searchResult(
  items: Record<string, unknown>[],
  params: SearchParams,
  dataSource: DataSourceInfo,
): ToolPayload {
  const listed = params.limit === undefined ? items : items.slice(0, params.limit);
  const result: ToolPayload = {
    total_count: items.length,
    subsidies: listed,
    search_conditions: searchQuery(params),
  };
  if (params.limit !== undefined) result.returned_count = listed.length;
  result.data_source = dataSource;
  return result;
}

/** YYYY-MM-DD of an instant in Asia/Tokyo. */
export function jstDate(ms: number): string {
  return new Date(ms + 9 * 3_600_000).toISOString().slice(0, 10);
}
