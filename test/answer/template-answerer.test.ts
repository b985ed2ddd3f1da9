import { describe, expect, it } from "vitest";
import type { AnswerInput } from "../../src/answer/answerer.ts";
import { createTemplateAnswerer, renderSubsidyFacts } from "../../src/answer/template-answerer.ts";
import { areaText } from "../../src/answer/template-facts.ts";
import { subsidyFromDetail } from "../../src/subsidies/index.ts";
import type { DataSource, Subsidy } from "../../src/types.ts";
import { SNAPSHOT_RECORDS } from "../fakes/snapshot-records.ts";

type Rec = Record<string, unknown>;
const records: Rec[] = SNAPSHOT_RECORDS;
const snapshot: DataSource = { mode: "snapshot", asOf: "2026-08-22" };
const now = new Date("2026-07-06T00:00:00Z");
const real = (id: string): Subsidy =>
  subsidyFromDetail(
    records.find((r) => r.id === id),
    snapshot,
    now,
  )!;
const M_AND_A = real("a0WJ200000CDapgMAD"); // 1,000万円, ends 2026/07/24(金) 17:30
const BIG = real("a0WJ200000CDYt5MAH"); // 6億6,000万円, closed on 2026-06-22

const input = (over: Partial<AnswerInput> = {}): AnswerInput => ({
  question: "事業承継の補助金",
  subsidies: [M_AND_A, BIG],
  totalCount: 9,
  conditions: { keywords: ["事業承継"], area: "全国", acceptance: "1" },
  focus: { kind: "search" },
  history: [],
  source: snapshot,
  notes: [],
  now,
  ...over,
});
const answerer = createTemplateAnswerer();
const compose = async (over: Partial<AnswerInput> = {}) => (await answerer.compose(input(over))).text;

describe("renderSubsidyFacts", () => {
  it("shows the data's amount, rate, deadline with days left, status, area, size and link", () => {
    const text = renderSubsidyFacts(M_AND_A, 1);
    expect(text).toContain(`**1. ${M_AND_A.title}**`);
    expect(text).toContain("- 上限額: 1,000万円");
    expect(text).toContain("- 補助率: 2/3 以内又は 1/2 以内");
    expect(text).toContain("- 締切: 2026/07/24(金) 17:30（あと18日）");
    expect(text).toContain("- 受付状況: 受付中");
    expect(text).toContain("- 対象地域: 全国");
    expect(text).toContain("- 従業員規模: 従業員数の制約なし");
    expect(text).toContain("[Jグランツで見る](https://www.jgrants-portal.go.jp/subsidy/a0WJ200000CDapgMAD)");
  });

  it("marks closed calls and amounts in 億円", () => {
    const text = renderSubsidyFacts(BIG, 2);
    expect(text).toContain("- 上限額: 6億6,000万円");
    expect(text).toMatch(/- 締切: 2026\/06\/22\(月\) 12:00（受付終了）/);
    expect(text).toContain("- 受付状況: 受付終了");
  });

  it("says 公募要領を確認 for missing values and 本日締切 on the last day", () => {
    const bare: Subsidy = {
      ...M_AND_A,
      maxAmountYen: null,
      maxAmountText: "公募要領を確認",
      rate: null,
      area: null,
      daysLeft: 0,
    };
    const text = renderSubsidyFacts(bare, 3);
    expect(text).toContain("- 上限額: 公募要領を確認");
    expect(text).toContain("- 補助率: 公募要領を確認");
    expect(text).toContain("（本日締切）");
  });
});

describe("createTemplateAnswerer", () => {
  it("is offline and costs nothing", async () => {
    const out = await answerer.compose(input());
    expect(answerer.mode).toBe("offline");
    expect(out).toMatchObject({ llmCalls: 0, promptBytes: 0 });
  });

  it("writes a summary line with conditions and data date, blocks, 他にN件, a tip and attribution", async () => {
    const text = await compose();
    const lines = text.split("\n");
    expect(lines[0]).toBe("「事業承継」（全国）で9件見つかりました。上位2件を紹介します。");
    // The snapshot's date is said once, beside the first card's status.
    expect(text.match(/2026-08-22/g)).toHaveLength(1);
    expect(text).toContain("- 受付状況: 2026-08-22時点: 受付中");
    expect(text).toContain("**1. ");
    expect(text).toContain("**2. ");
    expect(text).toContain("他に7件あります。");
    expect(text).toContain("💡 従業員数");
    expect(text).toContain("出典: Jグランツ（デジタル庁）");
    expect(text).toContain("公式ページ");
    expect(text.indexOf("1,000万円")).toBeLessThan(text.indexOf("6億6,000万円"));
  });

  it("omits 他にN件 when everything is shown, and includes notes", async () => {
    const text = await compose({
      totalCount: 2,
      notes: ["Geminiが使えないため、簡易モードで回答しました。"],
    });
    expect(text).not.toMatch(/他に\d+件/);
    expect(text).toContain("※ Geminiが使えないため、簡易モードで回答しました。");
  });

  it("shows live data without a data date: its statuses are as of now", async () => {
    const text = await compose({ source: { mode: "live", asOf: "2026-11-29T10:00:00Z" } });
    expect(text).not.toContain("時点");
    expect(text).toContain("- 受付状況: 受付中\n");
  });

  it("says the snapshot date once even when the agent's snapshot note is present", async () => {
    const text = await compose({
      notes: [
        "2026-08-22時点のデータ（オフラインの収録データ）です。最新の情報はJグランツでご確認ください。",
      ],
    });
    expect(text.match(/2026-08-22/g)).toHaveLength(1);
  });

  it("reads one result as one result: no 上位1件, no hint about a second", async () => {
    const text = await compose({ subsidies: [M_AND_A], totalCount: 1 });
    expect(text.split("\n")[0]).toBe("「事業承継」（全国）で1件見つかりました。");
    expect(text).not.toContain("上位1件");
    expect(text).not.toContain("2番目");
  });

  it("says so on zero hits and suggests other words", async () => {
    const text = await compose({
      subsidies: [],
      totalCount: 0,
      conditions: { keywords: ["IT導入"], area: "東京都" },
    });
    expect(text).toContain(
      "「IT導入」（東京都）で探しましたが、ご質問にはっきり合う受付中の補助金は見つかりませんでした。",
    );
    expect(text).toContain("「DX」");
    expect(text).toContain("条件を広げて");
    expect(text).toContain("※ 2026-08-22時点のデータです。");
    expect(text).toContain("出典: Jグランツ");
  });

  it("shows the full facts of one subsidy for a detail focus, answering the asked field first", async () => {
    const text = await compose({
      question: "それの補助率は？",
      subsidies: [M_AND_A],
      totalCount: 1,
      focus: { kind: "detail", ids: [M_AND_A.id] },
    });
    expect(text.startsWith("補助率は **2/3 以内又は 1/2 以内** です。")).toBe(true);
    expect(text).toContain(`**${M_AND_A.title}**`);
    expect(text).toContain("- 利用目的: 事業を引き継ぎたい");
    expect(text).toContain("- 概要: 事業承継・M&A補助金");
    expect(text).toContain("- 受付開始: 2026/06/19(金) 15:00");
    expect(text).toContain("- 複数回申請: 不可（1事業者1回）");
    // The programme name in institution_name is not an institution.
    expect(text).not.toContain("実施機関");
    expect(text).not.toMatch(/他に\d+件|見つかりました|\*\*1\. /);
  });

  it("shows a city programme's city, its attachments by name, the project end and the portal link", async () => {
    const kurume = real("a0WJ200000CDbPLMA1");
    const text = await compose({
      question: "1番目の詳細は？",
      subsidies: [kurume],
      totalCount: 1,
      focus: { kind: "detail", ids: [kurume.id] },
    });
    expect(text).toContain("- 対象地域: 福岡県久留米市");
    expect(text).toMatch(/- 事業終了期限: \d{4}\/\d{2}\/\d{2}/);
    expect(text).toMatch(/- 添付資料:\n {2}- 公募要領: .+\.pdf/);
    expect(text).toContain(`[Jグランツで見る](${kurume.url})`);
  });

  it("answers 補助率は？ plainly when the data has no rate", async () => {
    const text = await compose({
      question: "それの補助率は？",
      subsidies: [{ ...M_AND_A, rate: null }],
      totalCount: 1,
      focus: { kind: "detail", ids: [M_AND_A.id] },
    });
    expect(text.startsWith("補助率はJグランツのデータに記載がありません。公募要領でご確認ください。")).toBe(
      true,
    );
  });

  it("notes a re-sort", async () => {
    const text = await compose({ focus: { kind: "resort", sort: "acceptance_end_datetime", order: "ASC" } });
    expect(text.split("\n")[0]).toContain("並べ替えて上位2件");
  });
});

describe("areaText", () => {
  it.each([
    ["全国 / 北海道 / 青森県 / 岩手県", "全国"],
    ["東京都", "東京都"],
    ["東京都 / 神奈川県", "東京都・神奈川県"],
    ["北海道 / 青森県 / 岩手県 / 宮城県 / 秋田県", "北海道・青森県・岩手県 ほか2地域"],
    [null, "公募要領を確認"],
  ])("%s → %s", (area, text) => {
    expect(areaText(area)).toBe(text);
  });
});

describe("notes", () => {
  it("are listed once each, without doubled ※, and the data date is not repeated", async () => {
    const text = await compose({
      subsidies: [],
      totalCount: 0,
      notes: [
        "2026-08-22時点のデータ（オフラインの収録データ）です。",
        "※この回答は会話履歴に保存できませんでした。",
      ],
    });
    expect(text).toContain("※ 2026-08-22時点のデータ（オフラインの収録データ）です。");
    expect(text).toContain("※ この回答は会話履歴に保存できませんでした。");
    expect(text).not.toContain("※ ※");
    expect(text.match(/2026-08-22/g)).toHaveLength(1);
  });
});

describe("detail focus without data", () => {
  it("says the requested subsidy was not found, naming the id", async () => {
    const text = await compose({
      subsidies: [],
      totalCount: 0,
      focus: { kind: "detail", ids: ["a0WJ200000CDxxxMAX"] },
    });
    expect(text).toContain("ご指定の補助金（ID: a0WJ200000CDxxxMAX）の情報が見つかりませんでした。");
    expect(text).not.toContain("に合う補助金は見つかりませんでした");
    expect(text).toContain("出典: Jグランツ");
  });
});
