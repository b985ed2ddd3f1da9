/**
 * The Gemini planner's faults through the real SDK against the fake Gemini server: blocked or empty
 * replies degrade (with the true counters), arguments that do not fit the tool's schema get one repair
 * and then degrade, and only the tools a question needs are offered.
 */
import { afterEach, describe, expect, it } from "vitest";
import { loadSystemPrompt } from "../../src/llm/system-prompt.ts";
import { createGeminiPlanner } from "../../src/planner/gemini-planner.ts";
import type { ToolInfo } from "../../src/types.ts";
import {
  type FakeGemini,
  type FakeGeminiReply,
  type FakeGeminiScript,
  startFakeGemini,
} from "../fakes/fake-gemini.ts";
import { geminiConfig, JGRANTS_TOOLS, planInput } from "./gemini-fixtures.ts";

const systemPrompt = loadSystemPrompt();
let fake: FakeGemini | undefined;

afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

async function plannerWith(script: FakeGeminiScript) {
  fake = await startFakeGemini(script);
  const planner = createGeminiPlanner({
    config: geminiConfig(fake.url),
    systemPrompt,
    retry: { sleep: async () => {} },
  });
  return { planner, fake };
}

const search = (args: Record<string, unknown>) => ({
  name: "jgrants__search_subsidies",
  args: { reason: "検索する", ...args },
});

describe("gemini planner: blocked and empty replies", () => {
  it.each<[string, FakeGeminiReply, string]>([
    ["SAFETY", { finishReason: "SAFETY" }, "reply blocked (SAFETY)"],
    ["RECITATION", { finishReason: "RECITATION" }, "reply blocked (RECITATION)"],
    ["OTHER", { finishReason: "OTHER" }, "reply blocked (OTHER)"],
    ["promptFeedback", { raw: { promptFeedback: { blockReason: "OTHER" } } }, "prompt blocked (OTHER)"],
    ["no candidates", { raw: {} }, "no candidates"],
    ["no parts", { raw: { candidates: [{ content: { parts: [] }, finishReason: "STOP" }] } }, "empty reply"],
  ])("degrades on %s, counting the request it sent", async (_label, reply, reason) => {
    const { planner, fake } = await plannerWith([reply]);
    const step = await planner.plan(planInput());
    expect(step.degraded).toBe(`gemini: ${reason}`);
    expect(step).toMatchObject({ calls: [], done: false, llmCalls: 1 });
    expect(step.promptBytes).toBe(fake.requests[0]?.bytes);
    expect(fake.requests).toHaveLength(1);
  });

  it("still reads a text-only reply as done", async () => {
    const { planner } = await plannerWith([{ text: "DONE" }]);
    const step = await planner.plan(planInput({ question: "こんにちは" }));
    expect(step).toMatchObject({ calls: [], done: true });
    expect(step.degraded).toBeUndefined();
  });
});

describe("gemini planner: arguments checked against the tool's schema before anything runs", () => {
  it("asks for one repair of keyword: 12345 and plans the repaired call", async () => {
    const { planner, fake } = await plannerWith([
      { functionCalls: [search({ keyword: 12345 })] },
      { functionCalls: [search({ keyword: "IT導入" })] },
    ]);
    const step = await planner.plan(planInput());
    expect(step.degraded).toBeUndefined();
    expect(step.calls.map((c) => c.args)).toEqual([{ keyword: "IT導入" }]);
    expect(step.llmCalls).toBe(2);
    expect(step.promptBytes).toBe((fake.requests[0]?.bytes ?? 0) + (fake.requests[1]?.bytes ?? 0));
    const repair = fake.requests[1]?.text ?? "";
    expect(repair).toContain("The plan was not executed");
    expect(repair).toMatch(/keyword must be string/);
  });

  it("asks for a repair when an area comes as an array", async () => {
    const { planner, fake } = await plannerWith([
      { functionCalls: [search({ keyword: "IT導入", target_area_search: ["東京都", "全国"] })] },
      { functionCalls: [search({ keyword: "IT導入", target_area_search: "東京都 / 全国" })] },
    ]);
    const step = await planner.plan(planInput());
    expect(step.calls[0]?.args.target_area_search).toBe("東京都 / 全国");
    expect(fake.requests[1]?.text).toMatch(/target_area_search/);
  });

  it("degrades when the repaired arguments are still wrong", async () => {
    const { planner, fake } = await plannerWith(() => ({ functionCalls: [search({ keyword: 12345 })] }));
    const step = await planner.plan(planInput());
    expect(step.calls).toEqual([]);
    expect(step.degraded).toMatch(/malformed plan after one repair .*keyword must be string/);
    expect(step.llmCalls).toBe(2);
    expect(fake.requests).toHaveLength(2);
  });
});

const TIME_TOOL: ToolInfo = {
  server: "time",
  name: "days_until",
  qualifiedName: "time__days_until",
  description: "Days until a date.",
  readOnly: true,
  inputSchema: { type: "object", properties: { date: { type: "string" } }, required: ["date"] },
};

describe("gemini planner: the tools offered", () => {
  it("offers search and detail, not the overview or time tools, for an ordinary question", async () => {
    const { planner, fake } = await plannerWith([{ text: "DONE" }]);
    await planner.plan(planInput({ tools: [...JGRANTS_TOOLS, TIME_TOOL] }));
    expect(fake.requests[0]?.functionNames).toEqual([
      "jgrants__search_subsidies",
      "jgrants__get_subsidy_detail",
    ]);
  });

  it("adds the overview or the time tool when the question needs it", async () => {
    const { planner, fake } = await plannerWith([{ text: "DONE" }, { text: "DONE" }]);
    const tools = [...JGRANTS_TOOLS, TIME_TOOL];
    await planner.plan(planInput({ tools, question: "いま受付中の補助金は全体で何件ありますか" }));
    await planner.plan(planInput({ tools, question: "今日は何日？締切まであと何日？" }));
    expect(fake.requests[0]?.functionNames).toContain("jgrants__get_subsidy_overview");
    expect(fake.requests[0]?.functionNames).not.toContain("time__days_until");
    expect(fake.requests[1]?.functionNames).toContain("time__days_until");
  });

  it("re-plans after zero hits with the search tool only and without the follow-up rules", async () => {
    const { planner, fake } = await plannerWith([{ text: "DONE" }, { text: "DONE" }]);
    const zero = {
      call: { server: "jgrants", tool: "search_subsidies", args: { keyword: "量子" } },
      isError: false,
      summary: "0件",
      hitCount: 0,
    };
    await planner.plan(planInput());
    await planner.plan(planInput({ rounds: [{ round: 1, calls: [zero] }] }));
    const [first, replan] = fake.requests;
    expect(first?.text).toContain("### Follow-ups");
    expect(replan?.text).not.toContain("### Follow-ups");
    expect(replan?.functionNames).toEqual(["jgrants__search_subsidies"]);
    expect(replan!.bytes).toBeLessThan(first!.bytes);
  });
});
