/**
 * Builds the core from config: store → tool host → planner/answerer → agent. Shared by main.ts (the
 * server) and the CLI, so both behave the same. Gemini is used when a key is set; otherwise the offline
 * planner and the template answerer.
 */
import { type Agent, createAgent } from "./agent/agent.ts";
import type { Answerer } from "./answer/answerer.ts";
import { createGeminiAnswerer } from "./answer/gemini-answerer.ts";
import { createTemplateAnswerer } from "./answer/template-answerer.ts";
import { createLiveCatalogFromConfig, type LiveCatalog } from "./catalog/sync/index.ts";
import type { Config } from "./config.ts";
import { loadSystemPrompt } from "./llm/system-prompt.ts";
import type { Logger } from "./logger.ts";
import { createGeminiPlanner } from "./planner/gemini-planner.ts";
import type { Planner } from "./planner/planner.ts";
import { createRulePlanner } from "./planner/rule-planner.ts";
import { createThreadStore } from "./store/index.ts";
import { createMcpHost } from "./tools/mcp-host.ts";
import type { ThreadStore, ToolHost } from "./types.ts";

export interface Core {
  agent: Agent;
  tools: ToolHost;
  store: ThreadStore;
  planner: Planner;
  /** The live jGrants catalog (JGRANTS_SOURCE live or auto with the built-in server); start() syncs it. */
  catalog?: LiveCatalog;
  close(): Promise<void>;
}

export interface CoreOverrides {
  store?: ThreadStore;
  tools?: ToolHost;
  clock?: () => Date;
  catalog?: LiveCatalog;
}

/** Creates the core components; nothing connects until first use (MCP servers connect lazily). */
export async function createCore(
  config: Config,
  logger: Logger,
  overrides: CoreOverrides = {},
): Promise<Core> {
  const store = overrides.store ?? (await createThreadStore(config.store, { logger }));
  const liveData = config.jgrants.source !== "snapshot" && !config.jgrants.mcpUrl;
  const catalog =
    overrides.catalog ?? (liveData ? createLiveCatalogFromConfig(config, { logger }) : undefined);
  const tools =
    overrides.tools ?? createMcpHost({ config: config.mcp, jgrants: config.jgrants, logger, catalog });
  const rulePlanner = createRulePlanner({ detailTopN: config.agent.detailTopN });
  const template = createTemplateAnswerer();
  let planner: Planner = rulePlanner;
  let answerer: Answerer = template;
  if (config.gemini) {
    const systemPrompt = loadSystemPrompt();
    planner = createGeminiPlanner({ config: config.gemini, systemPrompt, logger });
    answerer = createGeminiAnswerer({ config: config.gemini, systemPrompt, logger });
  }
  const agent = createAgent({
    planner,
    fallbackPlanner: rulePlanner,
    answerer,
    fallbackAnswerer: template,
    tools,
    store,
    limits: config.agent,
    logger,
    clock: overrides.clock,
  });
  return {
    agent,
    tools,
    store,
    planner,
    catalog,
    async close() {
      await Promise.allSettled([tools.close(), store.close(), catalog?.close()]);
    },
  };
}
