/**
 * The one HTTP server: /healthz, /tools, /chat, /chat/stream, the web chat, and the adapters' routes
 * (mounted by main.ts before `finish()` adds the 404 and error handlers).
 */
import type { Server } from "node:http";
import express, { type Application, type NextFunction, type Request, type Response } from "express";
import type { Agent } from "../agent/agent.ts";
import type { CatalogInfo } from "../catalog/record-source.ts";
import type { Logger } from "../logger.ts";
import type { Metrics } from "../metrics/registry.ts";
import { newTraceId, referenceSuffix, withTrace } from "../trace.ts";
import type { ThreadStore, ToolHost } from "../types.ts";
import { hostGuard } from "./browser-guard.ts";
import { HttpError } from "./chat-request.ts";
import { mountChatRoutes } from "./chat-routes.ts";
import { mountMetrics } from "./metrics-route.ts";

export interface HttpAppDeps {
  agent: Agent;
  tools: ToolHost;
  store: ThreadStore;
  logger: Logger;
  apiToken?: string;
  /** Public host names (besides loopback) of the browser-facing routes. */
  allowedHosts?: string[];
  /** Aborted when the server shuts down: answers in progress stop. */
  shutdownSignal?: AbortSignal;
  /** Describes the planner for /healthz, e.g. { mode: "offline", model: null }. */
  llm: { mode: string; model: string | null };
  /** Served at GET /metrics when given. */
  metrics?: Metrics;
  /** Bearer token required on /metrics, when set. */
  metricsToken?: string;
  /** Other components to report in /healthz (adapters). */
  components?: () => Record<string, { ok: boolean; detail?: string }>;
  /** Watch digests kept for a web thread, taken when the page opens it again (POST /chat/open). */
  openThread?: (threadKey: string) => Promise<string[]>;
  /** The live jGrants catalog's state (records, last sync, last error), for /healthz and /tools. */
  catalog?: () => CatalogInfo;
}

/** The catalog report of /healthz and /tools, with the age of its data. */
function catalogReport(deps: HttpAppDeps) {
  const info = deps.catalog?.();
  if (!info) return undefined;
  const last = info.lastSyncAt ? Date.parse(info.lastSyncAt) : undefined;
  return {
    ...info,
    dataAgeHours: last === undefined ? null : Math.round((Date.now() - last) / 360_000) / 10,
  };
}

/** Essential MCP servers: /healthz answers 503 when one of them is down. */
const ESSENTIAL_SERVERS = new Set(["jgrants"]);

/** Paths that apply the Host check although they change nothing: the web chat page and the status routes. */
const HOST_CHECKED = new Set(["/", "/index.html", "/healthz", "/tools", "/metrics"]);
const isHostChecked = (path: string) => HOST_CHECKED.has(path) || path.startsWith("/web/");

/** States in which a server has no usable session because something failed (not idle or disabled). */
const DOWN_STATES = new Set(["failed", "reconnecting"]);

/** Builds the Express app with the core routes. Call `finishHttpApp` after mounting adapter routes. */
export function createHttpApp(deps: HttpAppDeps): Application {
  const app = express();
  app.disable("x-powered-by");
  // One trace id per request: on its log lines, in X-Request-Id, and as the 参照ID of a 500.
  app.use((_req, res, next) => {
    const traceId = newTraceId();
    res.locals.traceId = traceId;
    res.setHeader("X-Request-Id", traceId);
    withTrace(() => next(), traceId);
  });
  // The read-only pages answer only to our own host names too (DNS rebinding could read them otherwise).
  const hosts = hostGuard({ allowedHosts: deps.allowedHosts ?? [] });
  app.use((req, res, next) => (isHostChecked(req.path) ? hosts(req, res, next) : next()));

  app.get("/healthz", async (_req, res) => {
    const store = await deps.store.health().catch((error: unknown) => ({
      ok: false,
      backend: "unknown",
      error: String(error),
    }));
    const servers = deps.tools.status();
    const failing = servers.filter((s) => DOWN_STATES.has(s.state));
    const essentialDown = failing.some((s) => ESSENTIAL_SERVERS.has(s.name));
    const ok = store.ok && !essentialDown;
    res.status(ok ? 200 : 503).json({
      status: ok ? (failing.length > 0 ? "degraded" : "ok") : "down",
      components: {
        store,
        tools: servers,
        llm: deps.llm,
        ...(deps.catalog ? { catalog: catalogReport(deps) } : {}),
        ...(deps.components?.() ?? {}),
      },
    });
  });

  app.get("/tools", async (_req, res) => {
    const tools = await deps.tools.listTools().catch(() => []);
    const status = new Map(deps.tools.status().map((s) => [s.name, s]));
    res.json({
      tools: tools.map((t) => ({
        server: t.server,
        name: t.name,
        qualifiedName: t.qualifiedName,
        description: t.description,
        readOnly: t.readOnly,
        status: status.get(t.server)?.state ?? "unknown",
      })),
      servers: [...status.values()],
      ...(deps.catalog ? { catalog: catalogReport(deps) } : {}),
    });
  });

  if (deps.metrics) mountMetrics(app, deps.metrics, deps.metricsToken);
  mountChatRoutes(app, {
    agent: deps.agent,
    logger: deps.logger,
    apiToken: deps.apiToken,
    allowedHosts: deps.allowedHosts,
    shutdownSignal: deps.shutdownSignal,
    openThread: deps.openThread,
  });
  return app;
}

/** Adds the 404 and error handlers: every error is JSON `{error}` with a clear message. */
export function finishHttpApp(app: Application, logger: Logger): void {
  app.use((_req: Request, res: Response) => {
    res.status(404).json({ error: "見つかりません（Not Found）。" });
  });
  app.use((error: unknown, _req: Request, res: Response, _next: NextFunction) => {
    const traceId = typeof res.locals.traceId === "string" ? res.locals.traceId : newTraceId();
    const err = error as { status?: number; type?: string; message?: string };
    if (error instanceof HttpError) return void res.status(error.status).json({ error: error.message });
    if (err.type === "entity.parse.failed") {
      return void res
        .status(400)
        .json({ error: `JSON の形式が正しくありません: ${err.message ?? ""}`.trim() });
    }
    if (err.type === "entity.too.large") {
      return void res.status(413).json({ error: "リクエストが大きすぎます（64KBまで）。" });
    }
    if (typeof err.status === "number" && err.status >= 400 && err.status < 500) {
      return void res.status(err.status).json({ error: err.message ?? "リクエストが正しくありません。" });
    }
    withTrace(() => logger.error({ err: error }, "unhandled HTTP error"), traceId);
    res.status(500).json({ error: `サーバー内部でエラーが発生しました。${referenceSuffix(traceId)}` });
  });
}

/** Listens and resolves with the server once bound (port 0 picks a free port). */
export function listen(app: Application, host: string, port: number): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = app.listen(port, host, (error?: Error) => {
      server.off("error", reject);
      if (error) reject(error);
      else resolve(server);
    });
    server.on("error", reject);
  });
}
