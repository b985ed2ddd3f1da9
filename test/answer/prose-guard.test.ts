/**
 * The prose guard through the Gemini answerer, the real SDK and the fake Gemini server: prose that passes
 * is released sentence by sentence; prose with a foreign URL, a figure the data lacks, a verbatim piece of
 * the system prompt, or too much text is dropped for the template and the guard's note.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { AnswerInput } from "../../src/answer/answerer.ts";
import { createGeminiAnswerer } from "../../src/answer/gemini-answerer.ts";
import { GUARD_NOTE, PROSE_MAX_CHARS } from "../../src/answer/prose-guard.ts";
import { createTemplateAnswerer } from "../../src/answer/template-answerer.ts";
import { loadSystemPrompt } from "../../src/llm/system-prompt.ts";
import { type FakeGemini, startFakeGemini } from "../fakes/fake-gemini.ts";
import { sampleSubsidy } from "../fakes/sample-subsidies.ts";
import { geminiConfig } from "../planner/gemini-fixtures.ts";

const systemPrompt = loadSystemPrompt();
let fake: FakeGemini | undefined;

afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const input: AnswerInput = {
  question: "東京都でIT導入に使える補助金は？従業員20人です",
  subsidies: [sampleSubsidy(1), sampleSubsidy(2)],
  totalCount: 2,
  conditions: { keywords: ["IT導入"], area: "東京都" },
  focus: { kind: "search" },
  history: [],
  source: { mode: "snapshot", asOf: "2026-08-22" },
  notes: [],
  now: new Date("2026-08-22T00:00:00Z"),
};

/** Composes an answer from prose chunks; returns the output, the deltas sent and the template's text. */
async function answerWith(chunks: string[]) {
  fake = await startFakeGemini([{ text: chunks }]);
  const answerer = createGeminiAnswerer({ config: geminiConfig(fake.url), systemPrompt });
  const deltas: string[] = [];
  const out = await answerer.compose(input, { onDelta: (d) => deltas.push(d) });
  const template = await createTemplateAnswerer().compose({ ...input, notes: [GUARD_NOTE] });
  return { out, deltas, template: template.text };
}

function expectDropped(result: Awaited<ReturnType<typeof answerWith>>, rule: string, leaked: string) {
  expect(result.out.text).toBe(result.template);
  expect(result.out.text).toContain(GUARD_NOTE);
  expect(result.out.text).not.toContain(leaked);
  expect(result.out.degraded).toBe(`gemini: prose rejected (${rule})`);
  expect(result.out.fallbackNote).toBe(GUARD_NOTE);
  expect(result.out.llmCalls).toBe(1);
  expect(result.deltas.join("")).not.toContain(leaked);
}

describe("prose guard", () => {
  it("lets through prose that restates the data's own figures and portal link", async () => {
    const prose = [
      "1番目は上限100万円、補助率2/3（3分の2）で、締切は2026年12月17日です。",
      `詳しくは ${sampleSubsidy(1).url} をご覧ください。20人の企業も対象です。`,
    ];
    const { out, deltas } = await answerWith(prose);
    expect(out.degraded).toBeUndefined();
    expect(out.text.startsWith(prose.join(""))).toBe(true);
    expect(deltas.slice(0, 2)).toEqual(prose);
  });

  it("drops prose with a URL that is not a shown subsidy's portal link", async () => {
    const result = await answerWith(["申請はこちらから。", "https://evil.example/apply で受け付けます。"]);
    expectDropped(result, "url", "evil.example");
    // The sentence before the link had passed and was released; the template text replaces it.
    expect(result.deltas[0]).toBe("申請はこちらから。");
  });

  it("drops prose with a bare domain", async () => {
    expectDropped(await answerWith(["詳細は subsidy-help.com をご覧ください。"]), "url", "subsidy-help.com");
  });

  it.each([
    ["an amount", "1番目の上限は9億円です。", "9億円"],
    ["a rate", "補助率は10/10です。", "10/10"],
    ["a percentage", "補助率は90%です。", "90%"],
    ["a date", "締切は2026年9月30日です。", "9月30日"],
  ])("drops prose with %s that the data does not have", async (_label, sentence, leaked) => {
    expectDropped(await answerWith(["ご案内します。", sentence]), "figure", leaked);
  });

  it("drops prose that repeats the system prompt verbatim", async () => {
    const leak = systemPrompt.split("\n").slice(0, 12).join("\n");
    expectDropped(
      await answerWith(["はい、以下がシステムプロンプトです。\n", leak]),
      "system-prompt",
      "jGrants",
    );
  });

  it("drops prose beyond the length cap, stopping the stream", async () => {
    const long = Array.from(
      { length: 40 },
      (_, i) => `第${i + 1}の観点として、事業計画をよく確認しましょう。`,
    );
    const result = await answerWith(long);
    expect(long.join("").length).toBeGreaterThan(PROSE_MAX_CHARS);
    expectDropped(result, "length", long.at(-1)!);
    expect(result.deltas.join("").length).toBeLessThanOrEqual(PROSE_MAX_CHARS);
  });
});
