import { describe, expect, it } from "vitest";
import { LIST_FIELDS } from "../../src/mcp-servers/jgrants/records.ts";
import { createSnapshotSource } from "../../src/mcp-servers/jgrants/snapshot-source.ts";
import {
  mergeSubsidy,
  readDetailResult,
  readSearchResult,
  subsidyFromDetail,
  subsidyFromListItem,
} from "../../src/subsidies/index.ts";
import type { DataSource } from "../../src/types.ts";
import { SNAPSHOT_RECORDS } from "../fakes/snapshot-records.ts";

type Rec = Record<string, unknown>;
const records: Rec[] = SNAPSHOT_RECORDS;
const byId = (id: string): Rec => records.find((r) => r.id === id) as Rec;

const listItem = (r: Rec): Rec => Object.fromEntries(LIST_FIELDS.map((f) => [f, r[f] ?? null]));

const snapshot: DataSource = { mode: "snapshot", asOf: "2026-08-22" };
const now = new Date("2026-07-01T00:00:00Z");
const M_AND_A = byId("a0WJ200000CDapgMAD");

/** The official server's detail shape, built from a real record. */
function officialDetail(r: Rec): Rec {
  return {
    id: r.id,
    title: r.title,
    description: r.detail,
    subsidy_max_limit: r.subsidy_max_limit,
    acceptance_start: "2026-06-19T06:00Z",
    acceptance_end: "2026-07-24T08:30Z",
    status: "受付中",
    target: { area: "全国", industry: null, employees: r.target_number_of_employees, purpose: r.use_purpose },
    application_url: null,
    last_updated: null,
    files: { application_guidelines: [{ name: "公募要領.pdf", original_name: "公募要領.pdf", size: 1000 }] },
    save_directory: "/tmp/x",
  };
}

describe("list items (REST list shape)", () => {
  it("normalises a real record", () => {
    const s = subsidyFromListItem(listItem(M_AND_A), snapshot, now)!;
    expect(s).toMatchObject({
      id: "a0WJ200000CDapgMAD",
      name: "S-00009341",
      maxAmountYen: 10_000_000,
      maxAmountText: "1,000万円",
      start: { iso: "2026-06-19T06:00:00.000Z", jst: "2026/06/19(金) 15:00" },
      end: { iso: "2026-07-24T08:30:00.000Z", jst: "2026/07/24(金) 17:30" },
      status: "受付中",
      daysLeft: 23,
      area: "全国",
      employees: "従業員数の制約なし",
      rate: null,
      url: "https://www.jgrants-portal.go.jp/subsidy/a0WJ200000CDapgMAD",
      source: snapshot,
      detailed: false,
    });
  });

  it("normalises every snapshot record without throwing, with bounded summaries", () => {
    for (const r of records) {
      const s = subsidyFromDetail(r, snapshot, now);
      expect(s, String(r.id)).not.toBeNull();
      expect(Array.from(s!.summary).length).toBeLessThanOrEqual(200);
      expect(s!.summary).not.toMatch(/<[a-z]/i);
    }
  });

  it("reads the snapshot's date-only helpers", () => {
    const r = records.find((x) => x._acceptance_end_date_utc && !x.acceptance_end_datetime)!;
    const s = subsidyFromListItem(r, snapshot, new Date("2026-01-01T00:00Z"))!;
    expect(s.end?.jst).toMatch(/^\d{4}\/\d{2}\/\d{2}\(.\)$/);
    expect(s.end?.jst.replaceAll("/", "-").slice(0, 10)).toBe(r._acceptance_end_date_utc);
    expect(s.status).toBe("受付中");
  });

  it("treats 0 as not set, and rejects records without id or title", () => {
    const s = subsidyFromListItem({ ...listItem(M_AND_A), subsidy_max_limit: 0 }, snapshot, now)!;
    expect(s.maxAmountYen).toBeNull();
    expect(s.maxAmountText).toBe("公募要領を確認");
    expect(subsidyFromListItem({ title: "x" }, snapshot, now)).toBeNull();
    expect(subsidyFromListItem({ id: "a0WJ200000CDapgMAD" }, snapshot, now)).toBeNull();
    expect(subsidyFromListItem("nonsense", snapshot, now)).toBeNull();
    expect(subsidyFromListItem(null, snapshot, now)).toBeNull();
  });
});

describe("detail shapes", () => {
  it("reads the official server's detail (description HTML, acceptance_*, target)", () => {
    const s = readDetailResult(officialDetail(M_AND_A), now)!;
    expect(s).toMatchObject({
      id: "a0WJ200000CDapgMAD",
      maxAmountText: "1,000万円",
      end: { jst: "2026/07/24(金) 17:30" },
      status: "受付中",
      area: "全国",
      purpose: "事業を引き継ぎたい",
      rate: null,
      source: { mode: "live" },
      detailed: true,
    });
    expect(s.summary).toContain("申請にあたっての注意点");
    expect(s.summary).not.toMatch(/<|style=/);
  });

  it("reads our server's detail with additive fields (real snapshot source)", async () => {
    const source = createSnapshotSource({ now: () => now });
    const data = await source.detail("a0WJ200000CDapgMAD");
    const s = readDetailResult(data, now)!;
    expect(s).toMatchObject({
      rate: "2/3 以内又は 1/2 以内",
      industry: expect.stringContaining("製造業"),
      url: "https://www.jgrants-portal.go.jp/subsidy/a0WJ200000CDapgMAD",
      source: { mode: "snapshot", asOf: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/) },
    });
    expect(s.summary.startsWith("事業承継・M&A補助金")).toBe(true);
  });

  it("reads REST envelopes and rejects errors", () => {
    expect(readDetailResult({ result: [M_AND_A] }, now)?.rate).toBe("2/3 以内又は 1/2 以内");
    expect(readDetailResult({ error: "補助金ID 'x' が見つかりません" }, now)).toBeNull();
    expect(readDetailResult("text", now)).toBeNull();
  });

  it("merges a detail into its list item", () => {
    const base = subsidyFromListItem(listItem(M_AND_A), snapshot, now)!;
    const detail = subsidyFromDetail({ ...officialDetail(M_AND_A), subsidy_rate: "1/2" }, snapshot, now)!;
    const merged = mergeSubsidy(base, detail);
    expect(merged).toMatchObject({
      name: "S-00009341",
      rate: "1/2",
      detailed: true,
      maxAmountText: "1,000万円",
    });
    expect(merged.summary.length).toBeGreaterThan(0);
  });
});

describe("search results", () => {
  it("reads our server's result (real snapshot source)", async () => {
    const source = createSnapshotSource({ now: () => now });
    const data = await source.search({
      keyword: "事業承継",
      sort: "acceptance_end_datetime",
      order: "ASC",
      acceptance: 1,
    } as never);
    const read = readSearchResult(data, now)!;
    expect(read.totalCount).toBeGreaterThan(0);
    expect(read.subsidies.length).toBe(read.totalCount);
    expect(read.source.mode).toBe("snapshot");
    expect(read.conditions).toMatchObject({
      keywords: ["事業承継"],
      sort: "acceptance_end_datetime",
      order: "ASC",
    });
    expect(read.conditions.acceptance).toBe("1");
  });

  it("reads the official shape and the REST envelope", () => {
    const items = records.slice(0, 3).map(listItem);
    const official = readSearchResult(
      {
        total_count: 42,
        subsidies: items,
        search_conditions: { keyword: "DX", target_area_search: "東京都" },
      },
      now,
    )!;
    expect(official).toMatchObject({ totalCount: 42, source: { mode: "live" } });
    expect(official.subsidies.map((s) => s.id)).toEqual(items.map((i) => i.id));
    expect(official.conditions).toEqual({ keywords: ["DX"], area: "東京都" });
    const rest = readSearchResult({ metadata: { resultset: { count: 3 } }, result: items }, now)!;
    expect(rest.totalCount).toBe(3);
  });

  it("returns null for errors and non-search data", () => {
    expect(readSearchResult({ error: "keyword は2〜255文字の非空文字列で指定してください" }, now)).toBeNull();
    expect(readSearchResult({ foo: 1 }, now)).toBeNull();
    expect(readSearchResult(undefined, now)).toBeNull();
  });
});
