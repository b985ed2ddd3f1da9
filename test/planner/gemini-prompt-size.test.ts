/**
 * The prompt budget, counted as the JSON bodies sent (the counters equal the bytes the fake received):
 * a new question answered with one planning request and one answer stays within 6 KB, and even a long
 * history with two rounds of results stays within 9 KB (the budget of an answer with a re-plan).
 * The tool declarations are those of our real jGrants MCP server, listed through a real MCP client.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createGeminiAnswerer } from "../../src/answer/gemini-answerer.ts";
import { loadConfig } from "../../src/config.ts";
import { loadSystemPrompt } from "../../src/llm/system-prompt.ts";
import { createJgrantsMcpServer } from "../../src/mcp-servers/jgrants/server.ts";
import { createGeminiPlanner } from "../../src/planner/gemini-planner.ts";
import { buildPlanPrompt, PLAN_PROMPT_MAX_BYTES } from "../../src/planner/gemini-prompt.ts";
import type { ToolInfo } from "../../src/types.ts";
import { type FakeGemini, startFakeGemini } from "../fakes/fake-gemini.ts";
import { sampleSubsidy } from "../fakes/sample-subsidies.ts";
import { detailedRounds, fixtureId, geminiConfig, historyTurn, planInput } from "./gemini-fixtures.ts";

const COMMON_BUDGET = 6 * 1024;
const RETRY_BUDGET = 9 * 1024;
let fake: FakeGemini;
let client: Client;
let tools: ToolInfo[];

beforeAll(async () => {
  fake = await startFakeGemini((request) =>
    request.stream ? { text: ["ご案内します。"] } : { text: "DONE" },
  );
  const server = createJgrantsMcpServer({ config: loadConfig({ JGRANTS_SOURCE: "snapshot" }).jgrants });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  client = new Client({ name: "prompt-size-test", version: "1.0.0" });
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  tools = (await client.listTools()).tools.map((tool) => ({
    server: "jgrants",
    name: tool.name,
    qualifiedName: `jgrants__${tool.name}`,
    description: tool.description ?? "",
    inputSchema: tool.inputSchema as Record<string, unknown>,
    readOnly: true,
  }));
});
afterAll(async () => {
  await client.close();
  await fake.close();
});

const longHistory = Array.from({ length: 20 }, (_, k) =>
  historyTurn(
    `${"東京都で設備投資とIT導入とDXと人材育成に使える補助金を教えてください。".repeat(4)}（${k + 1}回目）`,
    10,
    k * 10 + 1,
  ),
);

describe("gemini prompt size", () => {
  it("keeps one planning step and one answer within 9 KB with a long history and 5 detailed subsidies", async () => {
    const systemPrompt = loadSystemPrompt();
    const config = geminiConfig(fake.url);
    const planner = createGeminiPlanner({ config, systemPrompt });
    const answerer = createGeminiAnswerer({ config, systemPrompt });

    expect(tools.map((t) => t.name)).toContain("find_subsidies");
    const input = planInput({
      question: "3番目の補助率は？",
      history: longHistory,
      rounds: detailedRounds(),
      tools,
    });
    const step = await planner.plan(input);
    expect(step.done).toBe(true);

    const subsidies = Array.from({ length: 5 }, (_, k) =>
      sampleSubsidy(k + 1, {
        summary: "中小企業が行うITツールの導入に要する経費の一部を補助します。".repeat(6),
      }),
    );
    const answer = await answerer.compose({
      question: input.question,
      subsidies,
      totalCount: 42,
      conditions: { keywords: ["IT導入"], area: "東京都" },
      focus: { kind: "search" },
      history: longHistory,
      source: { mode: "snapshot", asOf: "2026-08-22" },
      notes: [],
      now: input.now,
    });

    expect(step.promptBytes + answer.promptBytes).toBeLessThanOrEqual(RETRY_BUDGET);
    const wire = fake.requests.reduce((sum, r) => sum + r.bytes, 0);
    expect(step.promptBytes + answer.promptBytes).toBe(wire);
  });

  it("keeps a new question's planning request and answer within 6 KB, with the area hint kept", async () => {
    fake.requests.length = 0;
    const systemPrompt = loadSystemPrompt();
    const config = geminiConfig(fake.url);
    const planner = createGeminiPlanner({ config, systemPrompt });
    const answerer = createGeminiAnswerer({ config, systemPrompt });
    const input = planInput({ question: "東京都で設備投資に使える補助金を教えてください", tools });
    const step = await planner.plan(input);
    // The agent starts the answer from the search hits (details follow), which carry no rate or summary,
    // and offers the ten best ranked ones to choose from.
    const candidates = Array.from({ length: 10 }, (_, k) =>
      sampleSubsidy(k + 1, { detailed: false, rate: null, purpose: null, summary: "" }),
    );
    const answer = await answerer.compose({
      question: input.question,
      subsidies: candidates.slice(0, 5),
      candidates,
      detailsOf: async (ids) => candidates.filter((s) => ids.includes(s.id)),
      totalCount: 42,
      conditions: { keywords: ["設備投資"], area: "東京都" },
      focus: { kind: "search" },
      history: [],
      source: { mode: "snapshot", asOf: "2026-08-22" },
      notes: [
        "2026-08-22時点のデータ（オフラインの収録データ）です。最新の情報はJグランツでご確認ください。",
      ],
      now: input.now,
    });
    const [planning, answering] = fake.requests;
    expect(step.promptBytes).toBe(planning?.bytes);
    expect(answer.promptBytes).toBe(answering?.bytes);
    expect(step.promptBytes + answer.promptBytes).toBeLessThanOrEqual(COMMON_BUDGET);
    expect(answering?.text).toContain(candidates[9]!.id);
    // The ranked search replaces the literal one; its area takes a plain prefecture and the server adds 全国.
    expect(planning?.functionNames).toEqual(["jgrants__find_subsidies", "jgrants__get_subsidy_detail"]);
    const declarations = JSON.stringify(planning?.body?.tools);
    expect(declarations).toContain("全国対象の補助金も含めて探します");
  });

  it("keeps the latest turn's numbered ids and drops older turns first", () => {
    const text = buildPlanPrompt(planInput({ history: longHistory, rounds: detailedRounds() }));
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(PLAN_PROMPT_MAX_BYTES);
    expect(text).toContain(`  1. ${fixtureId(191)}`);
    expect(text).toContain(`  10. ${fixtureId(200)}`);
    expect(text).toMatch(/earlier turns omitted/);
    expect(text).toContain("<tool_data>");
    expect(text).not.toMatch(/<(?!\/?tool_data>)[a-z]+[ >]/i);
  });
});
