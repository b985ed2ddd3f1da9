import { describe, expect, it } from "vitest";
import { createSnapshotSource } from "../../src/mcp-servers/jgrants/snapshot-source.ts";
import { SUMMARY_MAX_CHARS, summariseCall } from "../../src/subsidies/index.ts";
import type { ToolCall, ToolResult } from "../../src/types.ts";
import { SNAPSHOT_RECORDS } from "../fakes/snapshot-records.ts";

type Rec = Record<string, unknown>;
const records: Rec[] = SNAPSHOT_RECORDS;

const now = new Date("2026-07-01T00:00:00Z");
const search: ToolCall = { server: "jgrants", tool: "search_subsidies", args: { keyword: "補助金" } };
const detail: ToolCall = {
  server: "jgrants",
  tool: "get_subsidy_detail",
  args: { subsidy_id: "a0WJ200000CDapgMAD" },
};
const ok = (call: ToolCall, data: unknown): ToolResult => ({
  call,
  isError: false,
  data,
  text: JSON.stringify(data),
  durationMs: 3,
});
const BASE64 =
  "JVBERi0xLjQKJcfsj6IKNSAwIG9iago8PC9MZW5ndGggNiAwIFIvRmlsdGVyIC9GbGF0ZURlY29kZT4+CnN0cmVhbQp4nCvkMlAwUDC1";

describe("summariseCall", () => {
  it("summarises a broad search: count, ids, titles, bounded", async () => {
    const source = createSnapshotSource({ now: () => now });
    const data = await source.search({
      keyword: "補助金",
      sort: "acceptance_end_datetime",
      order: "ASC",
      acceptance: 0,
    } as never);
    const s = summariseCall(search, ok(search, data), now);
    expect(s.isError).toBe(false);
    expect(s.hitCount).toBeGreaterThan(100);
    expect(s.ids?.length).toBe(20);
    expect(s.summary.startsWith(`${s.hitCount}件: a0`)).toBe(true);
    expect(s.summary.length).toBeLessThanOrEqual(SUMMARY_MAX_CHARS);
    expect(s.call).toBe(search);
  });

  it("says 0件 for no hits", () => {
    const s = summariseCall(
      search,
      ok(search, { total_count: 0, subsidies: [], search_conditions: {} }),
      now,
    );
    expect(s).toMatchObject({ hitCount: 0, summary: "0件", ids: [] });
  });

  it("never leaks HTML or base64 from a detail", () => {
    const record = {
      ...records.find((r) => r.id === "a0WJ200000CDapgMAD"),
      application_guidelines: [{ name: "a.pdf", data: BASE64.repeat(50) }],
    };
    const s = summariseCall(detail, ok(detail, { result: [record] }), now);
    expect(s.ids).toEqual(["a0WJ200000CDapgMAD"]);
    expect(s.summary).toContain("上限1,000万円");
    expect(s.summary).toContain("補助率2/3 以内又は 1/2 以内");
    expect(s.summary).not.toMatch(/<|style=|JVBERi/);
    expect(s.summary.length).toBeLessThanOrEqual(SUMMARY_MAX_CHARS);
  });

  it("reports errors: isError results and the official {error} results", () => {
    const failed: ToolResult = {
      call: search,
      isError: true,
      text: "",
      error: "HTTPエラー: 503",
      durationMs: 1,
    };
    expect(summariseCall(search, failed, now)).toMatchObject({
      isError: true,
      summary: "エラー: HTTPエラー: 503",
    });
    const inline = summariseCall(detail, ok(detail, { error: "補助金ID 'x' が見つかりません" }), now);
    expect(inline).toMatchObject({ isError: true, summary: "エラー: 補助金ID 'x' が見つかりません" });
  });

  it("sanitises other tools' text: no tags, no base64, bounded", () => {
    const call: ToolCall = { server: "fetch", tool: "fetch", args: { url: "https://example.jp" } };
    const text = `<html><body><p>本文</p><img src="data:image/png;base64,${BASE64}">${BASE64.repeat(20)} ${"長".repeat(2000)}</body></html>`;
    const s = summariseCall(call, { call, isError: false, text, durationMs: 1 }, now);
    expect(s.summary).toContain("本文");
    expect(s.summary).not.toMatch(/<|JVBERi|base64/);
    expect(s.summary.length).toBeLessThanOrEqual(SUMMARY_MAX_CHARS);
  });
});
