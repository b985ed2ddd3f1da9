/**
 * The LINE adapter: POST /line/webhook on the shared Express app. The SDK middleware validates the
 * signature on the raw bytes (401 otherwise), the webhook answers 200 at once, and each event is worked
 * afterwards, in order per chat.
 */

import { setMaxListeners } from "node:events";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { JSONParseError, middleware, SignatureValidationFailed } from "@line/bot-sdk";
import express, { type ErrorRequestHandler, type RequestHandler } from "express";
import type { Config } from "../../src/config.ts";
import { createLogger, type Logger } from "../../src/logger.ts";
import type { AgentLike, PlatformAdapter, ThreadStore } from "../../src/types.ts";
import { createLineApi } from "./client.ts";
import { createLineDigestSender } from "./digest.ts";
import { createEventHandler, type EventHandlerDeps } from "./handler.ts";
import { classifyEvent, type LineAction } from "./parse.ts";

/** The path of the webhook on the shared HTTP server. */
export const LINE_WEBHOOK_PATH = "/line/webhook";

const addresses = new WeakMap<PlatformAdapter, () => string | undefined>();
const digestSenders = new WeakMap<PlatformAdapter, ReturnType<typeof createLineDigestSender>>();

/** Pushes a watch digest to its LINE chat through the adapter's client (main.ts routes digests here). */
export function lineDigestSender(adapter: PlatformAdapter) {
  return digestSenders.get(adapter);
}

/** The base URL of the adapter's own server (only when it created one, after start()). */
export function lineAdapterUrl(adapter: PlatformAdapter): string | undefined {
  return addresses.get(adapter)?.();
}

/** What the adapter needs besides its config; `loading` and `retryDelaysMs` tune timings (tests, benches). */
export interface LineAdapterDeps {
  agent: AgentLike;
  store: ThreadStore;
  logger?: Logger;
  app?: import("express").Application;
  /** The loading animation: seconds per call (default 20) and re-issue interval (default seconds − 5 s). */
  loading?: EventHandlerDeps["loading"];
  /** Waits before each retry of a failed reply or push (default 500 ms, 2 s). */
  retryDelaysMs?: number[];
}

/** Builds the LINE adapter and mounts its webhook on deps.app (or on an app of its own). */
export function createLineAdapter(
  config: NonNullable<Config["line"]>,
  deps: LineAdapterDeps,
): PlatformAdapter {
  const logger = (deps.logger ?? createLogger()).child({ adapter: "line" });
  const app = deps.app ?? express();
  const api = createLineApi({ channelAccessToken: config.channelAccessToken, baseURL: config.apiUrl });
  const abort = new AbortController();
  // Every event in progress follows this signal and lets go when it ends: many listeners at once are
  // normal under load, not a leak (Node would warn past 10).
  setMaxListeners(0, abort.signal);
  const handle = createEventHandler({
    config,
    api,
    agent: deps.agent,
    store: deps.store,
    logger,
    signal: abort.signal,
    loading: deps.loading,
    retryDelaysMs: deps.retryDelaysMs,
  });
  const inFlight = new Set<Promise<void>>();
  const chains = new Map<string, Promise<void>>();
  let server: Server | undefined;

  /** Queues an event behind earlier ones of the same chat, so turns keep their order. */
  const enqueue = (action: LineAction, receivedAt: number) => {
    const key = action.type === "ignore" ? "ignore" : action.chat.threadKey;
    const run = (chains.get(key) ?? Promise.resolve())
      .then(() => handle(action, receivedAt))
      .catch((error: unknown) => logger.error({ err: error }, "LINE event failed"));
    chains.set(key, run);
    inFlight.add(run);
    void run.finally(() => {
      inFlight.delete(run);
      if (chains.get(key) === run) chains.delete(key);
    });
  };

  const warnParsedBody: RequestHandler = (req, _res, next) => {
    const body: unknown = req.body;
    if (body !== undefined && !Buffer.isBuffer(body) && typeof body !== "string") {
      logger.error("a body parser ran before /line/webhook: the signature cannot be checked on the raw body");
    }
    next();
  };
  const accept: RequestHandler = (req, res) => {
    const receivedAt = Date.now();
    const body = req.body as { events?: unknown; destination?: unknown } | undefined;
    const events = body?.events;
    res.status(200).json({});
    if (!Array.isArray(events)) return;
    const options = {
      groupPrefix: config.groupPrefix,
      allowedUsers: config.allowedUsers,
      allowedGroups: config.allowedGroups,
      botUserId: typeof body?.destination === "string" ? body.destination : undefined,
    };
    for (const event of events) enqueue(classifyEvent(event, options), receivedAt);
  };
  const reject: ErrorRequestHandler = (error, _req, res, _next) => {
    if (error instanceof SignatureValidationFailed) {
      logger.warn("LINE webhook rejected: bad or missing signature");
      res.status(401).json({ error: "invalid signature" });
    } else if (error instanceof JSONParseError) {
      res.status(400).json({ error: "invalid JSON" });
    } else {
      const status = Number((error as { status?: unknown }).status);
      logger.error({ err: error }, "LINE webhook error");
      res.status(status >= 400 && status < 600 ? status : 500).json({ error: "webhook error" });
    }
  };
  app.post(
    LINE_WEBHOOK_PATH,
    warnParsedBody,
    express.raw({ type: () => true, limit: "1mb" }),
    middleware({ channelSecret: config.channelSecret }),
    accept,
    reject,
  );

  const adapter: PlatformAdapter = {
    name: "line",
    async start() {
      if (deps.app || server) return;
      const own = app.listen(0, "127.0.0.1");
      server = own;
      await new Promise<void>((resolve, reject) => {
        own.once("listening", resolve);
        own.once("error", reject);
      });
      logger.info({ url: lineAdapterUrl(adapter) }, "LINE webhook listening");
    },
    async stop() {
      // Let answers in progress finish (bounded), then abort what is left.
      const settle = Promise.allSettled([...inFlight]);
      const grace = new Promise((resolve) => setTimeout(resolve, 10_000).unref());
      await Promise.race([settle, grace]);
      abort.abort();
      await Promise.allSettled([...inFlight]);
      if (server) {
        const own = server;
        server = undefined;
        await new Promise<void>((resolve) => own.close(() => resolve()));
      }
    },
  };
  digestSenders.set(adapter, createLineDigestSender(api));
  addresses.set(adapter, () => {
    const address = server?.address() as AddressInfo | null | undefined;
    return address ? `http://127.0.0.1:${address.port}` : undefined;
  });
  return adapter;
}
