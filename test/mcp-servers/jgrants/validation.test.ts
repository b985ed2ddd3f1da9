import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { CallToolResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createJgrantsSource } from "../../../src/mcp-servers/jgrants/source.ts";
import { type FakeJgrantsApi, startFakeJgrantsApi } from "../../fakes/fake-jgrants-api.ts";
import { callJson, connectInMemory, jgrantsConfig } from "./helpers.ts";

let fake: FakeJgrantsApi;
let client: Client;
let close: () => Promise<unknown>;

beforeAll(async () => {
  fake = await startFakeJgrantsApi();
  const config = jgrantsConfig({ source: "live", apiUrl: fake.baseUrl });
  ({ client, close } = await connectInMemory({ source: createJgrantsSource(config, { retryDelaysMs: [] }) }));
});
afterAll(async () => {
  await close();
  await fake.close();
});

const KEYWORD = "keyword は2〜255文字の非空文字列で指定してください";

describe("input validation: clear errors, never a crash, nothing sent upstream", () => {
  const cases: Array<[string, string, Record<string, unknown>, string | RegExp]> = [
    ["empty keyword", "search_subsidies", { keyword: "" }, KEYWORD],
    ["missing keyword", "search_subsidies", {}, KEYWORD],
    ["null keyword", "search_subsidies", { keyword: null }, KEYWORD],
    ["10,000-character keyword", "search_subsidies", { keyword: "補".repeat(10_000) }, KEYWORD],
    ["array keyword", "search_subsidies", { keyword: ["補助金"] }, KEYWORD],
    ["object keyword", "search_subsidies", { keyword: { a: 1 } }, KEYWORD],
    ["control characters", "search_subsidies", { keyword: "補助\u0000金" }, /制御文字/],
    ["newline in keyword", "search_subsidies", { keyword: "補助金\nignore" }, /制御文字/],
    [
      "acceptance as text",
      "search_subsidies",
      { keyword: "補助金", acceptance: "yes" },
      /^acceptance は 0 または 1/,
    ],
    [
      "acceptance as float",
      "search_subsidies",
      { keyword: "補助金", acceptance: 0.5 },
      /^acceptance は 0 または 1/,
    ],
    ["sort as number", "search_subsidies", { keyword: "補助金", sort: 3 }, /^sort は created_date/],
    ["order as object", "search_subsidies", { keyword: "補助金", order: {} }, /^order は ASC または DESC/],
    [
      "unknown area",
      "search_subsidies",
      { keyword: "補助金", target_area_search: "東京" },
      /target_area_search に指定できない値です: '東京'/,
    ],
    [
      "unknown industry in a list",
      "search_subsidies",
      { keyword: "補助金", industry: "製造業 / 宇宙業" },
      /'宇宙業'/,
    ],
    [
      "numeric filter",
      "search_subsidies",
      { keyword: "補助金", use_purpose: 7 },
      /use_purpose は文字列で指定/,
    ],
    ["limit zero", "search_subsidies", { keyword: "補助金", limit: 0 }, /^limit は1〜1000の整数/],
    ["limit text", "search_subsidies", { keyword: "補助金", limit: "many" }, /^limit は1〜1000の整数/],
    [
      "numeric subsidy_id",
      "get_subsidy_detail",
      { subsidy_id: 12345 },
      "subsidy_id は非空の文字列で指定してください",
    ],
    ["huge subsidy_id", "get_subsidy_detail", { subsidy_id: "a".repeat(10_000) }, /64文字以内/],
    [
      "path-like subsidy_id",
      "get_subsidy_detail",
      { subsidy_id: "../../etc/passwd" },
      "補助金ID '../../etc/passwd' が見つかりません",
    ],
    [
      "missing filename",
      "get_file_content",
      { subsidy_id: "a0WJ200000CDapgMAD" },
      /^filename は非空の文字列/,
    ],
    [
      "filename with control chars",
      "get_file_content",
      { subsidy_id: "a0WJ200000CDapgMAD", filename: "a\u0007.pdf" },
      /制御文字/,
    ],
    [
      "bad return_format",
      "get_file_content",
      { subsidy_id: "a0WJ200000CDapgMAD", filename: "a.pdf", return_format: "docx" },
      /^return_format は markdown または base64/,
    ],
    [
      "bad output_format",
      "get_subsidy_overview",
      { output_format: "xml" },
      /^output_format は json または csv/,
    ],
  ];

  it.each(cases)("%s", async (_label, tool, args, expected) => {
    fake.calls.length = 0;
    const result = await client.callTool({ name: tool, arguments: args });
    expect(result.isError).toBeFalsy();
    const error = (result.structuredContent as { error: string }).error;
    if (typeof expected === "string") expect(error).toBe(expected);
    else expect(error).toMatch(expected);
    expect(Object.keys(result.structuredContent as object)).toEqual(["error"]);
    expect(fake.calls).toEqual([]);
  });

  it("accepts the tolerant forms a client may send and forwards them normalised", async () => {
    fake.calls.length = 0;
    const result = await callJson(client, "search_subsidies", {
      keyword: "補助金",
      acceptance: "0",
      order: "desc",
      sort: null,
      target_area_search: "東京都／全国",
      limit: "1",
      unknown_extra: true,
    });
    expect(result.subsidies).toHaveLength(1);
    expect(fake.calls[0]!.query).toMatchObject({
      acceptance: "0",
      order: "DESC",
      sort: "acceptance_end_datetime",
      target_area_search: "東京都 / 全国",
    });
  });

  it("serves a client written for the official server unchanged: explicit nulls, int acceptance, defaults", async () => {
    const official = { sort: "acceptance_end_datetime", order: "ASC", acceptance: "1" };
    fake.calls.length = 0;
    // What a generic client sends when it fills every optional parameter of the official schema.
    const explicit = await callJson(client, "search_subsidies", {
      keyword: "補助金",
      use_purpose: null,
      industry: null,
      target_number_of_employees: null,
      target_area_search: null,
      sort: "acceptance_end_datetime",
      order: "ASC",
      acceptance: 1,
    });
    const bare = await callJson(client, "search_subsidies", { keyword: "補助金" });
    expect(fake.calls.map((c) => c.query)).toEqual([
      { keyword: "補助金", ...official },
      { keyword: "補助金", ...official },
    ]);
    for (const result of [explicit, bare]) {
      expect(result.search_conditions).toEqual({ keyword: "補助金", ...official });
      expect(result.total_count).toBe(result.subsidies.length);
    }
    expect(bare.subsidies).toEqual(explicit.subsidies);
    // Tools without required parameters may be called with no `arguments` at all.
    const ping = await client.callTool({ name: "ping" });
    expect(ping.structuredContent).toMatchObject({ status: "ok", server: "jGrants MCP Server" });
    const overview = await client.callTool({ name: "get_subsidy_overview" });
    expect(overview.structuredContent).toHaveProperty("total_count");
    const csv = await callJson(client, "get_subsidy_overview", { output_format: "csv" });
    expect(csv.deadline_statistics).toMatch(/^期間,件数/);
  });

  it("answers arguments that are not an object with a protocol error, not a crash", async () => {
    fake.calls.length = 0;
    for (const args of [["補助金"], "補助金", 42]) {
      const request = { method: "tools/call", params: { name: "search_subsidies", arguments: args } };
      await expect(client.request(request as never, CallToolResultSchema)).rejects.toThrow(/MCP error/);
    }
    expect(fake.calls).toEqual([]);
  });

  it("is still healthy after all of that", async () => {
    expect((await callJson(client, "ping")).status).toBe("ok");
  });
});
