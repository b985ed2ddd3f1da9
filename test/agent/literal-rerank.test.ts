/**
 * Against a server without the ranked tool (like the official jGrants server), the offline planner gathers
 * candidates with literal searches and the agent ranks them with the catalog's scorer and cleaning.
 */
import { describe, expect, it } from "vitest";
import { createAgent } from "../../src/agent/agent.ts";
import { createTemplateAnswerer } from "../../src/answer/template-answerer.ts";
import { createRulePlanner } from "../../src/planner/rule-planner.ts";
import { createMemoryStoreFake } from "../fakes/memory-store.ts";
import { createSnapshotTools } from "../fakes/snapshot-tools.ts";

function literalAgent() {
  const tools = createSnapshotTools();
  const planner = createRulePlanner();
  const agent = createAgent({
    planner,
    fallbackPlanner: planner,
    answerer: createTemplateAnswerer(),
    fallbackAnswerer: createTemplateAnswerer(),
    tools,
    store: createMemoryStoreFake(),
    clock: () => new Date("2026-08-22T12:00:00+09:00"),
  });
  return { agent, tools };
}

const ask = (agent: ReturnType<typeof literalAgent>["agent"], text: string, thread = "t") =>
  agent.handle({ threadKey: `literal:${thread}`, platform: "http", userId: "u", text });

describe("literal server: in-process reranking", () => {
  it("ranks the literal hits with the catalog's scorer and says which words each matched", async () => {
    const { agent, tools } = literalAgent();
    const reply = await ask(agent, "電子カルテを入れたいクリニックです");
    expect(tools.calls.some((c) => c.tool === "search_subsidies")).toBe(true);
    expect(tools.calls.some((c) => c.tool === "find_subsidies")).toBe(false);
    expect(reply.meta.match).toBe("good");
    expect(reply.subsidies.length).toBeGreaterThan(0);
    for (const s of reply.subsidies) expect(s.matchedTerms).toContain("電子カルテ");
  });

  it("keeps procedural pages (withdrawal, change, cancellation notices) out of the answer", async () => {
    const { agent } = literalAgent();
    const reply = await ask(agent, "女性活躍の奨励金を教えて", "women");
    expect(reply.subsidies.length).toBeGreaterThan(0);
    for (const s of reply.subsidies) expect(s.title).not.toMatch(/撤回届|変更届|中止届/);
  });
});
