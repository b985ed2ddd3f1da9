/**
 * The fit as a business owner judges it, over a small catalog of made-up records: a programme for
 * another sector ranks below those anyone can use and does not lead the fit; a top hit that only shares a
 * word of its title does not hide a real fit below it; who the asker speaks of is not a need.
 */
import { describe, expect, it } from "vitest";
import { createCatalog } from "../../src/catalog/catalog.ts";
import { analyseQuery } from "../../src/catalog/query.ts";
import { recordSourceOf } from "../../src/catalog/record-source.ts";
import { outOfSector, programmeSectors, questionSectors } from "../../src/catalog/sectors.ts";
import type { JgrantsRecord } from "../../src/mcp-servers/jgrants/types.ts";

let n = 0;
function record(title: string, detail: string, extra: Partial<JgrantsRecord> = {}): JgrantsRecord {
  n += 1;
  return {
    id: `a0WTEST${String(n).padStart(11, "0")}`,
    name: `S-${n}`,
    title,
    subsidy_catch_phrase: "",
    detail,
    target_area_search: "全国",
    acceptance_start_datetime: "2026-01-01T00:00:00.000Z",
    acceptance_end_datetime: "2027-03-31T14:59:00.000Z",
    ...extra,
  } as JgrantsRecord;
}

function catalogOf(records: JgrantsRecord[]) {
  const source = recordSourceOf(records, { origin: "snapshot", asOf: "2026-11-30" });
  return createCatalog(source, { now: () => new Date("2026-12-01T12:00:00+09:00") });
}

const filler = Array.from({ length: 30 }, (_, k) =>
  record(`地域振興イベント支援事業（その${k + 1}）`, "地域のお祭りや催しの開催経費を助成します。"),
);

describe("sectors", () => {
  it("reads the sector a title targets and the one a question places the business in", () => {
    expect(
      programmeSectors("令和７年度こどもdx推進に向けた医療機関等におけるマイナンバーカード利活用推進事業"),
    ).toEqual(["医療"]);
    expect(programmeSectors("建築gx・dx推進事業")).toEqual(["建設"]);
    // Buildings are any owner's: 建築物 is not the construction sector.
    expect(programmeSectors("業務用建築物の脱炭素改修加速化事業")).toEqual([]);
    expect(programmeSectors("小規模事業者デジタル化支援補助金")).toEqual([]);
    expect(questionSectors("小児科クリニックを開業したい")).toEqual(new Set(["医療"]));
    expect(questionSectors("グループホームを運営しています")).toEqual(new Set(["介護・福祉・保育"]));
    expect(outOfSector(["医療"], questionSectors("IT導入に使える補助金は？"))).toBe(true);
    expect(outOfSector(["医療"], questionSectors("歯科医院でIT導入"))).toBe(false);
    expect(outOfSector([], new Set())).toBe(false);
  });

  it("ranks a programme for another sector below the ones anyone can use, and lets none lead the fit", () => {
    const general = record(
      "小規模事業者デジタル化支援補助金",
      "ITツールの導入やデジタル化の経費を補助します。",
    );
    const medical = record(
      "医療機関等におけるデジタル化推進事業補助金",
      "医療機関が行うデジタル化、ITツールの導入を補助します。デジタル化 デジタル化",
    );
    const catalog = catalogOf([medical, general, ...filler]);
    const r = catalog.find("デジタル化に使える補助金は？", {}, 5);
    expect(r.match).toBe("good");
    expect(r.hits.map((h) => h.entry.id)).toEqual([general.id, medical.id]);
    expect(r.hits[0]!.fits).toBe(true);

    // Asked by a clinic, the medical programme is theirs.
    const clinic = catalog.find("クリニックでデジタル化に使える補助金は？", {}, 5);
    expect(clinic.hits[0]!.entry.id).toBe(medical.id);

    // Only a programme for another sector: the answer is honest that nothing clearly fits.
    const onlyMedical = catalogOf([medical, ...filler]).find("デジタル化に使える補助金は？", {}, 5);
    expect(onlyMedical.match).toBe("weak");
  });

  it("a top hit that only shares a word of its title does not hide a real fit just below it", () => {
    const lure = record(
      "ＩＴ関連企業誘致奨励金",
      "ＩＴ企業が市内に事務所を開設する経費を奨励します。ＩＴ ＩＴ 導入",
    );
    const real = record("小規模事業者デジタル化支援補助金", "IT導入の経費を補助します。");
    const r = catalogOf([lure, real, ...filler]).find("IT導入に使える補助金は？", {}, 5);
    expect(r.match).toBe("good");
    const fitting = r.hits.filter((h) => h.fits).map((h) => h.entry.id);
    expect(fitting).toEqual([real.id]);
  });

  it("treats who the asker speaks of as context, not a need (「息子に継がせたい」 is about 事業承継)", () => {
    const succession = record("事業承継支援補助金", "後継者への事業承継に要する経費を補助します。");
    const r = catalogOf([succession, ...filler]).find("事業を息子に継がせたい", {}, 5);
    expect(r.match).toBe("good");
    expect(r.hits[0]!.entry.id).toBe(succession.id);
  });

  it("a need met only by a loose synonym never makes the fit good; its own word or a close one does", () => {
    const growth = record(
      "中堅・中小・スタートアップの大規模成長投資補助金",
      "スタートアップ等が行う大規模な設備投資を補助します。",
    );
    const question = "ラーメン屋を新しく開業する予定です。使える補助金はありますか？";
    const loose = catalogOf([growth, ...filler]).find(question, {}, 5);
    expect(loose.hits.map((h) => h.entry.id)).toContain(growth.id);
    expect(loose.match).toBe("weak");

    const startup = record("創業支援補助金", "市内で新たに創業する方の開業費用を補助します。");
    const r = catalogOf([growth, startup, ...filler]).find(question, {}, 5);
    expect(r.match).toBe("good");
    expect(r.hits.filter((h) => h.fits).map((h) => h.entry.id)).toEqual([startup.id]);
  });

  it("reads a phrase inside a longer word as related, not the same: 搾乳ロボット is not any ロボット", () => {
    const recycling = record("資源循環設備導入補助金", "選別ロボット等の自動化設備の導入を補助します。");
    const r = catalogOf([recycling, ...filler]).find("搾乳ロボットを入れたい", {}, 5);
    expect(r.hits.map((h) => h.entry.id)).toContain(recycling.id);
    expect(r.match).toBe("weak");
    // 「教室を開きたい」 is opening a business: 創業 is among its needs.
    const needs = analyseQuery("パソコン教室を開きたい");
    expect(needs.flatMap((n) => n.alternatives.map((a) => a.text))).toContain("創業");
  });
});
