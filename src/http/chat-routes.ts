/** POST /chat (the first seed's JSON API) and POST /chat/stream (Server-Sent Events). */

import express, { type Application, type NextFunction, type Request, type Response } from "express";
import { scopedSignal } from "../abort.ts";
import type { Agent, ToolEvent } from "../agent/agent.ts";
import { progressText } from "../agent/progress-text.ts";
import type { Logger } from "../logger.ts";
import { referenceSuffix, withTrace } from "../trace.ts";
import type { ProgressEvent, Reply } from "../types.ts";
import { browserGuard, requireJson, sameSecret } from "./browser-guard.ts";
import { HttpError, MAX_BODY_BYTES, parseChatRequest, parseOpenRequest } from "./chat-request.ts";

export interface ChatRoutesOptions {
  agent: Agent;
  logger: Logger;
  apiToken?: string;
  agentName?: string;
  /** Public host names (besides loopback) the browser-facing routes answer to. */
  allowedHosts?: string[];
  /** Aborted when the server shuts down. */
  shutdownSignal?: AbortSignal;
  /** Watch digests kept for a thread, taken (into its history) when the page opens it again. */
  openThread?: (threadKey: string) => Promise<string[]>;
}

/**
 * A signal that fires when the client goes away or the server shuts down; released when the response
 * closes, so the long-lived shutdown signal keeps nothing of a finished request.
 */
function turnSignal(res: import("express").Response, shutdown?: AbortSignal): AbortSignal {
  const scope = scopedSignal({ follow: [shutdown] });
  res.on("close", () => {
    if (res.writableFinished) scope.dispose();
    else scope.abort(new Error("client disconnected"));
  });
  return scope.signal;
}

/** The seed-compatible JSON shape of a reply. */
export function chatResponse(reply: Reply, threadId: string, agentName: string) {
  return {
    answer: reply.text,
    plan: reply.plan,
    toolResults: reply.toolResults,
    subsidies: reply.subsidies,
    totalCount: reply.totalCount,
    conditions: reply.conditions,
    notes: reply.notes,
    kind: reply.kind,
    ...(reply.view ? { view: reply.view } : {}),
    ...(reply.suggestions?.length ? { suggestions: reply.suggestions } : {}),
    threadId,
    _meta: {
      agent: { name: agentName, model: reply.meta.model, mode: reply.meta.mode },
      tools: { used_count: reply.meta.toolCalls },
      ...reply.meta,
    },
  };
}

/** Mounts the chat routes with their own JSON parser (so adapter routes keep their raw bodies). */
export function mountChatRoutes(app: Application, options: ChatRoutesOptions): void {
  const agentName = options.agentName ?? "subsidy-concierge";
  // Not strict: `null`, `42` or `"text"` reach parseChatRequest, which says the body must be an object.
  const json = express.json({ limit: MAX_BODY_BYTES, strict: false });
  const guard = browserGuard({ allowedHosts: options.allowedHosts ?? [] });
  const auth = (req: Request, _res: Response, next: NextFunction) => {
    if (!options.apiToken) return next();
    if (!sameSecret(req.get("authorization") ?? "", `Bearer ${options.apiToken}`)) {
      return next(new HttpError(401, "認証が必要です（Authorization: Bearer <token>）。"));
    }
    next();
  };

  app.post("/chat", guard, auth, requireJson, json, async (req, res, next) => {
    try {
      const { message, threadId } = parseChatRequest(req.body);
      // The body parser's callbacks lose the request's async context: the turn re-enters its trace.
      const reply = await withTrace(
        () =>
          options.agent.handle(
            { threadKey: `web:${threadId}`, platform: "http", userId: "http", text: message },
            { signal: turnSignal(res, options.shutdownSignal) },
          ),
        res.locals.traceId,
      );
      res.json(chatResponse(reply, threadId, agentName));
    } catch (error) {
      next(error);
    }
  });

  // The page opens a stored thread: digests that arrived meanwhile are shown (then they are in its history).
  app.post("/chat/open", guard, auth, requireJson, json, async (req, res, next) => {
    try {
      const threadId = parseOpenRequest(req.body);
      const digests = (await options.openThread?.(`web:${threadId}`)) ?? [];
      res.json({ threadId, digests: digests.map((answer) => ({ answer, kind: "watch" })) });
    } catch (error) {
      next(error);
    }
  });

  app.post("/chat/stream", guard, auth, requireJson, json, async (req, res, next) => {
    let threadId: string;
    let message: string;
    try {
      ({ message, threadId } = parseChatRequest(req.body));
    } catch (error) {
      return next(error);
    }
    res.status(200).set({
      "Content-Type": "text/event-stream; charset=utf-8",
      "Cache-Control": "no-cache, no-transform",
      Connection: "keep-alive",
      "X-Accel-Buffering": "no",
    });
    res.flushHeaders();
    const send = (event: string, data: unknown) => {
      if (!res.writableEnded) res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
    };
    const signal = turnSignal(res, options.shutdownSignal);
    const heartbeat = setInterval(() => res.write(": keep-alive\n\n"), 15_000);
    const traceId: string = res.locals.traceId;
    try {
      const reply = await withTrace(
        () =>
          options.agent.handle(
            { threadKey: `web:${threadId}`, platform: "web", userId: "web", text: message },
            {
              signal,
              onProgress: (event: ProgressEvent) => {
                const text = progressText(event);
                send("progress", text ? { ...event, text } : event);
              },
              onToolEvent: (event: ToolEvent) => {
                const { phase, ...rest } = event;
                send("tool", { phase, ...rest });
              },
            },
          ),
        traceId,
      );
      send("reply", chatResponse(reply, threadId, agentName));
    } catch (error) {
      withTrace(() => options.logger.error({ err: error }, "chat stream failed"), traceId);
      send("error", {
        error: `回答の作成中に問題が起きました。もう一度お試しください。${referenceSuffix(traceId)}`,
        traceId,
      });
    } finally {
      clearInterval(heartbeat);
      res.end();
    }
  });
}
