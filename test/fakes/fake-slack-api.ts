/**
 * A fake Slack Web API on loopback: records every call (method, params, token) and answers like Slack
 * (`{ ok: true, … }` on 200, `{ ok: false, error }` for platform errors, 429 with Retry-After).
 * Point `clientOptions.slackApiUrl` (SLACK_API_URL) at `fake.url`.
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface RecordedCall {
  method: string;
  params: Record<string, unknown>;
  /** The bearer token sent (never asserted on content in logs; only that one was sent). */
  token?: string;
  /** Answer given: "ok", a platform error code, or "http-<status>". */
  outcome: string;
  /** performance.now() when the request arrived (benchmarks). */
  at: number;
  /** The JSON answered (for chat.postMessage: the new message's ts). */
  response?: Record<string, unknown>;
}

/** One scripted answer, used once, for the next call of a method (`pass`: answer normally). */
export type ScriptedAnswer =
  | { pass: true }
  | { error: string }
  | { status: 429; retryAfter: number }
  | { status: number };

export interface FakeSlackApi {
  /** Base URL ending in "/api/", as the Web API client expects. */
  url: string;
  calls: RecordedCall[];
  botUserId: string;
  botId: string;
  teamId: string;
  /** Calls of one method that Slack accepted, in order. */
  accepted(method: string): RecordedCall[];
  /** Queues answers for the next calls of a method (each is used once). */
  script(method: string, ...answers: ScriptedAnswer[]): void;
  /** The URL apps.connections.open hands out (for a Socket Mode test). */
  socketUrl?: string;
  /** Resolves when the predicate holds over the recorded calls (polls; rejects after timeoutMs). */
  waitFor(predicate: (calls: RecordedCall[]) => boolean, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export interface FakeSlackApiOptions {
  botUserId?: string;
  botId?: string;
  teamId?: string;
  /** Extra latency of every answer, in ms (benchmarks). */
  latencyMs?: number;
}

async function readBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const raw = Buffer.concat(chunks).toString("utf8");
  if ((req.headers["content-type"] ?? "").includes("application/json")) {
    return raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
  }
  const params: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(raw)) {
    params[key] = /^[[{]/.test(value) ? safeJson(value) : value;
  }
  return params;
}

function safeJson(value: string): unknown {
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

/** Slack's own checks that matter to us: the ones behind `invalid_blocks` and `msg_too_long`. */
function validateMessage(params: Record<string, unknown>): string | null {
  const blocks = params.blocks;
  if (blocks !== undefined) {
    if (!Array.isArray(blocks) || blocks.length > 50) return "invalid_blocks";
    for (const block of blocks as Array<Record<string, unknown>>) {
      const text = block.text as { text?: string } | undefined;
      if (typeof text?.text === "string" && text.text.length > 3000) return "invalid_blocks";
      const fields = block.fields as Array<{ text: string }> | undefined;
      if (fields && (fields.length > 10 || fields.some((f) => f.text.length > 2000))) return "invalid_blocks";
    }
  } else if (typeof params.text !== "string" || params.text === "") {
    return "no_text";
  }
  if (typeof params.text === "string" && params.text.length > 40_000) return "msg_too_long";
  return null;
}

/** Starts the fake on 127.0.0.1 and a free port. */
export async function startFakeSlackApi(options: FakeSlackApiOptions = {}): Promise<FakeSlackApi> {
  const calls: RecordedCall[] = [];
  const scripts = new Map<string, ScriptedAnswer[]>();
  let tsCounter = 0;
  const fake = {
    botUserId: options.botUserId ?? "U0BOT0001",
    botId: options.botId ?? "B0BOT0001",
    teamId: options.teamId ?? "T0TEAM001",
  };

  const answer = (method: string, params: Record<string, unknown>): Record<string, unknown> => {
    switch (method) {
      case "auth.test":
        return {
          url: "https://example.slack.com/",
          team: "Example",
          user: "subsidy-bot",
          team_id: fake.teamId,
          user_id: fake.botUserId,
          bot_id: fake.botId,
        };
      case "chat.postMessage": {
        tsCounter += 1;
        const ts = `1790000000.${String(tsCounter).padStart(6, "0")}`;
        return { channel: params.channel, ts, message: { ...params, ts, bot_id: fake.botId } };
      }
      case "chat.update":
        return { channel: params.channel, ts: params.ts, text: params.text };
      case "chat.delete":
        return { channel: params.channel, ts: params.ts };
      case "assistant.threads.setStatus":
      case "assistant.threads.setSuggestedPrompts":
        return {};
      case "apps.connections.open":
        return { url: api.socketUrl };
      default:
        return { error: "unknown_method" };
    }
  };

  const server: Server = createServer(async (req, res) => {
    const at = performance.now();
    const method = (req.url ?? "").replace(/^\/api\//, "").split("?")[0] ?? "";
    const params = await readBody(req).catch(() => ({}));
    const auth = req.headers.authorization;
    const token = typeof auth === "string" ? auth.replace(/^Bearer /, "") : undefined;
    if (options.latencyMs) await new Promise((r) => setTimeout(r, options.latencyMs));
    const scripted = scripts.get(method)?.shift();
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { "content-type": "application/json", ...headers });
      res.end(JSON.stringify(body));
    };
    if (scripted && "status" in scripted) {
      calls.push({ method, params, token, at, outcome: `http-${scripted.status}` });
      const headers: Record<string, string> =
        "retryAfter" in scripted ? { "retry-after": String(scripted.retryAfter) } : {};
      send(
        scripted.status,
        { ok: false, error: scripted.status === 429 ? "ratelimited" : "fatal_error" },
        headers,
      );
      return;
    }
    const error =
      (scripted && "error" in scripted ? scripted.error : null) ??
      (method === "chat.postMessage" || method === "chat.update" ? validateMessage(params) : null);
    const result = error ? { error } : answer(method, params);
    const failed = typeof result.error === "string";
    calls.push({
      method,
      params,
      token,
      at,
      outcome: failed ? String(result.error) : "ok",
      response: result,
    });
    send(200, { ok: !failed, ...result });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  const api: FakeSlackApi = {
    url: `http://127.0.0.1:${port}/api/`,
    calls,
    ...fake,
    accepted: (method) => calls.filter((c) => c.method === method && c.outcome === "ok"),
    script(method, ...answers) {
      scripts.set(method, [...(scripts.get(method) ?? []), ...answers]);
    },
    async waitFor(predicate, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (!predicate(calls)) {
        if (Date.now() > deadline) {
          const seen = calls.map((c) => `${c.method}:${c.outcome}`).join(", ");
          throw new Error(`fake Slack API: condition not met within ${timeoutMs} ms; calls: ${seen}`);
        }
        await new Promise((r) => setTimeout(r, 10));
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return api;
}
