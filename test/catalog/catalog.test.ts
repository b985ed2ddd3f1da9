/** The catalog over the bundled snapshot: analysis, hard filters, grouping, procedural pages, the fit. */
import { describe, expect, it } from "vitest";
import { createCatalog } from "../../src/catalog/catalog.ts";
import { toEntry } from "../../src/catalog/entry.ts";
import { analyseQuery } from "../../src/catalog/query.ts";
import { snapshotRecordSource } from "../../src/catalog/record-source.ts";
import { snippetOf } from "../../src/catalog/snippet.ts";
import { bigrams, fold } from "../../src/catalog/text.ts";
import { tightenCjk } from "../../src/subsidies/text.ts";

const now = () => new Date("2026-08-22T12:00:00+09:00");
const catalog = createCatalog(snapshotRecordSource(), { now });
const titles = (r: ReturnType<typeof catalog.find>) => r.hits.map((h) => h.entry.title);

describe("text analysis", () => {
  it("folds width and case, keeps compounds whole and splits them only as alternatives", () => {
    expect(fold("ＩｏＴとＷｉ－Ｆｉ")).toBe("iotとwi-fi");
    expect(bigrams("厨房機器")).toEqual(["厨房", "房機", "機器"]);
    const needs = analyseQuery("厨房機器を新しくしたい。福岡市のラーメン屋で従業員5名");
    expect(needs[0]!.from).toBe("厨房機器");
    expect(needs[0]!.alternatives.map((a) => a.text)).toEqual(expect.arrayContaining(["厨房", "機器"]));
    // Place names, head counts and generic words are filters or noise, never needs.
    const words = needs.map((n) => n.from);
    for (const noise of ["福岡市", "従業員", "5名", "補助金"]) expect(words).not.toContain(noise);
  });

  it("reads everyday phrases as the need they state, and removes spaces inside Japanese words", () => {
    const needs = analyseQuery("人が足りないので困っています");
    expect(needs.flatMap((n) => n.alternatives.map((a) => a.text))).toContain("人材確保");
    expect(tightenCjk("全 国の 事業者 and Wi-Fi 環境")).toBe("全国の事業者 and Wi-Fi 環境");
  });
});

describe("ranked search", () => {
  it("finds a subsidy by a word of its text, says why it matched, and judges the fit good", () => {
    const r = catalog.find("電子カルテを入れたいクリニック", {}, 5);
    expect(r.match).toBe("good");
    expect(r.hits[0]!.matched.map((m) => m.from)).toContain("電子カルテ");
    expect(snippetOf(r.hits[0]!.entry, r.hits[0]!.matched)).toMatch(/電子カルテ/);
  });

  it("says 'weak' when only related records exist", () => {
    expect(catalog.find("宇宙旅行に行きたい", {}, 5).match).not.toBe("good");
  });

  it("a city means that city, its prefecture-wide programmes and 全国, never another city's", () => {
    const r = catalog.find("創業したい", { area: "福岡県", city: "福岡市" }, 50);
    for (const h of r.hits) {
      expect(h.entry.city === null || h.entry.city === "福岡市").toBe(true);
      expect(h.entry.areas.some((a) => a === "全国" || a === "福岡県")).toBe(true);
    }
    const munakata = catalog.find("創業したい", { area: "福岡県", city: "宗像市" }, 50);
    expect(titles(munakata).some((t) => t.includes("宗像"))).toBe(true);
    expect(titles(r).some((t) => t.includes("宗像"))).toBe(false);
  });

  it("a head count excludes programmes whose limit excludes it", () => {
    const r = catalog.find("設備投資", { employees: 400 }, 50);
    for (const h of r.hits) {
      const max = h.entry.employees?.max ?? Number.POSITIVE_INFINITY;
      expect(max).toBeGreaterThanOrEqual(400);
    }
  });

  it("never lists procedural pages, and groups the rounds of one programme into one card", () => {
    const r = catalog.find("女性活躍 奨励金 撤回 ものづくり 生産性向上", { includeClosed: true }, 50);
    expect(titles(r).filter((t) => /撤回届|変更届|中止届/.test(t))).toEqual([]);
    const mono = r.hits.filter((h) =>
      h.entry.title.includes("ものづくり・商業・サービス生産性向上促進補助金"),
    );
    expect(mono).toHaveLength(1);
    expect(mono[0]!.rounds.length).toBeGreaterThan(0);
    // Claims after the project are pages of a programme, not one to apply for.
    const after = catalog.find("設備投資 事業完了後 危機管理対策", { includeClosed: true }, 50);
    expect(titles(after).filter((t) => /事業完了後/.test(t))).toEqual([]);
  });

  it("only open records by default: a deadline passed by the clock is never listed", () => {
    const at = now().getTime();
    for (const h of catalog.find("補助金 設備 IT 創業", {}, 50).hits) {
      expect(h.entry.end).not.toBeNull();
      expect(h.entry.end!).toBeGreaterThanOrEqual(at);
    }
  });

  it("reads the city of a city programme from its title", () => {
    const entry = toEntry({
      id: "a0WJ200000CDTESTMAA",
      title: "【福岡県宗像市】令和8年度 宗像市創業応援補助金",
      target_area_search: "福岡県",
    });
    expect(entry.city).toBe("宗像市");
    expect(
      toEntry({
        id: "a0WJ200000CDTES2MAA",
        title: "京都市企業立地促進制度補助金",
        target_area_search: "全国",
      }).areas,
    ).toEqual(["京都府"]);
  });
});
