/**
 * The rule planner against the real jGrants MCP server (snapshot mode) over an in-memory MCP pair:
 * a minimal plan → call → summarise loop, as the agent runs it, for real questions.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createJgrantsMcpServer } from "../../src/mcp-servers/jgrants/server.ts";
import type { PlanStep, RoundSummary } from "../../src/planner/planner.ts";
import { createRulePlanner } from "../../src/planner/rule-planner.ts";
import { summariseCall } from "../../src/subsidies/index.ts";
import type { ToolInfo, ToolResult } from "../../src/types.ts";
import { jgrantsConfig } from "../tools/helpers.ts";

const now = new Date("2026-08-22T00:00:00+09:00");
let client: Client;
let tools: ToolInfo[];

beforeAll(async () => {
  const server = createJgrantsMcpServer({ config: jgrantsConfig, now: () => now });
  const [a, b] = InMemoryTransport.createLinkedPair();
  client = new Client({ name: "rule-planner-test", version: "1.0.0" });
  await Promise.all([server.connect(a), client.connect(b)]);
  tools = (await client.listTools()).tools.map((t) => ({
    server: "jgrants",
    name: t.name,
    qualifiedName: `jgrants__${t.name}`,
    description: t.description ?? "",
    inputSchema: t.inputSchema as Record<string, unknown>,
    readOnly: true,
  }));
});

afterAll(async () => {
  await client?.close();
});

/** Runs the planner until done (at most 5 rounds); returns the rounds and the final step. */
async function run(question: string): Promise<{ rounds: RoundSummary[]; last: PlanStep }> {
  const planner = createRulePlanner();
  const rounds: RoundSummary[] = [];
  for (let round = 1; round <= 5; round++) {
    const step = await planner.plan({ question, history: [], tools, rounds, now });
    if (step.done) return { rounds, last: step };
    const calls = await Promise.all(
      step.calls.map(async (call) => {
        const r = await client.callTool({ name: call.tool, arguments: call.args });
        const result: ToolResult = {
          call,
          isError: Boolean(r.isError),
          data: r.structuredContent,
          text: "",
          durationMs: 0,
        };
        return summariseCall(call, result, now);
      }),
    );
    rounds.push({ round, calls });
  }
  return { rounds, last: await planner.plan({ question, history: [], tools, rounds, now }) };
}

const hitsOf = (rounds: RoundSummary[]) =>
  rounds.flatMap((r) => r.calls).reduce((n, c) => n + (c.hitCount ?? 0), 0);

describe("rule planner on the snapshot server", () => {
  it.each([
    ["事業承継やM&Aの補助金", 1],
    ["海外展開の補助金を教えて", 1],
    // No exact "ITツール導入" in the data: the area-keeping synonym rung ("DX" in 東京都) finds it.
    ["東京都でITツール導入の補助金を探しています", 3],
    ["従業員15人の製造業で使える省エネ設備の補助金はある？", 1],
    ["脱炭素の補助金で締切が近いもの", 1],
  ])("%s → hits within %i round(s)", async (question, maxRounds) => {
    const { rounds, last } = await run(question);
    expect(last.done).toBe(true);
    expect(hitsOf(rounds)).toBeGreaterThan(0);
    expect(rounds.length).toBeLessThanOrEqual(maxRounds);
    expect(last.conditions?.keywords.length).toBeGreaterThan(0);
    for (const c of rounds.flatMap((r) => r.calls)) expect(c.isError).toBe(false);
  });

  it("ends politely with done when nothing fits, and the server says the fit is not good", async () => {
    const { rounds, last } = await run("ゾンビ対策のクワガタ");
    expect(last).toMatchObject({ done: true, calls: [] });
    expect(rounds).toHaveLength(1);
    const call = rounds[0]!.calls[0]!.call;
    const r = await client.callTool({ name: call.tool, arguments: call.args });
    expect((r.structuredContent as { match: string }).match).not.toBe("good");
    expect(hitsOf(rounds)).toBeLessThanOrEqual(3);
  });
});
