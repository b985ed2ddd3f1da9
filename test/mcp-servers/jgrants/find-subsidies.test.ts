/**
 * find_subsidies through a real MCP client: ranked items carry their score, fit, matched words (as the user
 * wrote them), a snippet around the first of them and the programme's other rounds; bad arguments come
 * back as an official-style error result the planner can read.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callJson, connectInMemory } from "./helpers.ts";

const now = () => new Date("2026-08-22T12:00:00+09:00");
let session: Awaited<ReturnType<typeof connectInMemory>>;
beforeAll(async () => {
  session = await connectInMemory({ now });
});
afterAll(async () => {
  await session.close();
});

describe("find_subsidies", () => {
  it("returns ranked items with score, fit, matched words as written, a snippet and the data source", async () => {
    const result = await callJson(session.client, "find_subsidies", {
      query: "電子カルテを入れたいクリニックです",
      limit: 5,
    });
    expect(result.match).toBe("good");
    expect(result.subsidies.length).toBeGreaterThan(0);
    expect(result.total_count).toBeGreaterThanOrEqual(result.subsidies.length);
    const [top] = result.subsidies;
    expect(top).toMatchObject({ fits: true, matched_terms: expect.arrayContaining(["電子カルテ"]) });
    expect(top.score).toBeGreaterThan(0);
    expect(top.coverage).toBeGreaterThan(0);
    expect(top.snippet).toMatch(/電子カルテ/);
    expect(top.front_subsidy_detail_page_url).toMatch(/^https:\/\/www\.jgrants-portal\.go\.jp\/subsidy\//);
    expect(result.search_conditions).toMatchObject({
      query: "電子カルテを入れたいクリニックです",
      open_on: "2026-08-22",
    });
    expect(result.data_source).toEqual({ mode: "snapshot", as_of: "2026-08-22" });
    // Scores come best first.
    const scores = result.subsidies.map((s: { score: number }) => s.score);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
  });

  it("groups a programme's rounds into one item that lists the others", async () => {
    const result = await callJson(session.client, "find_subsidies", {
      query: "ものづくり・商業・サービス生産性向上促進補助金",
      include_closed: true,
      limit: 10,
    });
    const mono = result.subsidies.filter((s: { title: string }) =>
      s.title.includes("ものづくり・商業・サービス生産性向上促進補助金"),
    );
    expect(mono).toHaveLength(1);
    expect(mono[0].rounds.length).toBeGreaterThan(0);
    expect(mono[0].rounds[0]).toMatchObject({ id: expect.any(String), label: expect.any(String) });
  });

  it("answers bad arguments with an error the planner can read", async () => {
    expect((await callJson(session.client, "find_subsidies", {})).error).toMatch(/query/);
    expect((await callJson(session.client, "find_subsidies", { query: "省エネ", limit: 0 })).error).toMatch(
      /limit/,
    );
    expect(
      (await callJson(session.client, "find_subsidies", { query: "省エネ", open_on: "8/22" })).error,
    ).toMatch(/open_on/);
  });
});
