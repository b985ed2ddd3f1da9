/** Types shared by the jGrants MCP server, its sources and its formatters. */

/** A jGrants record as the list/detail API (or the bundled snapshot) gives it. Unknown fields pass through. */
export interface JgrantsRecord {
  id: string;
  name?: string | null;
  title?: string | null;
  target_area_search?: string | null;
  subsidy_max_limit?: number | string | null;
  acceptance_start_datetime?: string | null;
  acceptance_end_datetime?: string | null;
  target_number_of_employees?: string | null;
  institution_name?: string | null;
  subsidy_catch_phrase?: string | null;
  detail?: string | null;
  use_purpose?: string | null;
  industry?: string | null;
  target_area_detail?: string | null;
  subsidy_rate?: string | null;
  project_end_deadline?: string | null;
  front_subsidy_detail_page_url?: string | null;
  application_guidelines?: Attachment[] | null;
  outline_of_grant?: Attachment[] | null;
  application_form?: Attachment[] | null;
  [key: string]: unknown;
}

/** An attachment item of the detail API: `data` is the whole file in base64 (live only). */
export interface Attachment {
  name?: string | null;
  data?: string | null;
}

/** Where a result came from; added to every search/detail/overview result. */
export interface DataSourceInfo {
  /** "catalog": the live catalog synced in the background (see src/catalog/sync). */
  mode: "live" | "snapshot" | "catalog";
  /** YYYY-MM-DD of the snapshot, of the live fetch, or of the catalog's data. */
  as_of?: string;
  /** True when a live detail was served from the catalog (fetched within its age limit). */
  from_catalog?: boolean;
  /** Set when auto mode fell back to the snapshot: why the live API was not used. */
  fallback_reason?: string;
}

export type SortField = "created_date" | "acceptance_start_datetime" | "acceptance_end_datetime";

/** Validated search_subsidies arguments (filters already joined with " / "). */
export interface SearchParams {
  keyword: string;
  use_purpose?: string;
  industry?: string;
  target_number_of_employees?: string;
  target_area_search?: string;
  sort: SortField;
  order: "ASC" | "DESC";
  acceptance: 0 | 1;
  /** Our addition: at most this many items; undefined = all, like the official server. */
  limit?: number;
}

/** A tool result dict: either the official shape or `{ error }`. */
export type ToolPayload = Record<string, unknown>;

/** Marks a payload whose failure means "the live API is unreachable" (auto mode then falls back). */
export const UNREACHABLE: unique symbol = Symbol("jgrants.unreachable");

/** The one interface behind every tool: live API, bundled snapshot, or auto (live with fallback). */
export interface JgrantsSource {
  readonly mode: "live" | "snapshot" | "auto";
  /** search_subsidies: `{ total_count, subsidies, search_conditions, data_source }` or `{ error }`. */
  search(params: SearchParams): Promise<ToolPayload>;
  /** get_subsidy_detail: the formatted detail (no base64 bodies) or `{ error }`. */
  detail(id: string): Promise<ToolPayload>;
  /** get_subsidy_overview: statistics over the default search, as JSON or CSV strings. */
  overview(format: "json" | "csv"): Promise<ToolPayload>;
  /** get_file_content: one attachment decoded and converted on demand, with a size cap. */
  file(id: string, filename: string, format: "markdown" | "base64"): Promise<ToolPayload>;
}
