/**
 * A local stand-in for the LINE Messaging API (node:http on 127.0.0.1:0). It records reply, push,
 * loading-animation and quota calls, answers like LINE (single-use reply tokens, 409 for an accepted
 * X-Line-Retry-Key, 429 monthly limit) and checks message limits, so adapter tests see real failures.
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export type LineCallKind = "reply" | "push" | "loading" | "quota" | "quota-consumption" | "other";

export interface LineCall {
  kind: LineCallKind;
  method: string;
  path: string;
  headers: IncomingMessage["headers"];
  // biome-ignore lint/suspicious/noExplicitAny: recorded JSON, inspected freely by tests
  body: any;
  /** The status the fake answered. */
  status: number;
}

export interface ScriptedFailure {
  status: number;
  message: string;
  /** For push: accept the request (remember its retry key) and still answer the failure, like a lost response. */
  acceptFirst?: boolean;
}

export interface FakeLineApi {
  url: string;
  token: string;
  calls: LineCall[];
  /** Successful calls of one kind. */
  ok(kind: LineCallKind): LineCall[];
  /** Makes the next call(s) of a kind fail, in order. */
  failNext(kind: "reply" | "push" | "loading", failure: ScriptedFailure): void;
  /** Marks reply tokens as expired (LINE answers 400 Invalid reply token). */
  expireToken(token: string): void;
  /** Every push answers 429 "You have reached your monthly limit." while set. */
  quotaExhausted: boolean;
  /** Resolves when predicate(calls) holds; rejects after timeoutMs. */
  waitFor(predicate: (calls: LineCall[]) => boolean, timeoutMs?: number): Promise<void>;
  reset(): void;
  close(): Promise<void>;
}

const RETRY_KEY = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function kindOf(method: string, path: string): LineCallKind {
  if (method === "POST" && path === "/v2/bot/message/reply") return "reply";
  if (method === "POST" && path === "/v2/bot/message/push") return "push";
  if (method === "POST" && path === "/v2/bot/chat/loading/start") return "loading";
  if (method === "GET" && path === "/v2/bot/message/quota") return "quota";
  if (method === "GET" && path === "/v2/bot/message/quota/consumption") return "quota-consumption";
  return "other";
}

/** LINE-like validation of a messages array; returns an error text or null. */
function checkMessages(messages: unknown): string | null {
  if (!Array.isArray(messages) || messages.length < 1 || messages.length > 5)
    return "messages: must be 1 to 5";
  // biome-ignore lint/suspicious/noExplicitAny: untrusted request JSON
  for (const m of messages as any[]) {
    if (m.type === "text" && (typeof m.text !== "string" || m.text.length > 5000 || m.text.length === 0)) {
      return "text: must be 1 to 5000 characters";
    }
    if (m.type === "flex") {
      if (typeof m.altText !== "string" || !m.altText || m.altText.length > 1500)
        return "altText: required, ≤1500";
      const bubbles = m.contents?.type === "carousel" ? m.contents.contents : [m.contents];
      if (bubbles.length > 12) return "carousel: at most 12 bubbles";
      if (Buffer.byteLength(JSON.stringify(m.contents)) > 50_000) return "flex: carousel over 50 KB";
      for (const b of bubbles)
        if (Buffer.byteLength(JSON.stringify(b)) > 10_000) return "flex: bubble over 10 KB";
    }
    if ((m.quickReply?.items?.length ?? 0) > 13) return "quickReply: at most 13 items";
  }
  return null;
}

/** Starts the fake API; `token` is the channel access token it accepts. */
export async function startFakeLineApi(token = "test-access-token"): Promise<FakeLineApi> {
  const calls: LineCall[] = [];
  const failures = new Map<string, ScriptedFailure[]>();
  const usedTokens = new Set<string>();
  const acceptedKeys = new Set<string>();
  const state = { quotaExhausted: false };

  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString("utf8");
    const path = new URL(req.url ?? "/", "http://x").pathname;
    const kind = kindOf(req.method ?? "GET", path);
    // biome-ignore lint/suspicious/noExplicitAny: untrusted request JSON
    let body: any = null;
    try {
      body = raw ? JSON.parse(raw) : null;
    } catch {
      body = raw;
    }
    const answer = (status: number, payload: unknown, headers: Record<string, string> = {}) => {
      calls.push({ kind, method: req.method ?? "", path, headers: req.headers, body, status });
      res.writeHead(status, { "content-type": "application/json", ...headers });
      res.end(JSON.stringify(payload));
    };
    if (req.headers.authorization !== `Bearer ${token}`)
      return answer(401, { message: "Authentication failed" });
    if (kind === "quota") return answer(200, { type: "limited", value: 200 });
    if (kind === "quota-consumption") return answer(200, { totalUsage: 200 });
    if (kind === "other") return answer(404, { message: "Not found" });
    const retryKey = String(req.headers["x-line-retry-key"] ?? "");
    if (kind === "push" && retryKey && !RETRY_KEY.test(retryKey))
      return answer(400, { message: "Invalid retry key" });
    if (kind === "push" && retryKey && acceptedKeys.has(retryKey)) {
      return answer(
        409,
        { message: "The retry key is already accepted" },
        { "x-line-accepted-request-id": "req-1" },
      );
    }
    const scripted = failures.get(kind)?.shift();
    if (scripted) {
      if (scripted.acceptFirst && retryKey) acceptedKeys.add(retryKey);
      return answer(scripted.status, { message: scripted.message });
    }
    if (kind === "loading") {
      const seconds = body?.loadingSeconds;
      const valid = typeof body?.chatId === "string" && seconds % 5 === 0 && seconds >= 5 && seconds <= 60;
      return valid ? answer(202, {}) : answer(400, { message: "The request body has 1 error(s)" });
    }
    const problem = checkMessages(body?.messages);
    if (problem)
      return answer(400, { message: "The request body has 1 error(s)", details: [{ message: problem }] });
    if (kind === "reply") {
      const replyToken = String(body?.replyToken ?? "");
      if (!replyToken || usedTokens.has(replyToken)) return answer(400, { message: "Invalid reply token" });
      usedTokens.add(replyToken);
      return answer(200, { sentMessages: body.messages.map((_: unknown, i: number) => ({ id: `r${i}` })) });
    }
    if (state.quotaExhausted) return answer(429, { message: "You have reached your monthly limit." });
    if (retryKey) acceptedKeys.add(retryKey);
    return answer(200, { sentMessages: body.messages.map((_: unknown, i: number) => ({ id: `p${i}` })) });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    token,
    calls,
    get quotaExhausted() {
      return state.quotaExhausted;
    },
    set quotaExhausted(value: boolean) {
      state.quotaExhausted = value;
    },
    ok: (kind) => calls.filter((c) => c.kind === kind && c.status < 300),
    failNext(kind, failure) {
      failures.set(kind, [...(failures.get(kind) ?? []), failure]);
    },
    expireToken: (t) => usedTokens.add(t),
    async waitFor(predicate, timeoutMs = 5000) {
      const until = Date.now() + timeoutMs;
      while (!predicate(calls)) {
        if (Date.now() > until)
          throw new Error(
            `fake LINE API: condition not met; calls: ${calls.map((c) => `${c.kind}:${c.status}`).join(", ")}`,
          );
        await new Promise((r) => setTimeout(r, 10));
      }
    },
    reset() {
      calls.length = 0;
      failures.clear();
      state.quotaExhausted = false;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
