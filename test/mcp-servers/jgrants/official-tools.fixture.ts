/**
 * The official server's public surface (digital-go-jp/jgrants-mcp-server, jgrants_mcp_server/core.py),
 * written down from its source: FastMCP publishes each Python signature as a JSON Schema, so
 * `Optional[str] = None` becomes `anyOf [string, null]` with default null and only parameters without a
 * default are required.
 */
export interface OfficialParam {
  type: "string" | "integer" | "nullable-string";
  default?: unknown;
}

export const OFFICIAL_TOOLS: Record<string, { required: string[]; params: Record<string, OfficialParam> }> = {
  search_subsidies: {
    required: ["keyword"],
    params: {
      keyword: { type: "string" },
      use_purpose: { type: "nullable-string", default: null },
      industry: { type: "nullable-string", default: null },
      target_number_of_employees: { type: "nullable-string", default: null },
      target_area_search: { type: "nullable-string", default: null },
      sort: { type: "string", default: "acceptance_end_datetime" },
      order: { type: "string", default: "ASC" },
      acceptance: { type: "integer", default: 1 },
    },
  },
  ping: { required: [], params: {} },
  get_subsidy_overview: { required: [], params: { output_format: { type: "string", default: "json" } } },
  get_subsidy_detail: { required: ["subsidy_id"], params: { subsidy_id: { type: "string" } } },
  get_file_content: {
    required: ["subsidy_id", "filename"],
    params: {
      subsidy_id: { type: "string" },
      filename: { type: "string" },
      return_format: { type: "string", default: "markdown" },
    },
  },
};

export const OFFICIAL_PROMPTS = ["subsidy_search_guide", "api_usage_agreement"];
export const OFFICIAL_RESOURCES = ["jgrants://guidelines"];

/** Error strings the official server returns as `{"error": …}` results. */
export const OFFICIAL_ERRORS = {
  keyword: "keyword は2〜255文字の非空文字列で指定してください",
  acceptance: "acceptance は 0 または 1 を指定してください",
  sort: "sort は created_date / acceptance_start_datetime / acceptance_end_datetime から選択してください",
  order: "order は ASC または DESC を指定してください",
  subsidyId: "subsidy_id は非空の文字列で指定してください",
  notFound: (id: string) => `補助金ID '${id}' が見つかりません`,
};

/** Keys of the official get_subsidy_detail result. */
export const OFFICIAL_DETAIL_KEYS = [
  "id",
  "title",
  "description",
  "subsidy_max_limit",
  "acceptance_start",
  "acceptance_end",
  "target",
  "application_url",
  "last_updated",
  "status",
  "files",
  "save_directory",
];
