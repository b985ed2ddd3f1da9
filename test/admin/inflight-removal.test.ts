/**
 * A turn in flight while its server is removed through the registry: the real agent, the real host and
 * a real remote MCP server on loopback. The running turn finishes with the tools it started with (its
 * slow call completes, and its next call still reaches the server); the next turn is not offered them.
 */
import { afterEach, describe, expect, it } from "vitest";
import { createAgent } from "../../src/agent/agent.ts";
import { createTemplateAnswerer } from "../../src/answer/template-answerer.ts";
import { silentLogger } from "../../src/logger.ts";
import type { McpServersConfig } from "../../src/tools/mcp-config.ts";
import { createMcpHost } from "../../src/tools/mcp-host.ts";
import { createServerRegistry } from "../../src/tools/registry.ts";
import { type FakeMcpHttp, startFakeMcpHttp } from "../fakes/fake-mcp-http.ts";
import { createMemoryStoreFake } from "../fakes/memory-store.ts";
import { createScriptedPlanner, searchCall } from "../fakes/scripted-planner.ts";
import { fastTiming, jgrantsConfig, mcpConfig } from "../tools/helpers.ts";

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function setup() {
  const remote: FakeMcpHttp = await startFakeMcpHttp({ mode: "stateful", name: "extra" });
  cleanups.push(() => remote.close());
  const seed: McpServersConfig = {
    jgrants: { kind: "builtin", name: "jgrants", builtin: "jgrants", enabled: true },
  };
  const registry = createServerRegistry({
    seed,
    env: {},
    allowStdio: false,
    logger: silentLogger,
    pollMs: 0,
  });
  await registry.start();
  await registry.add("extra", { url: remote.url, readOnly: true }, "ops");
  const host = createMcpHost({
    config: mcpConfig(),
    jgrants: jgrantsConfig,
    servers: registry.servers(),
    timing: fastTiming,
  });
  registry.onChange((change) => host.applyServers(change.servers));
  cleanups.push(() => host.close());
  return { remote, registry, host };
}

describe("removing a server while a turn uses it", () => {
  it("lets the running turn finish with its tools, and offers them to no later turn", async () => {
    const { remote, registry, host } = await setup();
    let removedBeforeSecondCall = false;
    const planner = createScriptedPlanner([
      // No hits, so the agent plans a second round, after the removal.
      {
        calls: [
          searchCall("該当なしの語"),
          { server: "extra", tool: "slow", args: { ms: 400 }, reason: "slow" },
        ],
      },
      () => {
        removedBeforeSecondCall = !registry.entry("extra");
        return { calls: [{ server: "extra", tool: "echo", args: { text: "after" }, reason: "after" }] };
      },
      { calls: [], done: true },
      // The next turn: only what the planner is offered matters.
      { calls: [], done: true },
    ]);
    const agent = createAgent({
      planner,
      fallbackPlanner: createScriptedPlanner([]),
      answerer: createTemplateAnswerer(),
      fallbackAnswerer: createTemplateAnswerer(),
      tools: host,
      store: createMemoryStoreFake(),
    });

    const turn = agent.handle({ threadKey: "t1", platform: "http", userId: "u", text: "IT導入の補助金" });
    // Remove the server while its slow tool runs.
    await expect.poll(() => remote.state.calls.slow ?? 0, { timeout: 10_000 }).toBe(1);
    await registry.remove("extra", "ops");
    expect((await host.listTools()).some((t) => t.server === "extra")).toBe(false);
    const reply = await turn;

    expect(removedBeforeSecondCall).toBe(true);
    const extra = reply.toolResults.filter((r) => r.server === "extra");
    expect(extra.map((r) => [r.tool, r.isError])).toEqual([
      ["slow", false],
      ["echo", false],
    ]);
    expect(remote.state.calls.echo).toBe(1);
    expect(planner.inputs[0]?.tools.some((t) => t.server === "extra")).toBe(true);

    await agent.handle({ threadKey: "t2", platform: "http", userId: "u", text: "IT導入の補助金" });
    expect(planner.inputs[3]?.tools.some((t) => t.server === "extra")).toBe(false);
    expect(host.status().map((s) => s.name)).toEqual(["jgrants"]);
  });

  it("finishes a call on the old connection when the server is edited mid-call, then uses the new one", async () => {
    const { remote, registry, host } = await setup();
    const slow = host.callTool({ server: "extra", tool: "slow", args: { ms: 300 } });
    await expect.poll(() => remote.state.calls.slow ?? 0, { timeout: 10_000 }).toBe(1);
    await registry.update("extra", { blockTools: ["write"] }, "ops");
    expect((await slow).isError).toBe(false);
    const echo = await host.callTool({ server: "extra", tool: "echo", args: { text: "new" } });
    expect(echo).toMatchObject({ isError: false, text: "extra:new" });
    expect(remote.sessionsOpened).toBe(2);
    expect((await host.listTools()).map((t) => t.name)).not.toContain("write");
  });
});
