import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createSnapshotSource } from "../../../src/mcp-servers/jgrants/snapshot-source.ts";
import type { SearchParams } from "../../../src/mcp-servers/jgrants/types.ts";
import { readDetailResult } from "../../../src/subsidies/index.ts";
import { callJson, connectInMemory, jgrantsConfig } from "./helpers.ts";

const dir = mkdtempSync(join(tmpdir(), "jgrants-snapshot-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const base = {
  subsidy_max_limit: 1_000_000,
  target_number_of_employees: "従業員数の制約なし",
  institution_name: null,
  subsidy_catch_phrase: null,
  detail: null,
  use_purpose: null,
  industry: null,
  front_subsidy_detail_page_url: null,
};
const records = [
  {
    ...base,
    id: "a0WJ200000CDAAAMAA",
    name: "S-00000300",
    title: "IoT導入支援補助金",
    target_area_search: "東京都",
    acceptance_start_datetime: "2026-08-01T00:00:00.000Z",
    acceptance_end_datetime: "2026-08-31T14:59:00.000Z",
    industry: "製造業 / 農業、林業",
    use_purpose: "設備整備・IT導入をしたい",
    target_number_of_employees: "20名以下",
  },
  {
    ...base,
    id: "a0WJ200000CDBBBMAA",
    name: "S-00000100",
    title: "全国 販路開拓事業補助金",
    subsidy_catch_phrase: "ｶﾀｶﾅで書かれた キャッチ",
    target_area_search: "全国",
    acceptance_start_datetime: "2026-07-01T00:00:00.000Z",
    acceptance_end_datetime: "2026-09-30T14:59:00.000Z",
    industry: "卸売業、小売業",
    use_purpose: "販路拡大・海外展開をしたい",
  },
  {
    ...base,
    id: "a0WJ200000CDCCCMAA",
    name: "S-00000200",
    title: "大阪府 設備補助金（受付前）",
    detail: "<p>ものづくり企業の<b>設備投資</b>を支援</p>",
    target_area_search: "大阪府 / 兵庫県",
    acceptance_start_datetime: "2026-10-01T00:00:00.000Z",
    acceptance_end_datetime: "2026-12-01T14:59:00.000Z",
  },
  {
    ...base,
    id: "a0WJ200000CDDDDMAA",
    name: "S-00000050",
    title: "終了した設備補助金",
    target_area_search: "全国 / 東京都",
    acceptance_start_datetime: "2026-01-01T00:00:00.000Z",
    acceptance_end_datetime: "2026-03-31T14:59:00.000Z",
  },
  {
    ...base,
    id: "a0WJ200000CDEEEMAA",
    name: null,
    title: "日付だけ分かる設備補助金",
    target_area_search: null,
    acceptance_start_datetime: null,
    acceptance_end_datetime: null,
    _acceptance_end_date_jst: "2026-08-22",
  },
];
const path = join(dir, "subsidies.json");
writeFileSync(path, JSON.stringify({ as_of: "2026-08-22", records }));

const at = (iso: string) => () => new Date(iso);
const params = (p: Partial<SearchParams>): SearchParams => ({
  keyword: "補助金",
  sort: "acceptance_end_datetime",
  order: "ASC",
  acceptance: 0,
  ...p,
});
const ids = (result: Record<string, unknown>) =>
  (result.subsidies as Array<{ id: string }>).map((s) => s.id.slice(12, 15));

describe("snapshot search semantics", () => {
  const source = createSnapshotSource({ path, now: at("2026-08-22T03:00:00Z") });

  it("matches keywords after NFKC normalisation and case folding, on title, catch phrase and detail", async () => {
    expect(ids(await source.search(params({ keyword: "ＩＯＴ" })))).toEqual(["AAA"]);
    expect(ids(await source.search(params({ keyword: "iot導入" })))).toEqual(["AAA"]);
    expect(ids(await source.search(params({ keyword: "カタカナ" })))).toEqual(["BBB"]);
    expect(ids(await source.search(params({ keyword: "設備投資" })))).toEqual(["CCC"]);
    expect(ids(await source.search(params({ keyword: "存在しない語" })))).toEqual([]);
  });

  it("filters with ' / ' lists (OR within a filter, AND across filters)", async () => {
    expect(ids(await source.search(params({ industry: "農業、林業" })))).toEqual(["AAA"]);
    expect(ids(await source.search(params({ industry: "卸売業、小売業 / 製造業" })))).toEqual(["AAA", "BBB"]);
    expect(ids(await source.search(params({ use_purpose: "販路拡大・海外展開をしたい" })))).toEqual(["BBB"]);
    expect(ids(await source.search(params({ target_number_of_employees: "20名以下" })))).toEqual(["AAA"]);
    expect(
      ids(
        await source.search(params({ industry: "製造業", target_number_of_employees: "従業員数の制約なし" })),
      ),
    ).toEqual([]);
    expect(ids(await source.search(params({ target_area_search: "兵庫県" })))).toEqual(["CCC"]);
  });

  it("does not include 全国 subsidies under a prefecture filter unless 全国 is named too", async () => {
    expect(ids(await source.search(params({ target_area_search: "東京都" })))).toEqual(["DDD", "AAA"]);
    expect(ids(await source.search(params({ target_area_search: "東京都 / 全国" })))).toEqual([
      "DDD",
      "AAA",
      "BBB",
    ]);
    expect(ids(await source.search(params({ target_area_search: "全国" })))).toEqual(["DDD", "BBB"]);
  });

  it("sorts by each field in both orders, unknown values last", async () => {
    expect(ids(await source.search(params({})))).toEqual(["DDD", "EEE", "AAA", "BBB", "CCC"]);
    expect(ids(await source.search(params({ order: "DESC" })))).toEqual(["CCC", "BBB", "AAA", "EEE", "DDD"]);
    expect(ids(await source.search(params({ sort: "acceptance_start_datetime" })))).toEqual([
      "DDD",
      "BBB",
      "AAA",
      "CCC",
      "EEE",
    ]);
    // created_date is not in the snapshot: the S-number (issued in creation order) stands in.
    expect(ids(await source.search(params({ sort: "created_date", order: "DESC" })))).toEqual([
      "AAA",
      "CCC",
      "BBB",
      "DDD",
      "EEE",
    ]);
  });

  it("judges acceptance=1 against the injected clock, including date-only deadlines", async () => {
    const onAug22 = await source.search(params({ acceptance: 1 }));
    expect(ids(onAug22)).toEqual(["EEE", "AAA", "BBB"]);
    const later = createSnapshotSource({ path, now: at("2026-10-15T00:00:00Z") });
    expect(ids(await later.search(params({ acceptance: 1 })))).toEqual(["CCC"]);
    const early = createSnapshotSource({ path, now: at("2026-02-01T00:00:00Z") });
    // EEE's start is unknown: a known, future deadline alone counts as open.
    expect(ids(await early.search(params({ acceptance: 1 })))).toEqual(["DDD", "EEE"]);
  });

  it("judges 'open now' on the real date by default; the snapshot's as_of is only a label", async () => {
    const plain = createSnapshotSource({ path });
    const result = await plain.search(params({ acceptance: 1 }));
    const pinned = await createSnapshotSource({ path, now: () => new Date() }).search(
      params({ acceptance: 1 }),
    );
    expect(ids(result)).toEqual(ids(pinned));
    expect(ids(result)).not.toEqual(["EEE", "AAA", "BBB"]);
    expect(result.data_source).toEqual({ mode: "snapshot", as_of: "2026-08-22" });
  });

  it("applies limit after sorting and keeps total_count as the number of hits", async () => {
    const result = await source.search(params({ limit: 2 }));
    expect(ids(result)).toEqual(["DDD", "EEE"]);
    expect(result.total_count).toBe(5);
    expect(result.returned_count).toBe(2);
  });

  it("returns list fields only in search results", async () => {
    const result = await source.search(params({ keyword: "設備投資" }));
    const item = (result.subsidies as Array<Record<string, unknown>>)[0]!;
    expect(Object.keys(item)).not.toContain("detail");
    expect(item.title).toBe("大阪府 設備補助金（受付前）");
  });

  it("formats detail with the additive fields and a four-valued acceptance status", async () => {
    const detail = await source.detail("a0WJ200000CDCCCMAA");
    expect(detail.status).toBe("受付中"); // the official rule only looks at the end
    expect(detail.acceptance_status).toBe("受付前");
    expect(detail.description_text).toBe("ものづくり企業の設備投資を支援");
    expect(detail.portal_url).toBe("https://www.jgrants-portal.go.jp/subsidy/a0WJ200000CDCCCMAA");
    expect(await source.detail("a0WJ200000CDZZZMAA")).toEqual({
      error: "補助金ID 'a0WJ200000CDZZZMAA' が見つかりません",
    });
  });

  it("counts subsidies open now in the overview (the official server always says 0)", async () => {
    const later = createSnapshotSource({ path, now: at("2026-08-22T03:00:00Z") });
    const stats = await later.overview("json");
    // The overview searches keyword 事業 with acceptance=1: only BBB, 39 days before its deadline.
    expect(stats.total_count).toBe(1);
    expect(stats.by_deadline_period).toEqual({
      accepting: 1,
      this_month: 0,
      next_month: 1,
      after_next_month: 0,
    });
    expect(stats.by_amount_range).toMatchObject({ under_1m: 1 });
    expect(stats.data_source).toEqual({ mode: "snapshot", as_of: "2026-08-22" });
    const csv = await later.overview("csv");
    expect(csv.format).toBe("csv");
    expect(csv.deadline_statistics).toBe(
      "期間,件数\r\n受付中,1\r\n今月締切,0\r\n来月締切,1\r\n再来月以降,0\r\n",
    );
  });
});

describe("the bundled snapshot through a real MCP client", () => {
  it("serves the real records with the snapshot date, and JGRANTS_NOW moves the clock", async () => {
    const { client, close } = await connectInMemory({ config: jgrantsConfig({ source: "snapshot" }) });
    const open = await callJson(client, "search_subsidies", { keyword: "補助金", limit: 3 });
    expect(open.data_source).toEqual({ mode: "snapshot", as_of: "2026-08-22" });
    expect(open.total_count).toBeGreaterThan(50);
    expect(open.subsidies).toHaveLength(3);
    const overview = await callJson(client, "get_subsidy_overview");
    expect(overview.by_deadline_period.accepting).toBeGreaterThan(0);
    expect(overview.by_deadline_period.accepting).toBe(overview.total_count);
    await close();

    const late = await connectInMemory({
      config: jgrantsConfig({ source: "snapshot", now: "2031-01-01T00:00:00Z" }),
    });
    const fewer = await callJson(late.client, "search_subsidies", { keyword: "補助金" });
    expect(fewer.total_count).toBeLessThan(open.total_count);
    await late.close();
  });

  it("lists attachment names without content and explains that the snapshot has no file bodies", async () => {
    const { client, close } = await connectInMemory({});
    const detail = await callJson(client, "get_subsidy_detail", { subsidy_id: "a0WJ200000CDbPBMA1" });
    const guideline = detail.files.application_guidelines[0];
    expect(guideline.original_name).toBe("Ｒ８公募要領【２次公募 最終版】.pdf");
    expect(guideline.size).toBeNull();
    const file = await callJson(client, "get_file_content", {
      subsidy_id: "a0WJ200000CDbPBMA1",
      filename: guideline.name,
    });
    expect(file.error).toContain("スナップショット");
    await close();
  });
});

describe("snapshot records known only by date", () => {
  it("carry their date-only deadline in list and detail results, so the deadline is shown", async () => {
    const { client, close } = await connectInMemory({});
    try {
      const id = "a0WJ200000CDYnuMAH"; // 多摩市…補助金: the sources kept only the deadline's date
      const detail = (await callJson(client, "get_subsidy_detail", { subsidy_id: id })) as Record<
        string,
        unknown
      >;
      expect(detail.acceptance_end).toBeNull();
      expect(detail._acceptance_end_date_utc).toBe("2027-03-31");
      const subsidy = readDetailResult(detail, new Date("2026-08-22T03:00:00Z"));
      expect(subsidy?.end?.jst.slice(0, 10)).toBe("2027/03/31");
      const search = (await callJson(client, "search_subsidies", {
        keyword: "ふるさと納税",
        acceptance: 0,
      })) as {
        subsidies: Array<Record<string, unknown>>;
      };
      const item = search.subsidies.find((s) => s.id === id);
      expect(item?._acceptance_end_date_utc).toBe("2027-03-31");
    } finally {
      await close();
    }
  });
});
