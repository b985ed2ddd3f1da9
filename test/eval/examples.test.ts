/**
 * The example questions we offer — the README's, Slack's suggested prompts and the help reply's, LINE's
 * quick replies — find fitting subsidies in the bundled snapshot (clock pinned to its date, as in the
 * relevance set): a "good" fit, each subsidy matched on the question's words and in the asked area.
 */
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EXAMPLE_QUESTIONS as LINE_EXAMPLES } from "../../adapters/line/examples.ts";
import { EXAMPLE_QUESTIONS } from "../../src/agent/replies.ts";
import { type Core, createCore } from "../../src/compose.ts";
import { loadConfig } from "../../src/config.ts";
import { silentLogger } from "../../src/logger.ts";
import { loadSet } from "./evaluate.ts";

const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8");
const first = (re: RegExp) => [...readme.matchAll(re)].map((m) => m[1]!);
const readmeQuestions = [
  ...first(/Open http[^「\n]*「([^」]+)」/g),
  // The first request of the HTTP API section (the next ones are its follow-ups).
  ...first(/"message": "([^"]+)"/g).slice(0, 1),
  ...first(/npm run -s ask -- (?:--json )?"([^"]+)"/g),
  ...first(/「@補助金コンシェルジュ ([^」]+)」/g),
];
const questions = [...new Set([...readmeQuestions, ...EXAMPLE_QUESTIONS, ...LINE_EXAMPLES])];

let core: Core;
beforeAll(async () => {
  core = await createCore(
    loadConfig({
      JGRANTS_SOURCE: "snapshot",
      JGRANTS_NOW: `${loadSet().clock}T12:00:00+09:00`,
      STORE_BACKEND: "memory",
      MCP_HEARTBEAT_MS: "0",
      LOG_LEVEL: "silent",
    }),
    silentLogger,
  );
});
afterAll(async () => {
  await core?.close();
});

describe("the example questions we offer", () => {
  it("are found in the README (web chat, HTTP API, CLI, Slack)", () => {
    expect(readmeQuestions.length).toBeGreaterThanOrEqual(4);
  });

  it.each(questions)("「%s」 finds fitting subsidies", async (question) => {
    const reply = await core.agent.handle({
      threadKey: `examples:${question}`,
      platform: "cli",
      userId: "examples",
      text: question,
    });
    expect(reply.meta.match).toBe("good");
    expect(reply.subsidies.length).toBeGreaterThan(0);
    for (const s of reply.subsidies) {
      expect(s.matchedTerms?.length, s.title).toBeGreaterThan(0);
      if (question.includes("東京都")) expect(s.area ?? "", s.title).toMatch(/東京都|全国/);
    }
  });
});
