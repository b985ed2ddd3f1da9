import { describe, expect, it } from "vitest";
import { neighboursOf } from "../../src/catalog/domain-terms.ts";
import { deadlineWindow, employeeBucket, employeeFilter, extractFilters } from "../../src/planner/filters.ts";
import { extractKeywords, shorterWordsOf } from "../../src/planner/keywords.ts";

const keywordsOf = (q: string) => extractKeywords(extractFilters(q.normalize("NFKC")).rest);

describe("extractKeywords (real questions)", () => {
  it.each([
    ["東京都でITツール導入の補助金を探しています", ["ITツール導入"]],
    ["従業員15人の製造業で使える省エネ設備の補助金はある？", ["省エネ設備"]],
    ["横浜市の飲食店が販路開拓に使える助成金を教えて", ["販路開拓"]],
    ["事業承継やM&Aの補助金", ["事業承継", "M&A"]],
    ["ものづくり補助金の締切が近いもの", ["ものづくり"]],
    ["中小企業のDX推進、デジタル化支援", ["DX推進", "デジタル化"]],
    ["子育て支援と空き家改修の補助金", ["子育て", "空き家改修"]],
    ["賃上げに使える補助金ありますか", ["賃上げ"]],
    ["創業したばかりのスタートアップ向け", ["創業", "スタートアップ"]],
    ["ＩＴ導入補助金", ["IT導入"]],
    ["北海道で農業を始めたい", ["農業"]],
    ["観光、インバウンド、海外展開、輸出の補助金", ["観光", "インバウンド", "海外展開"]],
    ["補助金を教えてください", []],
  ])("%s → %j", (q, expected) => {
    expect(keywordsOf(q)).toEqual(expected);
  });

  it("never returns 1-character words or more than the maximum", () => {
    for (const w of extractKeywords("犬と猫と鳥、省エネ、脱炭素、創業、雇用、観光、農業")) {
      expect(Array.from(w).length).toBeGreaterThanOrEqual(2);
    }
    expect(extractKeywords("省エネ、脱炭素、創業、雇用、観光、農業")).toHaveLength(3);
  });

  it("offers shorter words and neighbours for broadening", () => {
    expect(shorterWordsOf("ITツール導入")).toEqual(["ITツール", "IT", "ツール"]);
    expect(shorterWordsOf("空き家改修")).toEqual(["空き家", "改修"]);
    expect(neighboursOf("IT導入")).toEqual(["ITツール", "DX", "デジタル化", "IT"]);
    expect(neighboursOf("ITツール導入").slice(0, 3)).toEqual(["IT導入", "ITツール", "DX"]);
    expect(neighboursOf("省エネ")).toContain("脱炭素");
    expect(neighboursOf("創業")).toEqual(expect.arrayContaining(["起業", "スタートアップ"]));
    expect(neighboursOf("販路開拓")).toEqual(expect.arrayContaining(["販路拡大", "展示会"]));
    expect(neighboursOf("賃上げ")).toEqual(expect.arrayContaining(["賃金", "最低賃金"]));
    expect(neighboursOf("海外展開")).toContain("輸出");
    expect(neighboursOf("人材")).toEqual(expect.arrayContaining(["雇用", "研修"]));
    expect(neighboursOf("未知の語")).toEqual([]);
  });
});

describe("extractFilters", () => {
  it.each([
    ["東京都のDX", "東京都"],
    ["東京でDX", "東京都"],
    ["京都のDX", "京都府"],
    ["大阪市の飲食店", "大阪府"],
    ["横浜で創業", "神奈川県"],
    ["札幌のスタートアップ", "北海道"],
    ["名古屋の製造業", "愛知県"],
    ["渋谷区のIT企業", "東京都"],
    ["九州の観光", "九州・沖縄地方"],
    ["関西の展示会", "近畿地方"],
    ["全国で使えるもの", "全国"],
    ["沖縄で観光", "沖縄県"],
  ])("area: %s → %s", (q, area) => {
    expect(extractFilters(q).area).toBe(area);
  });

  it("blanks place names out of the keyword text", () => {
    expect(extractFilters("東京都でDX").rest).not.toContain("東京");
    expect(extractFilters("横浜市で創業").rest).not.toMatch(/横浜|市/);
  });

  it.each([
    ["従業員15人の会社", "20名以下"],
    ["社員50名の建設会社", "50名以下"],
    ["従業員は3人です", "5名以下"],
    ["スタッフ120名", "300名以下"],
    ["1000人規模の企業", "901名以上"],
    ["従業員数 900 名", "900名以下"],
    ["個人事業主です", "5名以下"],
  ])("employees: %s → %s and larger buckets", (q, bucket) => {
    const value = extractFilters(q.normalize("NFKC")).employees ?? "";
    expect(value.split(" / ")[0]).toBe(bucket);
    expect(value.endsWith("従業員数の制約なし")).toBe(true);
  });

  it("joins the bucket, the larger buckets and 制約なし with the API separator", () => {
    expect(employeeFilter(15)).toBe(
      "20名以下 / 50名以下 / 100名以下 / 300名以下 / 900名以下 / 従業員数の制約なし",
    );
    expect(employeeFilter(2000)).toBe("901名以上 / 従業員数の制約なし");
  });

  it("maps head counts to the API buckets", () => {
    expect([1, 5, 6, 20, 21, 50, 100, 101, 300, 900, 901].map(employeeBucket)).toEqual([
      "5名以下",
      "5名以下",
      "20名以下",
      "20名以下",
      "50名以下",
      "50名以下",
      "100名以下",
      "300名以下",
      "300名以下",
      "900名以下",
      "901名以上",
    ]);
  });

  it.each([
    ["製造業の補助金", "製造業"],
    ["町工場の設備投資", "製造業"],
    ["飲食店の補助金", "宿泊業、飲食サービス業"],
    ["旅館の改修", "宿泊業、飲食サービス業"],
    ["IT企業向け", "情報通信業"],
    ["建設会社の人材育成", "建設業"],
    ["小売店のキャッシュレス", "卸売業、小売業"],
    ["運送業の省エネ", "運輸業、郵便業"],
  ])("industry: %s → %s", (q, industry) => {
    const f = extractFilters(q);
    expect(f.industry).toBe(industry);
    expect(f.industryWords.length).toBe(1);
  });

  it.each([
    ["創業したい", "新たな事業を行いたい"],
    ["海外展開したい", "販路拡大・海外展開をしたい"],
    ["事業承継", "事業を引き継ぎたい"],
    ["ITツールを入れたい", "設備整備・IT導入をしたい"],
    ["賃上げ", "雇用・職場環境を改善したい"],
    ["脱炭素", "エコ・SDGs活動支援がほしい"],
    ["子育て", "教育・子育て・少子化支援がほしい"],
    ["防災", "安全・防災対策支援がほしい"],
    ["空き家", "まちづくり・地域振興支援がほしい"],
  ])("purpose: %s → %s", (q, purpose) => {
    expect(extractFilters(q).purpose).toBe(purpose);
  });

  it("reads deadline words as sort and acceptance", () => {
    expect(extractFilters("締切が近いDXの補助金")).toMatchObject({
      sort: "acceptance_end_datetime",
      order: "ASC",
      acceptance: "1",
    });
    expect(extractFilters("今月締切の補助金")).toMatchObject({
      sort: "acceptance_end_datetime",
      acceptance: "1",
    });
    expect(extractFilters("新着のDX補助金")).toMatchObject({ sort: "created_date", order: "DESC" });
    expect(extractFilters("受付終了したものも含めて").acceptance).toBe("0");
    expect(extractFilters("DXの補助金").sort).toBeUndefined();
  });

  it("computes deadline windows in JST", () => {
    const now = new Date("2026-08-22T03:00:00Z");
    expect(deadlineWindow("今月締切の補助金", now)?.to.toISOString()).toBe("2026-08-31T14:59:59.999Z");
    expect(deadlineWindow("来月までに締切", now)?.to.toISOString()).toBe("2026-09-30T14:59:59.999Z");
    expect(deadlineWindow("30日以内に締め切り", now)?.to.toISOString()).toBe("2026-09-21T14:59:59.999Z");
    expect(deadlineWindow("DXの補助金", now)).toBeNull();
  });
});

describe("keyword bounds", () => {
  it("cuts pasted runs to a search-sized word and ignores empty input", () => {
    const [word] = extractKeywords("ア".repeat(400));
    expect(Array.from(word ?? "").length).toBe(30);
    expect(extractKeywords("")).toEqual([]);
    expect(extractKeywords("？？？")).toEqual([]);
  });
});
