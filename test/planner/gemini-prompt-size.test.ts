/**
 * The prompt budget: with a long history and 5 detailed subsidies, one planning request plus one answer
 * stay within 10 KB (the target per answer), measured both by the counters and on the wire.
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

const BUDGET = 10 * 1024;
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
  it("keeps one planning step and one answer within 10 KB with a long history and 5 detailed subsidies", async () => {
    const systemPrompt = loadSystemPrompt();
    const config = geminiConfig(fake.url);
    const planner = createGeminiPlanner({ config, systemPrompt });
    const answerer = createGeminiAnswerer({ config, systemPrompt });

    expect(tools.map((t) => t.name)).toContain("search_subsidies");
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

    expect(step.promptBytes + answer.promptBytes).toBeLessThanOrEqual(BUDGET);
    const wire = fake.requests.reduce((sum, r) => sum + r.bytes, 0);
    // The wire adds JSON framing (roles, field names) to the counted prompt; it stays within budget too.
    expect(wire).toBeLessThanOrEqual(BUDGET);
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
