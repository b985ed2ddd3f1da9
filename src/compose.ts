/**
 * Builds the core from config: store → tool host → planner/answerer → agent. Shared by main.ts (the
 * server) and the CLI, so both behave the same. Gemini is used when a key is set; otherwise the offline
 * planner and the template answerer.
 */
import { type Agent, createAgent } from "./agent/agent.ts";
import type { Answerer } from "./answer/answerer.ts";
import { createGeminiAnswerer } from "./answer/gemini-answerer.ts";
import { createTemplateAnswerer } from "./answer/template-answerer.ts";
import { snapshotRecordSource } from "./catalog/record-source.ts";
import { createLiveCatalogFromConfig, type LiveCatalog } from "./catalog/sync/index.ts";
import type { Config } from "./config.ts";
import { loadSystemPrompt } from "./llm/system-prompt.ts";
import type { Logger } from "./logger.ts";
import {
  instrumentAgent,
  instrumentAnswerer,
  instrumentPlanner,
  instrumentToolHost,
} from "./metrics/instrument-core.ts";
import { instrumentStore } from "./metrics/instrument-store.ts";
import { createMetrics, type Metrics } from "./metrics/registry.ts";
import { createGeminiPlanner } from "./planner/gemini-planner.ts";
import type { Planner } from "./planner/planner.ts";
import { createRulePlanner } from "./planner/rule-planner.ts";
import { createThreadStore } from "./store/index.ts";
import { createManagedHost, type ManagedHost } from "./tools/managed-host.ts";
import { traceAgent } from "./trace.ts";
import type { ThreadStore, ToolHost } from "./types.ts";
import { createWatching, type Watching } from "./watch/index.ts";

export interface Core {
  agent: Agent;
  tools: ToolHost;
  store: ThreadStore;
  planner: Planner;
  /** The Prometheus metrics the decorated seams feed (served at /metrics by the HTTP server). */
  metrics: Metrics;
  /** The MCP host and its server registry (absent when a test passes its own ToolHost). */
  mcp?: ManagedHost;
  /** The live jGrants catalog (JGRANTS_SOURCE live or auto with the built-in server); start() syncs it. */
  catalog?: LiveCatalog;
  /** Watches (saved searches and their scheduler), when the store keeps records. */
  watching?: Watching;
  close(): Promise<void>;
}

export interface CoreOverrides {
  store?: ThreadStore;
  tools?: ToolHost;
  clock?: () => Date;
  /** Metrics to feed; by default a registry without process metrics (the CLI). */
  metrics?: Metrics;
  catalog?: LiveCatalog;
}

/** JGRANTS_NOW: a fixed clock for tests and demos. */
function pinnedClock(iso: string): () => Date {
  const at = new Date(iso);
  return () => new Date(at);
}

/** Creates the core components; nothing connects until first use (MCP servers connect lazily). */
export async function createCore(
  config: Config,
  logger: Logger,
  overrides: CoreOverrides = {},
): Promise<Core> {
  // Every seam is wrapped by a measuring decorator; the agent also runs each turn inside a trace.
  const metrics = overrides.metrics ?? createMetrics({ processMetrics: false });
  const rawStore = overrides.store ?? (await createThreadStore(config.store, { logger }));
  const store = instrumentStore(rawStore, metrics);
  // The live catalog: JGRANTS_SOURCE live or auto with the built-in jGrants server.
  const liveData = config.jgrants.source !== "snapshot" && !config.jgrants.mcpUrl;
  const catalog =
    overrides.catalog ?? (liveData ? createLiveCatalogFromConfig(config, { logger }) : undefined);
  // The MCP host follows the server registry (mcp.json plus servers added at runtime, in the store).
  const mcp = overrides.tools
    ? undefined
    : await createManagedHost(config, {
        records: "records" in rawStore ? rawStore.records : undefined,
        logger,
        catalog,
      });
  const tools = instrumentToolHost(overrides.tools ?? mcp!.host, metrics);
  // Registry changes and the catalog's freshness, counted and read at scrape time.
  mcp?.registry.onChange((change) => metrics.mcpRegistryChanges.inc({ action: change.action }));
  if (catalog) metrics.sources.catalog = () => catalog.info();
  else if (!config.jgrants.mcpUrl) metrics.sources.catalog = () => snapshotRecordSource().info();
  const rulePlanner = instrumentPlanner(createRulePlanner({ detailTopN: config.agent.detailTopN }), metrics);
  const template = instrumentAnswerer(createTemplateAnswerer(), metrics);
  let planner: Planner = rulePlanner;
  let answerer: Answerer = template;
  if (config.gemini) {
    const systemPrompt = loadSystemPrompt();
    planner = instrumentPlanner(
      createGeminiPlanner({ config: config.gemini, systemPrompt, logger }),
      metrics,
    );
    answerer = instrumentAnswerer(
      createGeminiAnswerer({ config: config.gemini, systemPrompt, logger }),
      metrics,
    );
  }
  const clock = overrides.clock ?? (config.jgrants.now ? pinnedClock(config.jgrants.now) : undefined);
  const watching =
    "records" in rawStore
      ? createWatching(config.watch, {
          records: rawStore.records,
          history: store,
          tools,
          clock: clock ?? (() => new Date()),
          logger,
          redisUrl: config.store.backend === "redis" ? config.store.redisUrl : undefined,
        })
      : undefined;
  const inner = createAgent({
    planner,
    fallbackPlanner: rulePlanner,
    answerer,
    fallbackAnswerer: template,
    tools,
    store,
    limits: config.agent,
    logger,
    clock,
    watches: watching?.conversation,
  });
  const agent = traceAgent(instrumentAgent(inner, metrics));
  return {
    agent,
    tools,
    store,
    planner,
    metrics,
    mcp,
    catalog,
    watching,
    async close() {
      await watching?.scheduler.stop();
      await Promise.allSettled([mcp ? mcp.close() : tools.close(), store.close(), catalog?.close()]);
    },
  };
}
