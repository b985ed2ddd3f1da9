import { describe, expect, it } from "vitest";
import { createAgent } from "../../src/agent/agent.ts";
import { createTemplateAnswerer } from "../../src/answer/template-answerer.ts";
import type { PlanStep } from "../../src/planner/planner.ts";
import type { ProgressEvent, Turn } from "../../src/types.ts";
import { createMemoryStoreFake } from "../fakes/memory-store.ts";
import { createScriptedPlanner, type ScriptedStep, searchCall } from "../fakes/scripted-planner.ts";
import { createSnapshotTools } from "../fakes/snapshot-tools.ts";

const turn = (text: string, threadKey = "test:loop"): Turn => ({
  threadKey,
  platform: "cli",
  userId: "u",
  text,
});

function setup(steps: ScriptedStep[], limits = {}, tools = createSnapshotTools()) {
  const planner = createScriptedPlanner(steps);
  const fallback = createScriptedPlanner([{ calls: [], done: true }]);
  const store = createMemoryStoreFake();
  const agent = createAgent({
    planner,
    fallbackPlanner: fallback,
    answerer: createTemplateAnswerer(),
    fallbackAnswerer: createTemplateAnswerer(),
    tools,
    store,
    limits,
    // The snapshot's date (JGRANTS_NOW in the app): status and windows are judged on this clock.
    clock: () => new Date("2026-08-22T12:00:00+09:00"),
  });
  return { agent, planner, fallback, tools, store };
}

interface Case {
  name: string;
  steps: ScriptedStep[];
  limits?: Record<string, number>;
  expect: {
    rounds: number;
    toolCalls: number;
    detailCalls: number;
    minSubsidies: number;
    plannerCalls: number;
    events: ProgressEvent["type"][];
  };
}

const cases: Case[] = [
  {
    name: "hits → details of the top N without asking the planner again",
    steps: [{ calls: [searchCall("事業承継")] }],
    expect: {
      rounds: 2,
      toolCalls: 6,
      detailCalls: 5,
      minSubsidies: 5,
      plannerCalls: 1,
      events: ["searching", "found", "fetching-details", "composing", "done"],
    },
  },
  {
    name: "multi-keyword search runs both keywords in one round",
    steps: [{ calls: [searchCall("省エネ"), searchCall("創業")] }],
    limits: { detailTopN: 3 },
    expect: {
      rounds: 2,
      toolCalls: 5,
      detailCalls: 3,
      minSubsidies: 3,
      plannerCalls: 1,
      events: ["searching", "found", "fetching-details", "composing", "done"],
    },
  },
  {
    name: "zero hits → plan again with other keywords",
    steps: [{ calls: [searchCall("存在しない語ですよ")] }, { calls: [searchCall("観光")] }],
    limits: { detailTopN: 2 },
    expect: {
      rounds: 3,
      toolCalls: 4,
      detailCalls: 2,
      minSubsidies: 2,
      plannerCalls: 2,
      events: ["searching", "found", "retrying", "found", "fetching-details", "composing", "done"],
    },
  },
  {
    name: "zero hits every time → stops at the round limit with a polite answer",
    steps: Array.from({ length: 10 }, (_, i) => ({ calls: [searchCall(`無い語${i}号です`)] })),
    limits: { maxRounds: 3 },
    expect: {
      rounds: 3,
      toolCalls: 3,
      detailCalls: 0,
      minSubsidies: 0,
      plannerCalls: 3,
      events: ["searching", "found", "retrying", "found", "retrying", "found", "composing", "done"],
    },
  },
  {
    name: "the tool-call limit caps a fan-out",
    steps: [{ calls: ["省エネ", "創業", "事業承継", "観光", "雇用"].map((k) => searchCall(k)) }],
    limits: { maxToolCalls: 3 },
    expect: {
      rounds: 1,
      toolCalls: 3,
      detailCalls: 0,
      minSubsidies: 1,
      plannerCalls: 1,
      events: ["searching", "composing", "done"],
    },
  },
  {
    name: "a planner that is done at once with conditions → an answer with no calls",
    steps: [{ calls: [], done: true, conditions: { keywords: ["量子"] } }],
    expect: {
      rounds: 1,
      toolCalls: 0,
      detailCalls: 0,
      minSubsidies: 0,
      plannerCalls: 1,
      events: ["composing", "done"],
    },
  },
];

describe("agent loop (scripted planner)", () => {
  for (const c of cases) {
    it(c.name, async () => {
      const { agent, planner, tools } = setup(c.steps, c.limits);
      const events: ProgressEvent[] = [];
      const reply = await agent.handle(turn("質問"), { onProgress: (e) => events.push(e) });
      expect(reply.kind).toBe("answer");
      expect(reply.meta.rounds).toBe(c.expect.rounds);
      expect(reply.meta.toolCalls).toBe(c.expect.toolCalls);
      expect(tools.calls.filter((call) => call.tool === "get_subsidy_detail")).toHaveLength(
        c.expect.detailCalls,
      );
      expect(reply.subsidies.length).toBeGreaterThanOrEqual(c.expect.minSubsidies);
      expect(planner.inputs).toHaveLength(c.expect.plannerCalls);
      // Detail progress repeats as each detail arrives (0/N … N/N): one entry per run of the same type.
      const types = events.map((e) => e.type).filter((t) => t !== "answer-delta");
      expect(types.filter((t, i) => t !== types[i - 1])).toEqual(c.expect.events);
      const counts = events.flatMap((e) => (e.type === "fetching-details" ? [e.done ?? 0] : []));
      if (c.expect.detailCalls > 0) expect(counts).toEqual([...counts.keys()]);
      expect(reply.text).toContain("出典: Jグランツ");
    });
  }

  it("says when the first search found nothing and broader searches found the hits", async () => {
    const { agent } = setup([
      { calls: [searchCall("存在しない語です", { target_area_search: "大阪府 / 全国" })] },
      { calls: [searchCall("事業承継")] },
    ]);
    const reply = await agent.handle(turn("質問"));
    expect(reply.notes).toContain(
      "「存在しない語です」（大阪府）では見つからなかったため、関連する言葉や条件を広げて検索しました。",
    );
    const direct = await setup([{ calls: [searchCall("事業承継")] }]).agent.handle(turn("質問"));
    expect(direct.notes.join()).not.toContain("広げて検索");
  });

  it("ranks what matches more of the searched words first, unless an order was asked for", async () => {
    const conditions = { keywords: ["省エネ", "設備"], acceptance: "1" as const };
    const { agent } = setup([{ calls: [searchCall("省エネ"), searchCall("設備")], conditions }]);
    const reply = await agent.handle(turn("省エネ設備の補助金"));
    const both = (t: string) => t.includes("省エネ") && t.includes("設備");
    expect(both(reply.subsidies[0]!.title)).toBe(true);
    const firstWithout = reply.subsidies.findIndex((s) => !both(s.title));
    const lastWith = reply.subsidies.map((s) => both(s.title)).lastIndexOf(true);
    if (firstWithout >= 0) expect(lastWith).toBeLessThan(firstWithout);
  });

  it("a planner that finds nothing to search for → a short help, not a random list", async () => {
    const { agent } = setup([{ calls: [], done: true }]);
    const reply = await agent.handle(turn("こんにちは"));
    expect(reply.kind).toBe("help");
    expect(reply.text).toContain("ご質問から探す補助金を読み取れませんでした");
    expect(reply.subsidies).toEqual([]);
  });

  it("never repeats an identical call within a turn", async () => {
    const { agent, tools } = setup([
      { calls: [searchCall("無い語です")] },
      { calls: [searchCall("無い語です")] },
    ]);
    const reply = await agent.handle(turn("質問"));
    expect(tools.calls.filter((c) => c.args.keyword === "無い語です")).toHaveLength(1);
    expect(reply.meta.toolCalls).toBe(1);
  });

  it("runs calls in parallel within the concurrency bound", async () => {
    const tools = createSnapshotTools({ delayMs: 20 });
    const { agent } = setup(
      [{ calls: ["省エネ", "創業", "事業承継", "観光", "雇用", "DX"].map((k) => searchCall(k)) }],
      { concurrency: 3 },
      tools,
    );
    await agent.handle(turn("質問"));
    expect(tools.maxInFlight).toBe(3);
  });

  it("shows the planner compact summaries of previous rounds, never raw results", async () => {
    const { agent, planner } = setup([
      { calls: [searchCall("無い語です")] },
      { calls: [searchCall("事業承継")] },
    ]);
    await agent.handle(turn("質問"));
    const second = planner.inputs[1]!;
    expect(second.rounds).toHaveLength(1);
    expect(second.rounds[0]!.calls[0]!.hitCount).toBe(0);
    expect(JSON.stringify(second.rounds)).not.toMatch(/<[a-z]+[ >]/i);
  });

  it("tool errors become results the planner sees; a failed search is an error reply, never 'no results'", async () => {
    const tools = createSnapshotTools({ failTools: ["search_subsidies"] });
    const { agent, planner, store } = setup(
      [{ calls: [searchCall("事業承継")] }, { calls: [], done: true }],
      {},
      tools,
    );
    const reply = await agent.handle(turn("質問"));
    expect(planner.inputs[1]!.rounds[0]!.calls[0]).toMatchObject({ isError: true });
    expect(reply.kind).toBe("error");
    expect(reply.text).toContain("検索に失敗しました");
    expect(reply.text).not.toContain("見つかりませんでした");
    // Not remembered as a zero-hit turn.
    expect(await store.load("test:loop")).toEqual([]);
  });

  it("records the turn (question, subsidies in order, conditions) in the thread's history", async () => {
    const conditions = { keywords: ["事業承継"], acceptance: "0" as const };
    const { agent, store } = setup([{ calls: [searchCall("事業承継")], conditions }]);
    const reply = await agent.handle(turn("事業承継の補助金"));
    const history = await store.load("test:loop");
    expect(history).toHaveLength(1);
    expect(history[0]!.question).toBe("事業承継の補助金");
    expect(history[0]!.subsidies.map((s) => s.id)).toEqual(reply.subsidies.map((s) => s.id));
    expect(history[0]!.conditions).toEqual(conditions);
  });

  it("falls back to the offline planner when the primary one degrades, and says so", async () => {
    const degraded: Partial<PlanStep> = { calls: [], degraded: "Gemini 503" };
    const planner = createScriptedPlanner([degraded], { mode: "gemini", model: "gemini-2.5-flash" });
    const fallback = createScriptedPlanner([{ calls: [searchCall("事業承継")] }]);
    const agent = createAgent({
      planner,
      fallbackPlanner: fallback,
      answerer: createTemplateAnswerer(),
      fallbackAnswerer: createTemplateAnswerer(),
      tools: createSnapshotTools(),
      store: createMemoryStoreFake(),
    });
    const reply = await agent.handle(turn("質問"));
    expect(reply.meta.degraded).toBe("Gemini 503");
    expect(reply.meta.mode).toBe("offline");
    expect(reply.subsidies.length).toBeGreaterThan(0);
    expect(reply.notes.join()).toContain("Gemini");
  });

  it("answers help for an empty message and clears history on 履歴を消して", async () => {
    const { agent, store } = setup([{ calls: [searchCall("事業承継")] }]);
    expect((await agent.handle(turn("  "))).kind).toBe("help");
    await agent.handle(turn("事業承継"));
    expect(await store.load("test:loop")).toHaveLength(1);
    const cleared = await agent.handle(turn("履歴を消して"));
    expect(cleared.kind).toBe("cleared");
    expect(await store.load("test:loop")).toHaveLength(0);
  });

  it("answers even when the store is down, with a note that the turn was not saved", async () => {
    const { agent, store } = setup([{ calls: [searchCall("事業承継")] }]);
    const down = Object.assign(new Error("redis down"), { code: "STORE_UNAVAILABLE" });
    store.load = async () => {
      throw down;
    };
    store.append = async () => {
      throw down;
    };
    const reply = await agent.handle(turn("事業承継"));
    expect(reply.kind).toBe("answer");
    expect(reply.subsidies.length).toBeGreaterThan(0);
    expect(reply.meta.historyNotSaved).toBe(true);
    expect(reply.text).toContain("履歴に保存できませんでした");
  });

  it("lets the answer start from the hits while the details are fetched, then uses the detailed records", async () => {
    const seen: { listedDetailed: boolean[]; finalDetailed: boolean[] } = {
      listedDetailed: [],
      finalDetailed: [],
    };
    const template = createTemplateAnswerer();
    const agent = createAgent({
      planner: createScriptedPlanner([{ calls: [searchCall("事業承継")] }]),
      fallbackPlanner: createScriptedPlanner([]),
      answerer: {
        mode: "gemini",
        async compose(input) {
          seen.listedDetailed = input.subsidies.map((s) => s.detailed);
          seen.finalDetailed = (await input.detailed!).map((s) => s.detailed);
          return template.compose(input);
        },
      },
      fallbackAnswerer: template,
      tools: createSnapshotTools({ delayMs: 5 }),
      store: createMemoryStoreFake(),
    });
    const reply = await agent.handle(turn("質問"));
    expect(seen.listedDetailed).toEqual([false, false, false, false, false]);
    expect(seen.finalDetailed).toEqual([true, true, true, true, true]);
    expect(reply.subsidies.every((s) => s.detailed)).toBe(true);
    expect(reply.toolResults.filter((r) => r.tool === "get_subsidy_detail")).toHaveLength(5);
  });

  it("judges deadlines against the snapshot's date and says so", async () => {
    const { agent } = setup([{ calls: [searchCall("事業承継")] }]);
    const reply = await agent.handle(turn("質問"));
    expect(reply.notes.join()).toContain("2026-08-22時点");
    expect(reply.subsidies[0]!.source).toMatchObject({ mode: "snapshot", asOf: "2026-08-22" });
  });
});

describe("agent loop: deadline windows", () => {
  it("今月締切 shows only subsidies whose deadline falls in the data's month, and fetches details only for those", async () => {
    const tools = createSnapshotTools();
    const { agent } = setup([{ calls: [searchCall("補助金")] }], {}, tools);
    const all = await setup([{ calls: [searchCall("補助金")] }]).agent.handle(turn("補助金", "t:all"));
    const reply = await agent.handle(turn("今月締切の補助金", "t:month"));
    // The snapshot's clock is 2026-08-22 (JST): the window ends 2026-08-31 23:59 JST.
    for (const s of reply.subsidies) {
      expect(s.end).not.toBeNull();
      expect(s.end!.iso >= "2026-08-21T15:00:00.000Z" && s.end!.iso <= "2026-08-31T14:59:59.999Z").toBe(true);
    }
    expect(reply.subsidies.length).toBeGreaterThan(0);
    expect(reply.totalCount).toBeLessThan(all.totalCount);
    expect(reply.notes).toContain("締切が2026/08/31(月)までのものに絞っています。");
    const detailIds = tools.calls
      .filter((c) => c.tool === "get_subsidy_detail")
      .map((c) => c.args.subsidy_id);
    expect(detailIds).toEqual(reply.subsidies.map((s) => s.id));
  });
});

describe("agent loop: a busy thread", () => {
  it("answers a message that waited too long with a short busy reply, and the first turn still completes", async () => {
    const { createThreadStore } = await import("../../src/store/index.ts");
    const store = await createThreadStore({
      backend: "memory",
      sqlitePath: "",
      redisUrl: undefined,
      maxTurns: 20,
      maxBytes: 32_768,
      ttlMs: 86_400_000,
      dedupTtlMs: 3_600_000,
      lockWaitMs: 100,
    });
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const slowTools = createSnapshotTools();
    const callTool = slowTools.callTool.bind(slowTools);
    slowTools.callTool = async (...args) => {
      await held;
      return callTool(...args);
    };
    const agent = createAgent({
      planner: createScriptedPlanner(Array.from({ length: 4 }, () => ({ calls: [searchCall("事業承継")] }))),
      fallbackPlanner: createScriptedPlanner([]),
      answerer: createTemplateAnswerer(),
      fallbackAnswerer: createTemplateAnswerer(),
      tools: slowTools,
      store,
    });
    const first = agent.handle(turn("事業承継", "t:busy"));
    const second = await agent.handle(turn("創業", "t:busy"));
    expect(second.kind).toBe("error");
    expect(second.text).toContain("前のご質問に回答中です");
    release();
    expect((await first).kind).toBe("answer");
    expect(await store.load("t:busy")).toHaveLength(1);
    await store.close();
  });
});
