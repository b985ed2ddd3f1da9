/**
 * The agent as the Gemini benchmarks build it: Gemini planner and answerer pointed at a fake Gemini
 * server, the offline planner and template as fallbacks, the bundled jGrants server (snapshot) behind a
 * fixed per-call latency, and a memory store. Default Gemini settings (12 s per call, 25 s per turn).
 */
import { createAgent } from "../src/agent/agent.ts";
import { createGeminiAnswerer } from "../src/answer/gemini-answerer.ts";
import { createTemplateAnswerer } from "../src/answer/template-answerer.ts";
import { loadConfig } from "../src/config.ts";
import { createGeminiClient } from "../src/llm/gemini-client.ts";
import { loadSystemPrompt } from "../src/llm/system-prompt.ts";
import { silentLogger } from "../src/logger.ts";
import { createGeminiPlanner } from "../src/planner/gemini-planner.ts";
import { createRulePlanner } from "../src/planner/rule-planner.ts";
import { createThreadStore } from "../src/store/index.ts";
import { createMcpHost } from "../src/tools/mcp-host.ts";
import { withLatency } from "./latency-host.ts";

/** Builds the benchmark agent; `close()` releases the tool host and the store. */
export async function createBenchAgent(geminiUrl: string, toolLatencyMs: number) {
  const config = loadConfig({
    GOOGLE_API_KEY: "bench-key",
    GEMINI_BASE_URL: geminiUrl,
    JGRANTS_SOURCE: "snapshot",
    STORE_BACKEND: "memory",
    MCP_HEARTBEAT_MS: "0",
    AGENT_CONCURRENCY: "6",
  });
  const gemini = config.gemini!;
  const host = createMcpHost({ config: config.mcp, jgrants: config.jgrants, logger: silentLogger });
  const tools = withLatency(host, toolLatencyMs);
  const store = await createThreadStore(config.store, { logger: silentLogger });
  const systemPrompt = loadSystemPrompt();
  const agent = createAgent({
    planner: createGeminiPlanner({ config: gemini, systemPrompt, logger: silentLogger }),
    fallbackPlanner: createRulePlanner(),
    answerer: createGeminiAnswerer({ config: gemini, systemPrompt, logger: silentLogger }),
    fallbackAnswerer: createTemplateAnswerer(),
    tools,
    store,
    limits: config.agent,
  });
  const client = createGeminiClient({ config: gemini, logger: silentLogger });
  await host.listTools(); // connect once, outside the timings
  return {
    agent,
    tools,
    client,
    async close() {
      await host.close();
      await store.close();
    },
  };
}
