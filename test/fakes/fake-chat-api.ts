/**
 * A stand-in for the lead's HTTP server: mounts the web chat page and answers POST /chat/stream with a
 * scripted, realistic Server-Sent Events stream (progress, tool calls, answer deltas, reply), so the
 * browser test runs without agent, planner or MCP servers. Records every request.
 */
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { mountWebChat } from "../../adapters/web/index.ts";
import { chatResponse } from "../../src/http/chat-routes.ts";
import type { ProgressEvent, Reply } from "../../src/types.ts";
import { sampleReply } from "./sample-subsidies.ts";

export type StreamStep =
  | { event: "progress"; data: ProgressEvent }
  | { event: "tool"; data: Record<string, unknown> }
  | { event: "reply"; data: ChatResponse }
  | { event: "error"; data: { error: string } }
  /** Pauses the stream until the promise settles (lets a test look at the page mid-answer). */
  | { wait: Promise<unknown> };

/** A script: the stream's steps, or an error answered before streaming. */
export type Script = StreamStep[] | { status: number; error: string };

export interface ChatRequestBody {
  message: string;
  threadId?: string;
}

export interface RecordedRequest {
  path: string;
  body: ChatRequestBody;
  authorization?: string;
}

/** The final JSON of /chat and the `reply` event of /chat/stream. */
export interface ChatResponse {
  answer: string;
  plan: Reply["plan"];
  toolResults: Reply["toolResults"];
  subsidies: Reply["subsidies"];
  threadId: string;
  notes?: string[];
  _meta: Reply["meta"];
}

export interface FakeChatApiOptions {
  title?: string;
  /** When set, requests must carry `Authorization: Bearer <token>`. */
  token?: string;
  maxMessageChars?: number;
}

/** The wire shape of a Reply: the server's own chatResponse. */
export function toChatResponse(reply: Reply, threadId: string): ChatResponse {
  return chatResponse(reply, threadId, "subsidy-concierge") as unknown as ChatResponse;
}

/** A realistic turn: search, details, streamed answer, reply with 3 sample subsidies. */
export function defaultScript(body: ChatRequestBody, index: number): StreamStep[] {
  const threadId = body.threadId ?? `web:thread-${index + 1}`;
  const area = /大阪/.test(body.message) ? "大阪府" : "東京都";
  const reply = sampleReply(3);
  const search = { server: "jgrants", tool: "search_subsidies" };
  const detail = { server: "jgrants", tool: "get_subsidy_detail" };
  const args = { keyword: "IT導入", area, acceptance: "1" };
  const chunks = reply.text.match(/[\s\S]{1,24}/g) ?? [];
  return [
    { event: "progress", data: { type: "searching", keywords: ["IT導入"], filters: { area } } },
    {
      event: "tool",
      data: { phase: "planned", ...search, args, reason: "キーワードと地域で検索", round: 1 },
    },
    {
      event: "tool",
      data: { phase: "finished", ...search, isError: false, summary: "12件ヒット", durationMs: 245 },
    },
    { event: "progress", data: { type: "found", count: 12, shown: 3 } },
    {
      event: "tool",
      data: {
        phase: "planned",
        ...detail,
        args: { id: reply.subsidies[0]?.id },
        reason: "上位の詳細",
        round: 2,
      },
    },
    { event: "progress", data: { type: "fetching-details", count: 1 } },
    {
      event: "tool",
      data: { phase: "finished", ...detail, isError: false, summary: "詳細を取得", durationMs: 1830 },
    },
    { event: "progress", data: { type: "composing" } },
    ...chunks.map((text): StreamStep => ({ event: "progress", data: { type: "answer-delta", text } })),
    { event: "progress", data: { type: "done" } },
    { event: "reply", data: toChatResponse(reply, threadId) },
  ];
}

export function createFakeChatApi(initial: FakeChatApiOptions = {}) {
  const options = { ...initial };
  const requests: RecordedRequest[] = [];
  let script: (body: ChatRequestBody, index: number) => Script = defaultScript;
  const app = express();
  app.use(express.json({ limit: "256kb" }));
  mountWebChat(app, { title: options.title });

  /** Validates and records a request; answers the error itself and returns null when it is refused. */
  const accept = (req: express.Request, res: express.Response): StreamStep[] | null => {
    const auth = req.get("authorization");
    const body = (req.body ?? {}) as Partial<ChatRequestBody>;
    if (options.token && auth !== `Bearer ${options.token}`) {
      res.status(401).json({ error: "認証が必要です" });
      return null;
    }
    if (typeof body.message !== "string" || body.message.trim() === "") {
      res.status(400).json({ error: "message は必須です" });
      return null;
    }
    if (body.message.length > (options.maxMessageChars ?? 2000)) {
      res.status(413).json({ error: "message が長すぎます" });
      return null;
    }
    const clean: ChatRequestBody = { message: body.message };
    if (typeof body.threadId === "string") clean.threadId = body.threadId;
    requests.push({ path: req.path, body: clean, ...(auth ? { authorization: auth } : {}) });
    const steps = script(clean, requests.length - 1);
    if (!Array.isArray(steps)) {
      res.status(steps.status).json({ error: steps.error });
      return null;
    }
    return steps;
  };

  app.post("/chat/stream", async (req, res) => {
    const steps = accept(req, res);
    if (!steps) return;
    res.status(200).set({ "Content-Type": "text/event-stream; charset=utf-8", "Cache-Control": "no-cache" });
    res.flushHeaders();
    res.write(": stream start\n\n");
    for (const step of steps) {
      if ("wait" in step) await step.wait.catch(() => undefined);
      else res.write(`event: ${step.event}\ndata: ${JSON.stringify(step.data)}\n\n`);
    }
    res.end();
  });

  app.post("/chat", async (req, res) => {
    const steps = accept(req, res);
    if (!steps) return;
    const last = steps.find((s) => "event" in s && (s.event === "reply" || s.event === "error"));
    if (last && "event" in last && last.event === "reply") res.json(last.data);
    else
      res
        .status(500)
        .json({ error: last && "event" in last ? (last.data as { error: string }).error : "no reply" });
  });

  return {
    app,
    requests,
    /** Replaces the script for the following requests (the default is defaultScript). */
    setScript(next: (body: ChatRequestBody, index: number) => Script) {
      script = next;
    },
    /** Requires (or, with undefined, stops requiring) a bearer token. */
    requireToken(token: string | undefined) {
      options.token = token;
    },
    reset() {
      requests.length = 0;
      script = defaultScript;
      options.token = initial.token;
    },
    /** Listens on a free loopback port. */
    async start(): Promise<{ url: string; close: () => Promise<void> }> {
      const server: Server = await new Promise((resolve) => {
        const s = app.listen(0, "127.0.0.1", () => resolve(s));
      });
      const { port } = server.address() as AddressInfo;
      return {
        url: `http://127.0.0.1:${port}`,
        close: () =>
          new Promise<void>((resolve) => {
            server.closeAllConnections();
            server.close(() => resolve());
          }),
      };
    },
  };
}

export type FakeChatApi = ReturnType<typeof createFakeChatApi>;
