/** The planner's tool selection: picked by kind from the tool names, so a ranked find_subsidies fits in. */
import { describe, expect, it } from "vitest";
import { offeredTools, toolKind } from "../../src/planner/gemini-tools.ts";
import type { ToolInfo } from "../../src/types.ts";
import { planInput } from "./gemini-fixtures.ts";

const tool = (server: string, name: string): ToolInfo => ({
  server,
  name,
  qualifiedName: `${server}__${name}`,
  description: name,
  inputSchema: { type: "object" },
  readOnly: true,
});

const TOOLS = [
  tool("jgrants", "find_subsidies"),
  tool("jgrants", "search_subsidies"),
  tool("jgrants", "get_subsidy_detail"),
  tool("jgrants", "get_subsidy_overview"),
  tool("time", "now"),
  tool("fetch", "fetch"),
  tool("shop", "list_orders"),
];

describe("gemini tool selection", () => {
  it("tells the kinds apart by name and server", () => {
    expect(TOOLS.map(toolKind)).toEqual(["search", "search", "detail", "overview", "time", "fetch", "other"]);
  });

  it("offers search, detail and other tools for an ordinary question; the ranked search replaces the literal one", () => {
    const names = offeredTools(planInput({ tools: TOOLS })).map((t) => t.name);
    expect(names).toEqual(["find_subsidies", "get_subsidy_detail", "list_orders"]);
    const literalOnly = TOOLS.filter((t) => t.name !== "find_subsidies");
    expect(offeredTools(planInput({ tools: literalOnly })).map((t) => t.name)).toContain("search_subsidies");
  });

  it("adds fetch for a question with a URL", () => {
    const input = planInput({ tools: TOOLS, question: "https://example.jp/hojo の補助金は使える？" });
    expect(offeredTools(input).map((t) => t.name)).toContain("fetch");
  });

  it("offers only search tools after searches that all found nothing", () => {
    const call = { server: "jgrants", tool: "find_subsidies", args: { query: "量子" } };
    const rounds = [{ round: 1, calls: [{ call, isError: false, summary: "0件", hitCount: 0 }] }];
    const names = offeredTools(planInput({ tools: TOOLS, rounds })).map((t) => t.name);
    expect(names).toEqual(["find_subsidies"]);
  });
});
