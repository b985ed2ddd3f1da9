/**
 * Composition root: config → logger → core (store, tools, planner/answerer, agent) → HTTP server →
 * adapters (web chat always; Slack and LINE when their keys are present). `npm start` runs this.
 */
import { setMaxListeners } from "node:events";
import type { Server } from "node:http";
import { pathToFileURL } from "node:url";
import { createLineAdapter, lineDigestSender } from "../adapters/line/index.ts";
import { createSlackAdapter, slackDigestSender } from "../adapters/slack/index.ts";
import { mountAdminPage } from "../adapters/web/admin.ts";
import { mountWebChat } from "../adapters/web/index.ts";
import { type Core, type CoreOverrides, createCore } from "./compose.ts";
import { type Config, loadConfig } from "./config.ts";
import { describeError } from "./errors.ts";
import { mountAdminRoutes } from "./http/admin-routes.ts";
import { createHttpApp, finishHttpApp, listen } from "./http/server.ts";
import { createLogger, type Logger } from "./logger.ts";
import { createMetrics } from "./metrics/registry.ts";
import type { PlatformAdapter } from "./types.ts";

/** How long stop() lets HTTP answers in progress finish before aborting them. */
const SHUTDOWN_GRACE_MS = 5_000;

export interface RunningApp {
  core: Core;
  server: Server;
  url: string;
  adapters: PlatformAdapter[];
  stop(): Promise<void>;
}

/** Starts everything; resolves once the HTTP server listens. */
export async function startApp(
  config: Config,
  logger: Logger,
  overrides: CoreOverrides = {},
): Promise<RunningApp> {
  const core = await createCore(config, logger, { metrics: createMetrics(), ...overrides });
  const adapters: PlatformAdapter[] = [];
  const shutdown = new AbortController();
  // Every request in flight follows this signal (and lets go when it ends): many listeners are normal.
  setMaxListeners(0, shutdown.signal);
  const app = createHttpApp({
    shutdownSignal: shutdown.signal,
    agent: core.agent,
    tools: core.tools,
    store: core.store,
    logger,
    apiToken: config.http.apiToken,
    allowedHosts: config.http.allowedHosts,
    metrics: core.metrics,
    metricsToken: config.http.metricsToken,
    llm: { mode: core.planner.mode, model: core.planner.model },
    components: () => Object.fromEntries(adapters.map((a) => [a.name, { ok: true }])),
    catalog: core.catalog ? () => core.catalog!.info() : undefined,
    openThread: core.watching ? (threadKey) => core.watching!.openThread(threadKey) : undefined,
  });
  mountWebChat(app);
  if (core.mcp && config.admin.tokens.length > 0) {
    const { tokens, allowStdio } = config.admin;
    const allowedHosts = config.http.allowedHosts;
    mountAdminRoutes(app, { mcp: core.mcp, tokens, allowStdio, allowedHosts, logger });
    mountAdminPage(app);
  }
  if (config.slack) {
    const slack = createSlackAdapter(config.slack, { agent: core.agent, store: core.store, logger, app });
    adapters.push(slack);
    const send = slackDigestSender(slack);
    if (send) core.watching?.deliverTo("slack:", send);
  }
  if (config.line) {
    const line = createLineAdapter(config.line, { agent: core.agent, store: core.store, logger, app });
    adapters.push(line);
    const push = lineDigestSender(line);
    // Pushes use the channel's quota: only opted-in chats, within the monthly cap.
    if (push) core.watching?.deliverTo("line:", push, { metered: true });
  }
  finishHttpApp(app, logger);
  for (const adapter of adapters) await adapter.start();
  const server = await listen(app, config.http.host, config.http.port);
  // Connect the MCP servers in the background, so /healthz tells the truth before the first question.
  void core.tools.listTools().catch(() => undefined);
  // Sync the jGrants catalog in the background: answers use what it holds meanwhile.
  core.catalog?.start();
  // Watches due while the bot was down run once now, then at each check (with Redis: BullMQ's schedule).
  // In the background: a Redis that is still starting must not hold up the HTTP server.
  void Promise.resolve(core.watching?.scheduler.start()).catch((error) =>
    logger.error({ err: error }, "watch scheduler could not start"),
  );
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : config.http.port;
  const url = `http://${config.http.host.includes(":") ? `[${config.http.host}]` : config.http.host}:${port}`;
  let stopped = false;
  return {
    core,
    server,
    url,
    adapters,
    async stop() {
      if (stopped) return;
      stopped = true;
      // Stop taking requests, let answers in progress finish for a while, then cut the rest short.
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      await Promise.allSettled(adapters.map((a) => a.stop()));
      await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, SHUTDOWN_GRACE_MS).unref())]);
      shutdown.abort(new Error("shutting down"));
      server.closeAllConnections();
      await closed;
      await core.close();
    },
  };
}

async function main(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    process.stderr.write(`${describeError(error)}\n`);
    process.exit(2);
  }
  const logger = createLogger({ level: config.logLevel });
  const running = await startApp(config, logger);
  logger.info(
    {
      url: running.url,
      llm: running.core.planner.mode,
      adapters: running.adapters.map((a) => a.name),
      jgrants: config.jgrants.mcpUrl ? "remote" : config.jgrants.source,
    },
    `subsidy-concierge is listening on ${running.url} (web chat: ${running.url}/)`,
  );
  const shutdown = (signal: string) => {
    logger.info({ signal }, "shutting down");
    running
      .stop()
      .catch((error) => logger.error({ err: error }, "shutdown failed"))
      .finally(() => process.exit(0));
  };
  process.once("SIGTERM", () => shutdown("SIGTERM"));
  process.once("SIGINT", () => shutdown("SIGINT"));
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error) => {
    process.stderr.write(`fatal: ${describeError(error)}\n`);
    process.exit(1);
  });
}
