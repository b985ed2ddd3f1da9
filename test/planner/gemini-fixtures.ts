/** Shared inputs for the Gemini planner and answerer tests: a tool list shaped like the official jGrants server's. */
import type { GeminiConfig } from "../../src/llm/gemini-client.ts";
import type { PlanInput, RoundSummary } from "../../src/planner/planner.ts";
import type { HistoryTurn, ToolInfo } from "../../src/types.ts";

const PURPOSES = [
  "新たな事業を行いたい",
  "販路拡大・海外展開をしたい",
  "設備整備・IT導入をしたい",
  "人材育成を行いたい",
];
const LONG_DESCRIPTION = `高度な検索条件で補助金を検索します。このツールは jGrants 公開APIの "補助金検索" をラップしています。${"keyword: 検索キーワード（2-255文字程度を想定、必須）。大文字・小文字や全角・半角の表記ゆれを許容する。".repeat(12)}`;

const optional = (description: string) => ({
  anyOf: [{ type: "string" }, { type: "null" }],
  default: null,
  description,
  title: description.slice(0, 10),
});

/** jgrants tools as the MCP host lists them (with `$schema`, `anyOf` null and long descriptions). */
export const JGRANTS_TOOLS: ToolInfo[] = [
  {
    server: "jgrants",
    name: "search_subsidies",
    qualifiedName: "jgrants__search_subsidies",
    description: LONG_DESCRIPTION,
    readOnly: true,
    inputSchema: {
      $schema: "http://json-schema.org/draft-07/schema#",
      type: "object",
      properties: {
        keyword: { type: "string", description: "検索キーワード（2〜255文字、1語）", title: "Keyword" },
        use_purpose: optional(`利用目的: ${PURPOSES.join(" / ")}`),
        industry: optional("業種。例: 製造業、情報通信業、宿泊業、飲食サービス業"),
        target_number_of_employees: optional(
          "従業員数の上限: 5名以下, 20名以下, 50名以下, 100名以下, 300名以下",
        ),
        target_area_search: optional(`補助対象地域: 全国, 北海道, 東京都, 大阪府 ${"…".repeat(300)}`),
        sort: {
          type: "string",
          default: "acceptance_end_datetime",
          enum: ["created_date", "acceptance_start_datetime", "acceptance_end_datetime"],
        },
        order: { type: "string", default: "ASC", enum: ["ASC", "DESC"] },
        acceptance: { type: "integer", default: 1, enum: [0, 1] },
      },
      required: ["keyword"],
    },
  },
  {
    server: "jgrants",
    name: "get_subsidy_detail",
    qualifiedName: "jgrants__get_subsidy_detail",
    description: "補助金の詳細情報を取得します。",
    readOnly: true,
    inputSchema: {
      $schema: "http://json-schema.org/draft-07/schema#",
      type: "object",
      properties: { subsidy_id: { type: "string", description: "補助金ID（例: a0WJ200000CDR9HMAX）" } },
      required: ["subsidy_id"],
    },
  },
  {
    server: "jgrants",
    name: "get_subsidy_overview",
    qualifiedName: "jgrants__get_subsidy_overview",
    description: "補助金の最新状況を把握します。締切期間別、金額規模別の集計を提供。",
    readOnly: true,
    inputSchema: { type: "object", properties: { output_format: { type: "string", default: "json" } } },
  },
  {
    server: "jgrants",
    name: "ping",
    qualifiedName: "jgrants__ping",
    description: "サーバーの応答を確認するためのユーティリティ。",
    readOnly: true,
    inputSchema: { type: "object", properties: {} },
  },
];

/** A Gemini config pointing at the fake server, with small timeouts. */
export function geminiConfig(baseUrl: string, overrides: Partial<GeminiConfig> = {}): GeminiConfig {
  return {
    apiKey: "test-key-not-secret",
    model: "gemini-2.5-flash",
    baseUrl,
    timeoutMs: 5000,
    turnBudgetMs: 25_000,
    maxRetries: 2,
    ...overrides,
  };
}

/** The i-th id used in fixtures (18 characters, like jGrants ids). */
export const fixtureId = (i: number) => `a0WJ200000CD${String(i).padStart(4, "0")}MAX`;

/** A history turn showing n subsidies. */
export function historyTurn(question: string, n: number, start = 1): HistoryTurn {
  return {
    question,
    answer: `「${question}」の回答です。`.repeat(5),
    subsidies: Array.from({ length: n }, (_, k) => ({
      id: fixtureId(start + k),
      title: `令和8年度 中小企業デジタル化・IT導入支援補助金 第${start + k}回 特別枠（長い名称が続きます）`,
    })),
    conditions: { keywords: ["IT導入"], area: "東京都", acceptance: "1" },
    at: "2026-08-22T01:00:00.000Z",
  };
}

/** A search round and a round of 5 detail fetches, summarised at the domain's maximum length. */
export function detailedRounds(): RoundSummary[] {
  const search = {
    call: {
      server: "jgrants",
      tool: "search_subsidies",
      args: { keyword: "IT導入", target_area_search: "東京都" },
    },
    isError: false,
    hitCount: 42,
    ids: Array.from({ length: 20 }, (_, k) => fixtureId(k + 1)),
    summary:
      `42件: ${Array.from({ length: 5 }, (_, k) => `${fixtureId(k + 1)} 令和8年度 中小企業デジタル化・IT導入支援補助金（受付中、締切2026/12/17(木) 23:59）`).join(", ")}`.slice(
        0,
        400,
      ),
  };
  const details = Array.from({ length: 5 }, (_, k) => ({
    call: { server: "jgrants", tool: "get_subsidy_detail", args: { subsidy_id: fixtureId(k + 1) } },
    isError: false,
    ids: [fixtureId(k + 1)],
    summary:
      `詳細 ${fixtureId(k + 1)} 令和8年度 中小企業デジタル化・IT導入支援補助金: 上限1,000万円、補助率2/3 以内又は 1/2 以内、受付中、締切2026/12/17(木) 23:59、地域東京都 ${"ほか".repeat(100)}`.slice(
        0,
        400,
      ),
  }));
  return [
    { round: 1, calls: [search] },
    { round: 2, calls: details },
  ];
}

/** A planning input with the jgrants tools. */
export function planInput(overrides: Partial<PlanInput> = {}): PlanInput {
  return {
    question: "東京都でITツール導入とDXに使える補助金を探しています",
    history: [],
    tools: JGRANTS_TOOLS,
    rounds: [],
    now: new Date("2026-08-22T00:00:00Z"),
    ...overrides,
  };
}
