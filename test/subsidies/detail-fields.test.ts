/**
 * The details a follow-up shows, read from real records in each shape: the REST detail (the snapshot's
 * raw record), and our MCP server's detail result (formatDetail, the same code the server runs).
 */
import { describe, expect, it } from "vitest";
import { formatDetail } from "../../src/mcp-servers/jgrants/format-detail.ts";
import type { JgrantsRecord } from "../../src/mcp-servers/jgrants/types.ts";
import { cityOf, institutionOf } from "../../src/subsidies/detail-fields.ts";
import { readDetailResult, subsidyFromDetail, summaryOf, tightenCjk } from "../../src/subsidies/index.ts";
import { areaLabel, detailRows, shortList, statusLabel } from "../../src/subsidies/present.ts";
import type { DataSource } from "../../src/types.ts";
import { SNAPSHOT_RECORDS } from "../fakes/snapshot-records.ts";

const snapshot: DataSource = { mode: "snapshot", asOf: "2026-08-22" };
const now = new Date("2026-08-22T03:00:00Z");
const KURUME = SNAPSHOT_RECORDS.find((r) => r.id === "a0WJ200000CDbPLMA1")!;

describe("details of a subsidy", () => {
  it("reads attachments by name, the project end and multiple applications from the REST record", () => {
    const s = subsidyFromDetail(KURUME, snapshot, now)!;
    const guidelines = (KURUME.application_guidelines as Array<{ name: string }>)[0]!.name;
    expect(s.attachments).toContainEqual({ kind: "公募要領", name: guidelines });
    expect(s.projectEnd?.jst).toMatch(/^\d{4}\/\d{2}\/\d{2}\(.\)/);
    expect(s.multipleApplications).toBe(false);
    expect(s.city).toBe("久留米市");
    expect(areaLabel(s)).toBe("福岡県久留米市");
    expect(detailRows(s).map((r) => r.label)).toEqual(
      expect.arrayContaining(["受付開始", "事業終了期限", "複数回申請"]),
    );
  });

  it("reads the same from our MCP server's detail result, without any file body", () => {
    const payload = formatDetail(KURUME as JgrantsRecord, now.getTime(), {
      mode: "snapshot",
      as_of: "2026-08-22",
    });
    const s = readDetailResult(JSON.parse(JSON.stringify(payload)), now)!;
    const direct = subsidyFromDetail(KURUME, snapshot, now)!;
    expect(s.attachments?.map((a) => a.kind)).toEqual(direct.attachments?.map((a) => a.kind));
    expect(s.projectEnd).toEqual(direct.projectEnd);
    expect(s.multipleApplications).toBe(false);
    expect(s.url).toMatch(/^https:\/\/www\.jgrants-portal\.go\.jp\/subsidy\//);
  });

  it("converts a detail's HTML afresh when it changed, and reads one result once per instant", () => {
    const dataSource = { mode: "snapshot" as const, as_of: "2026-08-22" };
    const first = formatDetail(KURUME as JgrantsRecord, now.getTime(), dataSource);
    const again = formatDetail(KURUME as JgrantsRecord, now.getTime(), dataSource);
    expect(again.description_text).toBe(first.description_text);
    const changed = { ...KURUME, detail: "<p>内容を<b>変更</b>しました</p>" } as JgrantsRecord;
    expect(formatDetail(changed, now.getTime(), dataSource).description_text).toBe("内容を変更しました");
    const data = JSON.parse(JSON.stringify(first));
    expect(readDetailResult(data, now)).toBe(readDetailResult(data, new Date(now)));
    const later = new Date(now.getTime() + 86_400_000);
    expect(readDetailResult(data, later)).not.toBe(readDetailResult(data, now));
    expect(readDetailResult(data, later)).toEqual(subsidyFromDetail(data, snapshot, later));
  });

  it("leaves 実施機関 out when the field holds the programme's name", () => {
    const names = SNAPSHOT_RECORDS.map((r) => r.institution_name).filter((n) => typeof n === "string");
    expect(names.length).toBeGreaterThan(100);
    expect(names.map((n) => institutionOf(n as string)).filter(Boolean)).toEqual([]);
    expect(institutionOf("中小企業庁")).toBe("中小企業庁");
    expect(institutionOf("東京都産業労働局")).toBe("東京都産業労働局");
  });

  it.each([
    ["【福岡県宗像市】令和8年度 食のまち宗像推進補助金", "食のまち宗像推進補助金", "福岡県", "宗像市"],
    ["令和8年度 がんばる中小企業者応援補助金", "宗像市がんばる中小企業者応援補助金", "福岡県", "宗像市"],
    ["都市ガス分野の災害対応・レジリエンス強化", null, "東京都", null],
    ["東京都中小企業障害者雇用支援助成金", null, "東京都", null],
    ["宗像市創業応援補助金", null, "全国", null],
  ])("finds the city of %s", (title, programme, area, city) => {
    expect(cityOf(title, programme, area)).toBe(city);
  });

  it("puts the snapshot's date beside the status only when asked, and never for live data", () => {
    const s = subsidyFromDetail(KURUME, snapshot, now)!;
    expect(statusLabel(s, true)).toBe(`2026-08-22時点: ${s.status}`);
    expect(statusLabel(s)).toBe(s.status);
    expect(statusLabel({ ...s, source: { mode: "live" } }, true)).toBe(s.status);
  });
});

describe("summary cleaning", () => {
  it("removes spaces between Japanese characters and keeps those between Latin words", () => {
    expect(tightenCjk("全 国の 地域の 魅力を Web site と IT tools で")).toBe(
      "全国の地域の魅力を Web site と IT tools で",
    );
    expect(summaryOf(null, "<p>地域の <span>魅力</span> を発信</p>")).toBe("地域の魅力を発信");
  });

  it("joins a sentence cut by a paragraph break, and keeps a break after a heading as one space", () => {
    expect(summaryOf(null, "<p>地域の</p><p>魅力を高める</p>")).toBe("地域の魅力を高める");
    expect(summaryOf(null, "<p>全</p><p>国どこでも、課題の解決</p><p>の切り札</p>")).toBe(
      "全国どこでも、課題の解決の切り札",
    );
    expect(summaryOf(null, "<p>支援します。</p><p>対象は</p><ul><li>中小企業</li></ul>")).toBe(
      "支援します。 対象は ・中小企業",
    );
    expect(summaryOf(null, "<p>■目的・概要</p><p>デジタル技術は</p>")).toBe("■目的・概要 デジタル技術は");
  });
});

describe("long lists in details", () => {
  it("name up to five industries, else four and how many more", () => {
    const all = "漁業 / 建設業 / 製造業 / 情報通信業 / 運輸業、郵便業 / 卸売業、小売業 / 医療、福祉";
    expect(shortList(all, "業種")).toBe("漁業 / 建設業 / 製造業 / 情報通信業 ほか3業種");
    expect(shortList("製造業 / 情報通信業", "業種")).toBe("製造業 / 情報通信業");
  });
});
