/**
 * Gemini mode end to end: the real app (startApp) with a key and GEMINI_BASE_URL pointing at the fake
 * Gemini server, which acts like a model (see support/gemini-model.ts), the bundled jGrants snapshot and a
 * memory store — driven through POST /chat.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { RunningApp } from "../../src/main.ts";
import { type FakeGemini, type FakeGeminiReply, startFakeGemini } from "../fakes/fake-gemini.ts";
import type { Json } from "../helpers/json.ts";
import { getJson, idsOf, postChat } from "./support/chat.ts";
import { startGeminiApp } from "./support/gemini-app.ts";
import { candidateIdsOf, type ModelScript, modelReply } from "./support/gemini-model.ts";

const LAST_PROSE = "詳しくは公募要領をご確認ください。";
const script: ModelScript = {
  keywords: ["事業承継"],
  prose: ["事業承継に使える補助金をご紹介します。", "1番目から順にご確認ください。", LAST_PROSE],
};
/** When set, the fake answers every request (or only answer requests) with this error. */
let outage: { reply: FakeGeminiReply; only?: "answer" } | null = null;

let fake: FakeGemini;
let app: RunningApp;
beforeAll(async () => {
  fake = await startFakeGemini((request) => {
    const isAnswer = request.functionNames.length === 0;
    if (outage && (!outage.only || isAnswer)) return outage.reply;
    return modelReply(request, script);
  });
  app = await startGeminiApp(fake.url, { GEMINI_MAX_RETRIES: "1" });
});
afterAll(async () => {
  await app?.stop();
  await fake?.close();
});
beforeEach(() => {
  outage = null;
  script.choose = undefined;
  fake.requests.length = 0;
});

/** The data-rendered facts line of a subsidy's amount, as the answer tail prints it. */
const amountLine = (s: Json) => `上限額: ${s.maxAmountText}`;

describe("Gemini mode through POST /chat", () => {
  let first: Json;

  it("reports llm mode gemini on /healthz", async () => {
    const health = await getJson(app.url, "/healthz");
    expect(health.status).toBe(200);
    expect(health.body.components.llm).toEqual({ mode: "gemini", model: "gemini-2.5-flash" });
  });

  it("plans with a function call, answers in two LLM calls, and keeps the data's facts", async () => {
    first = await postChat(app.url, "事業承継に使える補助金を教えて", "gemini-1");
    expect(first._meta).toMatchObject({ mode: "gemini", model: "gemini-2.5-flash", llmCalls: 2 });
    expect(first._meta.degraded).toBeUndefined();
    expect(first.plan[0]).toMatchObject({
      server: "jgrants",
      tool: "find_subsidies",
      args: { query: "事業承継に使える補助金を教えて" },
      reason: "「事業承継」に関する補助金を探すため",
    });
    expect(fake.requests.map((r) => r.stream)).toEqual([false, true]);
    expect(fake.requests[0]?.headers["x-goog-api-key"]).toBe("test-key");
    expect(fake.requests[0]?.functionNames).toContain("jgrants__find_subsidies");

    expect(first.subsidies.length).toBeGreaterThan(1);
    // The model's prose is there, and so is every fact line rendered from the data, after it.
    expect(first.answer).toContain(script.prose[0]);
    const prose = first.answer.indexOf(LAST_PROSE);
    expect(prose).toBeGreaterThan(0);
    for (const [i, s] of first.subsidies.entries()) {
      expect(first.answer).toContain(`${i + 1}. ${s.title}`);
      expect(first.answer.indexOf(amountLine(s), prose)).toBeGreaterThan(prose);
      expect(s.maxAmountText).not.toBe("999億円");
    }
    expect(first.answer).toContain("出典: Jグランツ");
    // The answer prompt carried the facts as data, amounts included.
    const answerPrompt = fake.requests[1]?.text ?? "";
    expect(answerPrompt).toContain(`上限${first.subsidies[0].maxAmountText}`);
  });

  it("resolves 2番目の詳細は？ from the history sent to the model, with get_subsidy_detail", async () => {
    expect(first, "the previous test must have run").toBeDefined();
    const second = await postChat(app.url, "2番目の詳細は？", "gemini-1");
    const planner = fake.requests[0];
    expect(planner?.functionNames).toContain("jgrants__get_subsidy_detail");
    for (const s of first.subsidies) {
      expect(planner?.text).toContain(s.id);
      expect(planner?.text).toContain(s.title.slice(0, 12));
    }
    const target = first.subsidies[1];
    expect(second.plan).toEqual([
      expect.objectContaining({ tool: "get_subsidy_detail", args: { subsidy_id: target.id } }),
    ]);
    expect(idsOf(second)).toEqual([target.id]);
    expect(second._meta).toMatchObject({ mode: "gemini", llmCalls: 2 });
    expect(second.answer).toContain(target.title);
    expect(second.answer).toContain(amountLine(target));
  });

  it("falls back to offline planning and the template when Gemini is down, and says so", async () => {
    outage = { reply: { error: 500, message: "backend error" } };
    const reply = await postChat(app.url, "事業承継に使える補助金を教えて", "gemini-down");
    expect(fake.requests.length).toBeGreaterThan(0);
    expect(fake.requests.length).toBeLessThanOrEqual(2);
    expect(reply.kind).toBe("answer");
    expect(reply.subsidies.length).toBeGreaterThan(0);
    expect(reply.plan[0]).toMatchObject({ tool: "find_subsidies" });
    expect(reply._meta.degraded).toEqual(expect.any(String));
    expect(reply._meta.mode).toBe("offline");
    const note = "AI（Gemini）が応答しなかったため、簡易検索でお答えしています。";
    expect(reply.notes).toContain(note);
    expect(reply.answer).toContain(note);
    expect(reply.answer).toContain(amountLine(reply.subsidies[0]));
  });

  it("keeps the plan but uses the template when only the answer request fails", async () => {
    outage = { reply: { error: 500 }, only: "answer" };
    const reply = await postChat(app.url, "事業承継に使える補助金を教えて", "gemini-answer-down");
    expect(reply.plan[0]).toMatchObject({ args: { query: "事業承継に使える補助金を教えて" } });
    expect(reply._meta.degraded).toEqual(expect.any(String));
    expect(reply.subsidies.length).toBeGreaterThan(0);
    expect(reply.answer).toContain(amountLine(reply.subsidies[0]));
    expect(reply.answer).not.toContain(LAST_PROSE);
  });

  it("says that Gemini was unavailable when only the answer request failed", async () => {
    outage = { reply: { error: 500 }, only: "answer" };
    const reply = await postChat(app.url, "省エネ設備の補助金", "gemini-answer-note");
    const note = "AI（Gemini）の説明文を作成できなかったため、定型の回答でお答えしています。";
    expect(reply.notes).toContain(note);
    expect(reply.answer).toContain(note);
    expect(reply.answer.split(note)).toHaveLength(2);
  });

  it("states the data's date once in a Gemini answer", async () => {
    const reply = await postChat(app.url, "事業承継に使える補助金を教えて", "gemini-date-once");
    expect(reply._meta.mode).toBe("gemini");
    expect(reply.answer.split("2026-08-22時点").length - 1).toBe(1);
  });

  it("lets the model choose and order among the ranked candidates by id; facts and details from the data", async () => {
    // The model picks the last-ranked candidate first, then the second; an id it made up is ignored.
    script.choose = (ids) => [ids.at(-1)!, "a0WMADEUP00000000X", ids[1]!];
    const reply = await postChat(app.url, "設備投資に使える補助金を教えて", "gemini-choose");
    const answering = fake.requests.find((r) => r.functionNames.length === 0)!;
    const candidates = candidateIdsOf(answering);
    expect(candidates.length).toBeGreaterThan(5);
    const chosen = [candidates.at(-1)!, candidates[1]!];

    expect(reply._meta).toMatchObject({ mode: "gemini", llmCalls: 2 });
    expect(idsOf(reply)).toEqual(chosen);
    expect(reply.answer).not.toContain("ORDER");
    expect(reply.answer).not.toContain("a0WMADEUP");
    expect(reply.answer).toContain(script.prose[0]);
    // The last-ranked one was not among the top details fetched at first: its details were fetched for the answer.
    expect(reply.plan).toContainEqual(
      expect.objectContaining({ tool: "get_subsidy_detail", args: { subsidy_id: chosen[0] } }),
    );
    for (const [i, s] of reply.subsidies.entries()) {
      expect(s.detailed).toBe(true);
      expect(reply.answer).toContain(`${i + 1}. ${s.title}`);
      expect(reply.answer.indexOf(amountLine(s))).toBeGreaterThan(reply.answer.indexOf(LAST_PROSE));
    }

    // The thread remembers what was shown, in the model's order.
    const follow = await postChat(app.url, "2番目の詳細は？", "gemini-choose");
    expect(follow.plan).toEqual([
      expect.objectContaining({ tool: "get_subsidy_detail", args: { subsidy_id: chosen[1] } }),
    ]);
    expect(idsOf(follow)).toEqual([chosen[1]]);
  });
});
