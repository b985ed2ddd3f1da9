import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { Ajv } from "ajv";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callJson, connectInMemory } from "./helpers.ts";
import {
  OFFICIAL_DETAIL_KEYS,
  OFFICIAL_ERRORS,
  OFFICIAL_PROMPTS,
  OFFICIAL_RESOURCES,
  OFFICIAL_TOOLS,
} from "./official-tools.fixture.ts";

let client: Client;
let close: () => Promise<unknown>;

beforeAll(async () => {
  ({ client, close } = await connectInMemory({}));
});
afterAll(async () => close());

type Schema = { type?: string; anyOf?: Array<{ type: string }>; default?: unknown };

function typeOf(schema: Schema): string {
  if (schema.anyOf) {
    const types = [...new Set(schema.anyOf.map((s) => s.type))].sort();
    return types.join("|") === "null|string" ? "nullable-string" : types.join("|");
  }
  return schema.type ?? "?";
}

describe("compatibility with the official jGrants MCP server", () => {
  it("offers the same tools, parameter names, types, defaults and required lists", async () => {
    const listed = (await client.listTools()).tools;
    // find_subsidies is our additive ranked tool; every official tool is there unchanged.
    expect(listed.map((t) => t.name).sort()).toEqual(
      [...Object.keys(OFFICIAL_TOOLS), "find_subsidies"].sort(),
    );
    const tools = listed.filter((t) => t.name !== "find_subsidies");
    for (const tool of tools) {
      const official = OFFICIAL_TOOLS[tool.name]!;
      const properties = (tool.inputSchema.properties ?? {}) as Record<string, Schema>;
      // Every official parameter is there with the same type and default; `limit` is our only addition.
      for (const [name, param] of Object.entries(official.params)) {
        expect(properties[name], `${tool.name}.${name}`).toBeDefined();
        expect(typeOf(properties[name]!), `${tool.name}.${name} type`).toBe(param.type);
        expect(properties[name]!.default, `${tool.name}.${name} default`).toEqual(param.default);
      }
      const extra = Object.keys(properties).filter((p) => !(p in official.params));
      expect(extra).toEqual(tool.name === "search_subsidies" ? ["limit"] : []);
      expect([...(tool.inputSchema.required ?? [])].sort()).toEqual([...official.required].sort());
      expect(tool.annotations?.readOnlyHint).toBe(true);
    }
  });

  it("lets a strict client send several values joined with ' / ', and only known ones", async () => {
    const { tools } = await client.listTools();
    const search = tools.find((t) => t.name === "search_subsidies")!;
    const ajv = new Ajv({ strict: false });
    const validate = ajv.compile(search.inputSchema);
    const ok = (args: Record<string, unknown>) => validate({ keyword: "補助金", ...args });
    expect(ok({ target_area_search: "東京都" })).toBe(true);
    expect(ok({ target_area_search: "東京都 / 全国" })).toBe(true);
    expect(ok({ industry: "農業、林業 / 製造業" })).toBe(true);
    expect(ok({ target_number_of_employees: "20名以下 / 従業員数の制約なし" })).toBe(true);
    expect(ok({ target_area_search: null })).toBe(true);
    expect(ok({ target_area_search: "東京" })).toBe(false);
    expect(ok({ target_area_search: "東京都 / 火星" })).toBe(false);
    expect(ok({ target_area_search: "東京都/全国" })).toBe(false);
  });

  it("adds JSON-Schema enums from jgrants-enums.json while still accepting null", async () => {
    const { tools } = await client.listTools();
    const search = tools.find((t) => t.name === "search_subsidies")!;
    type Prop = { enum?: unknown[]; anyOf?: Array<{ type: string; enum?: unknown[] }> };
    const props = search.inputSchema.properties as Record<string, Prop>;
    const area = props.target_area_search!.anyOf!.find((s) => s.type === "string")!;
    expect(area.enum).toContain("東京都");
    expect(area.enum).toContain("全国");
    expect(props.target_area_search!.anyOf!.map((s) => s.type)).toEqual(["string", "string", "null"]);
    expect(props.industry!.anyOf![0]!.enum).toContain("農業、林業");
    expect(props.target_number_of_employees!.anyOf![0]!.enum).toContain("20名以下");
    expect(props.use_purpose!.anyOf![0]!.enum).toContain("設備整備・IT導入をしたい");
    expect(props.sort!.enum).toEqual([
      "created_date",
      "acceptance_start_datetime",
      "acceptance_end_datetime",
    ]);
    expect(props.order!.enum).toEqual(["ASC", "DESC"]);
    const result = await callJson(client, "search_subsidies", {
      keyword: "補助金",
      industry: null,
      use_purpose: null,
    });
    expect(result.total_count).toBeGreaterThan(0);
  });

  it("has the two prompts and the guidelines resource", async () => {
    const { prompts } = await client.listPrompts();
    expect(prompts.map((p) => p.name).sort()).toEqual([...OFFICIAL_PROMPTS].sort());
    const guide = await client.getPrompt({ name: "subsidy_search_guide" });
    expect((guide.messages[0]!.content as { text: string }).text).toContain("jGrants補助金検索ガイド");
    const agreement = await client.getPrompt({ name: "api_usage_agreement" });
    expect((agreement.messages[0]!.content as { text: string }).text).toContain("出典");
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toEqual(OFFICIAL_RESOURCES);
    const read = await client.readResource({ uri: "jgrants://guidelines" });
    expect((read.contents[0] as { text: string }).text).toContain("jGrants MCP サーバー利用ガイドライン");
  });

  it("returns the official error strings as ordinary results", async () => {
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ["search_subsidies", { keyword: "a" }, OFFICIAL_ERRORS.keyword],
      ["search_subsidies", { keyword: "   " }, OFFICIAL_ERRORS.keyword],
      ["search_subsidies", { keyword: "x".repeat(10_000) }, OFFICIAL_ERRORS.keyword],
      ["search_subsidies", { keyword: 42 }, OFFICIAL_ERRORS.keyword],
      ["search_subsidies", { keyword: "補助金", acceptance: 2 }, OFFICIAL_ERRORS.acceptance],
      ["search_subsidies", { keyword: "補助金", sort: "title" }, OFFICIAL_ERRORS.sort],
      ["search_subsidies", { keyword: "補助金", order: "UP" }, OFFICIAL_ERRORS.order],
      ["get_subsidy_detail", { subsidy_id: "" }, OFFICIAL_ERRORS.subsidyId],
      ["get_subsidy_detail", {}, OFFICIAL_ERRORS.subsidyId],
      [
        "get_subsidy_detail",
        { subsidy_id: "a0WJ000000NOPE0MAX" },
        OFFICIAL_ERRORS.notFound("a0WJ000000NOPE0MAX"),
      ],
    ];
    for (const [tool, args, error] of cases) {
      const result = await client.callTool({ name: tool, arguments: args });
      expect(result.isError, `${tool} ${JSON.stringify(args).slice(0, 40)}`).toBeFalsy();
      expect(result.structuredContent).toEqual({ error });
    }
  });

  it("keeps the official result shapes (detail keys, search keys, ping)", async () => {
    const search = await callJson(client, "search_subsidies", { keyword: "補助金" });
    expect(Object.keys(search).slice(0, 3)).toEqual(["total_count", "subsidies", "search_conditions"]);
    expect(search.search_conditions).toEqual({
      keyword: "補助金",
      sort: "acceptance_end_datetime",
      order: "ASC",
      acceptance: "1",
    });
    expect(search.total_count).toBe(search.subsidies.length);
    const detail = await callJson(client, "get_subsidy_detail", { subsidy_id: search.subsidies[0].id });
    for (const key of OFFICIAL_DETAIL_KEYS) expect(detail).toHaveProperty(key);
    expect(Object.keys(detail.target).sort()).toEqual(["area", "employees", "industry", "purpose"]);
    expect(["受付中", "受付終了"]).toContain(detail.status);
    const ping = await callJson(client, "ping");
    expect(ping).toMatchObject({ status: "ok", server: "jGrants MCP Server", version: "2.0.0" });
    expect(Number.isNaN(Date.parse(ping.timestamp))).toBe(false);
  });
});
