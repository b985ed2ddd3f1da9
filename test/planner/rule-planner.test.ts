import { describe, expect, it } from "vitest";
import type { CallSummary, PlanInput, RoundSummary } from "../../src/planner/planner.ts";
import { createRulePlanner } from "../../src/planner/rule-planner.ts";
import type { HistoryTurn, SearchConditions, ToolCall, ToolInfo } from "../../src/types.ts";

const tool = (server: string, name: string, props: Record<string, unknown> = {}): ToolInfo => ({
  server,
  name,
  qualifiedName: `${server}__${name}`,
  description: name,
  inputSchema: { type: "object", properties: props },
  readOnly: true,
});
const TOOLS = [
  tool("time", "get_current_time"),
  tool("jg", "search_subsidies", { keyword: {} }),
  tool("jg", "get_subsidy_detail", { subsidy_id: {} }),
];
const now = new Date("2026-08-22T00:00:00Z");
const UP_TO_20 = "20名以下 / 50名以下 / 100名以下 / 300名以下 / 900名以下 / 従業員数の制約なし";
const planner = createRulePlanner();

const plan = (question: string, extra: Partial<PlanInput> = {}) =>
  planner.plan({ question, history: [], tools: TOOLS, rounds: [], now, ...extra });

/** A round where every call got `hits` hits. */
const roundOf = (round: number, calls: ToolCall[], hits = 0): RoundSummary => ({
  round,
  calls: calls.map((call): CallSummary => ({ call, isError: false, summary: `${hits}件`, hitCount: hits })),
});

const SHOWN = [
  { id: "a0WJ200000CDapgMAD", title: "事業承継・M&A補助金" },
  { id: "a0WJ200000CDYPkMAP", title: "グローバルニッチトップ助成事業" },
  { id: "a0W5h00000ZueXcEAJ", title: "ドローンを活用したツアー造成支援補助金" },
];
const turn = (conditions: SearchConditions | null, subsidies = SHOWN): HistoryTurn => ({
  question: "前の質問",
  answer: "前の答え",
  subsidies,
  conditions,
  at: "2026-08-22T00:00:00Z",
});
const PREVIOUS = turn({
  keywords: ["事業承継", "M&A"],
  area: "東京都",
  employees: "20名以下",
  acceptance: "1",
});

describe("createRulePlanner: first round", () => {
  it("is offline, with no model and no LLM cost", async () => {
    const step = await plan("DXの補助金");
    expect(planner.mode).toBe("offline");
    expect(planner.model).toBeNull();
    expect(step).toMatchObject({ llmCalls: 0, promptBytes: 0, done: false, focus: { kind: "search" } });
  });

  it("makes one search per keyword on the server that has search_subsidies, each with a reason", async () => {
    const step = await plan("観光、インバウンド、海外展開、輸出の補助金");
    expect(step.calls.map((c) => [c.server, c.tool, c.args.keyword])).toEqual([
      ["jg", "search_subsidies", "観光"],
      ["jg", "search_subsidies", "インバウンド"],
      ["jg", "search_subsidies", "海外展開"],
    ]);
    for (const c of step.calls) expect(c.reason).toMatch(/検索/);
    expect(step.conditions?.keywords).toEqual(["観光", "インバウンド", "海外展開"]);
  });

  it("puts every filter kind into the arguments and the conditions", async () => {
    const step = await plan("横浜市で従業員15人の製造業、省エネ設備の締切が近い補助金");
    // The compound and the topic inside it: 「省エネ設備」 alone misses the 省エネ subsidies.
    expect(step.calls.map((c) => c.args.keyword)).toEqual(["省エネ設備", "省エネ"]);
    expect(step.calls[0]?.args).toEqual({
      keyword: "省エネ設備",
      target_area_search: "神奈川県 / 全国",
      target_number_of_employees: UP_TO_20,
      industry: "製造業",
      sort: "acceptance_end_datetime",
      order: "ASC",
    });
    expect(step.conditions).toEqual({
      keywords: ["省エネ設備", "省エネ"],
      area: "神奈川県",
      employees: UP_TO_20,
      industry: "製造業",
      sort: "acceptance_end_datetime",
      order: "ASC",
      acceptance: "1",
    });
  });

  it("uses the purpose filter and a broad word when the question has no search word", async () => {
    const step = await plan("大阪で人を雇用したい");
    expect(step.calls[0]?.args).toMatchObject({ keyword: "雇用", target_area_search: "大阪府 / 全国" });
    const vague = await plan("飲食店で使える補助金は？");
    // The industry is the filter; the search words are its word (ranked first) and the usual programme names.
    expect(vague.calls.map((c) => c.args)).toEqual(
      ["飲食店", "補助金", "助成金"].map((keyword) => ({ keyword, industry: "宿泊業、飲食サービス業" })),
    );
    const none = await plan("今月締切の補助金を教えて");
    expect(none.calls[0]?.args).toMatchObject({
      keyword: "補助金",
      sort: "acceptance_end_datetime",
      order: "ASC",
    });
  });

  it("asks to include closed calls when the user says so", async () => {
    const step = await plan("過去の受付終了したものも含めてDXの補助金");
    expect(step.calls[0]?.args).toMatchObject({ keyword: "DX", acceptance: 0 });
  });

  it("is done with no calls when no server offers search_subsidies", async () => {
    const step = await plan("DXの補助金", { tools: [tool("time", "get_current_time")] });
    expect(step).toMatchObject({ calls: [], done: true, conditions: null });
  });
});

describe("createRulePlanner: broadening on zero hits", () => {
  it("drops filters one by one, tries synonyms inside the area before dropping it, then shorter words, then stops", async () => {
    const question = "東京都で従業員10人の製造業、ITツール導入の補助金";
    const rounds: RoundSummary[] = [];
    const seen: string[] = [];
    for (let i = 0; i < 12; i++) {
      const step = await plan(question, { rounds });
      if (step.done) {
        expect(step.calls).toEqual([]);
        break;
      }
      for (const c of step.calls) {
        const key = JSON.stringify(c.args);
        expect(seen).not.toContain(key);
        seen.push(key);
      }
      rounds.push(roundOf(i + 1, step.calls, 0));
    }
    const described = rounds.map((r) => ({
      keywords: r.calls.map((c) => c.call.args.keyword),
      filters: Object.keys(r.calls[0]!.call.args).filter((k) => k !== "keyword"),
    }));
    const asked = ["ITツール導入", "ITツール", "IT導入"];
    const neighbours = ["DX", "デジタル化", "IT"];
    const area = "target_area_search";
    expect(described).toEqual([
      { keywords: asked, filters: [area, "target_number_of_employees", "industry"] },
      { keywords: asked, filters: [area, "target_number_of_employees"] },
      { keywords: asked, filters: [area] },
      { keywords: neighbours, filters: [area] },
      { keywords: asked, filters: [] },
      { keywords: neighbours, filters: [] },
      { keywords: ["ツール"], filters: [] },
    ]);
    expect(rounds[1]?.calls[0]?.call.reason).toContain("業種");
    expect(rounds[3]?.calls[0]?.call.reason).toContain("類義語");
    expect(rounds[4]?.calls[0]?.call.reason).toContain("地域");
    expect(rounds[6]?.calls[0]?.call.reason).toContain("短い語");
  });

  it("stops as soon as a search found something, reporting the conditions that worked", async () => {
    const first = await plan("東京都でDXの補助金");
    const second = await plan("東京都でDXの補助金", { rounds: [roundOf(1, first.calls, 0)] });
    const done = await plan("東京都でDXの補助金", {
      rounds: [roundOf(1, first.calls, 0), roundOf(2, second.calls, 4)],
    });
    // The second round searched DX's neighbours inside 東京都, and found something: those conditions stay.
    expect(second.calls.every((c) => c.args.target_area_search === "東京都 / 全国")).toBe(true);
    expect(second.calls.map((c) => c.args.keyword)).not.toContain("DX");
    expect(done).toMatchObject({ done: true, calls: [], conditions: { area: "東京都", acceptance: "1" } });
    expect(done.conditions?.keywords).toEqual(second.calls.map((c) => c.args.keyword));
  });

  it("stops when every call of the last round failed", async () => {
    const first = await plan("DXの補助金");
    const failed: RoundSummary = {
      round: 1,
      calls: first.calls.map((call) => ({ call, isError: true, summary: "エラー: HTTPエラー: 503" })),
    };
    expect(await plan("DXの補助金", { rounds: [failed] })).toMatchObject({ done: true, calls: [] });
  });
});

describe("createRulePlanner: follow-ups", () => {
  it.each([
    ["2番目の詳細は？", ["a0WJ200000CDYPkMAP"]],
    ["3つ目について詳しく", ["a0W5h00000ZueXcEAJ"]],
    ["最初のやつを教えて", ["a0WJ200000CDapgMAD"]],
    ["二番目と三番目を比べて", ["a0WJ200000CDYPkMAP", "a0W5h00000ZueXcEAJ"]],
    ["それの補助率は？", ["a0WJ200000CDapgMAD"]],
    ["その補助金の締切はいつ？", ["a0WJ200000CDapgMAD"]],
  ])("%s → detail of %j", async (question, ids) => {
    const step = await plan(question, { history: [PREVIOUS] });
    expect(step.focus).toEqual({ kind: "detail", ids });
    expect(step.calls.map((c) => [c.tool, c.args.subsidy_id])).toEqual(
      ids.map((id) => ["get_subsidy_detail", id]),
    );
    expect(step.conditions).toEqual(PREVIOUS.conditions);
    const after = await plan(question, { history: [PREVIOUS], rounds: [roundOf(1, step.calls, 1)] });
    expect(after).toMatchObject({ done: true, calls: [], focus: { kind: "detail", ids } });
  });

  it("fetches an id quoted by the user, even without history", async () => {
    const step = await plan("a0WJ200000CDYt5MAH の内容を教えて");
    expect(step.focus).toEqual({ kind: "detail", ids: ["a0WJ200000CDYt5MAH"] });
    expect(step.calls[0]).toMatchObject({
      tool: "get_subsidy_detail",
      args: { subsidy_id: "a0WJ200000CDYt5MAH" },
    });
  });

  it("uses the detail tool's own argument name", async () => {
    const tools = [tool("jg", "search_subsidies"), tool("jg", "get_subsidy_detail", { id: {} })];
    const step = await plan("2番目の詳細", { history: [PREVIOUS], tools });
    expect(step.calls[0]?.args).toEqual({ id: "a0WJ200000CDYPkMAP" });
  });

  it("大阪府なら？ → the same keywords and filters with the area replaced", async () => {
    const step = await plan("大阪府なら？", { history: [PREVIOUS] });
    expect(step.focus).toEqual({ kind: "search" });
    expect(step.calls.map((c) => c.args)).toEqual([
      { keyword: "事業承継", target_area_search: "大阪府 / 全国", target_number_of_employees: "20名以下" },
      { keyword: "M&A", target_area_search: "大阪府 / 全国", target_number_of_employees: "20名以下" },
    ]);
    expect(step.conditions).toMatchObject({ keywords: ["事業承継", "M&A"], area: "大阪府" });
  });

  it("従業員50人だと？ → the same search with the size replaced; 他には？ → the same search", async () => {
    const step = await plan("従業員50人だと？", { history: [PREVIOUS] });
    expect(step.calls[0]?.args).toEqual({
      keyword: "事業承継",
      target_area_search: "東京都 / 全国",
      target_number_of_employees: "50名以下 / 100名以下 / 300名以下 / 900名以下 / 従業員数の制約なし",
    });
    const more = await plan("他には？", { history: [PREVIOUS] });
    expect(more.calls.map((c) => c.args.keyword)).toEqual(["事業承継", "M&A"]);
  });

  it("この条件で大阪なら？ is a refinement, not a reference to one subsidy", async () => {
    const step = await plan("この条件で大阪なら？", { history: [PREVIOUS] });
    expect(step.focus).toEqual({ kind: "search" });
    expect(step.calls[0]?.args).toMatchObject({ keyword: "事業承継", target_area_search: "大阪府 / 全国" });
  });

  it("a message with no topic and no conditions does not repeat the last search, and searches nothing", async () => {
    for (const question of ["ありがとう", "😀", "？", "あ"]) {
      const step = await plan(question, { history: [PREVIOUS] });
      expect(step).toMatchObject({ calls: [], done: true, conditions: null, focus: { kind: "search" } });
    }
  });

  it("conditions without a topic search the usual names of such programmes", async () => {
    const step = await plan("今月締切のものを教えて");
    expect(step.calls.map((c) => c.args.keyword)).toEqual(["補助金", "助成金", "奨励金"]);
  });

  it("締切が近い順にして → the same search re-sorted", async () => {
    const step = await plan("締切が近い順にして", { history: [PREVIOUS] });
    expect(step.focus).toEqual({ kind: "resort", sort: "acceptance_end_datetime", order: "ASC" });
    expect(step.calls.map((c) => c.args.keyword)).toEqual(["事業承継", "M&A"]);
    for (const c of step.calls) {
      expect(c.args).toMatchObject({
        sort: "acceptance_end_datetime",
        order: "ASC",
        target_area_search: "東京都 / 全国",
      });
    }
  });

  it("a new topic in the thread is a new search", async () => {
    const step = await plan("大阪府の省エネの補助金は？", { history: [PREVIOUS] });
    expect(step.focus).toEqual({ kind: "search" });
    expect(step.calls.map((c) => c.args)).toEqual([
      { keyword: "省エネ", target_area_search: "大阪府 / 全国" },
    ]);
  });

  it.each([
    ["省エネで一番使いやすい補助金は？", "省エネ"],
    ["最初に申請すべき省エネの補助金は？", "省エネ"],
  ])(
    "reads 「一番」 and 「最初に」 in a new question as words, not positions: %s",
    async (question, keyword) => {
      const step = await plan(question, { history: [PREVIOUS] });
      expect(step.focus).toEqual({ kind: "search" });
      expect(step.calls[0]?.args.keyword).toBe(keyword);
    },
  );

  it("reads 「トップ2」 as the first two of the list", async () => {
    const step = await plan("トップ2を比べて", { history: [PREVIOUS] });
    expect(step.focus).toEqual({ kind: "detail", ids: [SHOWN[0]!.id, SHOWN[1]!.id] });
  });

  it("an ordinal points into the newest list long enough, even after a one-subsidy detail turn", async () => {
    const detailTurn = turn(PREVIOUS.conditions, [SHOWN[0]!]);
    const step = await plan("3番目の詳細は？", { history: [PREVIOUS, detailTurn] });
    expect(step.focus).toEqual({ kind: "detail", ids: [SHOWN[2]!.id] });
    const afterSecond = turn(PREVIOUS.conditions, [SHOWN[1]!]);
    const first = await plan("1番目の詳細は？", { history: [PREVIOUS, afterSecond] });
    expect(first.focus).toEqual({ kind: "detail", ids: [SHOWN[0]!.id] });
    const more = await plan("続きを見せて", { history: [PREVIOUS] });
    expect(more.focus).toEqual({ kind: "search", exclude: SHOWN.map((x) => x.id) });
  });

  it("an ordinal past the list, or with no list yet, refers to nothing and searches nothing", async () => {
    for (const history of [[PREVIOUS], []]) {
      const step = await plan("9番目の詳細は？", { history });
      expect(step).toMatchObject({ calls: [], done: true, focus: { kind: "detail", ids: [] } });
    }
  });
});

describe("createRulePlanner: robustness", () => {
  it("reads malformed stored turns without throwing", async () => {
    const broken = {
      question: "q",
      answer: "a",
      at: "x",
      conditions: { area: "東京都" },
    } as unknown as HistoryTurn;
    const step = await plan("大阪府なら？", { history: [broken] });
    expect(step.calls[0]?.args).toEqual({ keyword: "補助金", target_area_search: "大阪府 / 全国" });
  });

  it("handles a very long, repetitive question", async () => {
    const step = await plan("東京都で省エネの補助金を探しています。".repeat(200));
    expect(step.calls.map((c) => c.args)).toEqual([
      { keyword: "省エネ", target_area_search: "東京都 / 全国" },
    ]);
  });
});
