/**
 * A fake Gemini API for tests and the benchmark: a node:http server on 127.0.0.1:0 that answers
 * `POST /v1beta/models/{model}:generateContent` and `:streamGenerateContent?alt=sse` the way the real
 * service does for @google/genai, from a script. Point the SDK at it with `httpOptions.baseUrl = url`
 * (or GEMINI_BASE_URL). Every request is recorded, with its parsed body and the concatenated text of its
 * prompt, so tests can assert what was sent.
 *
 * A script is a queue of replies (consumed in order) or a function of the request. A reply is one of:
 *   { functionCalls: [{ name, args, thoughtSignature? }], text? }   native function calls (several = parallel)
 *   { text: "…" } or { text: ["chunk1", "chunk2"] }               text; an array is streamed chunk by chunk
 *   { error: 429 | 500 | …, message?, retryDelay? }               an HTTP error with Gemini's error body
 *                                                                  (retryDelay, e.g. "37s", adds RetryInfo)
 *   { malformedJson: true }                                        a 200 whose body is not JSON
 *   { finishReason: "MALFORMED_FUNCTION_CALL" }                    a candidate without content
 *   { raw: {...} }                                                 a GenerateContentResponse body as given
 * Each reply may add `delayMs` (wait before answering: use it for timeouts) and `finishReason`.
 * `options.latencyMs` adds a delay to every request (the benchmark uses 1000 ms).
 * When a queue runs out, the server answers 500 "fake-gemini: script exhausted", so a test notices.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface FakeFunctionCall {
  name: string;
  args?: Record<string, unknown>;
  /** Sent as the part's thoughtSignature, as thinking models do. */
  thoughtSignature?: string;
}

interface ReplyBase {
  /** Milliseconds to wait before answering (after options.latencyMs). */
  delayMs?: number;
  finishReason?: string;
}

/** One scripted reply (see the file comment for the variants). */
export type FakeGeminiReply = ReplyBase &
  (
    | { functionCalls: FakeFunctionCall[]; text?: string }
    | { text: string | string[] }
    | { error: number; message?: string; retryDelay?: string }
    | { malformedJson: true }
    | { finishReason: string }
    | { raw: unknown }
  );

/** One request as the fake received it. */
export interface RecordedRequest {
  /** 0-based order of arrival. */
  index: number;
  method: string;
  /** Path and query, e.g. "/v1beta/models/gemini-2.5-flash:generateContent". */
  url: string;
  model: string;
  stream: boolean;
  headers: IncomingMessage["headers"];
  /** The parsed JSON body (null when it was not JSON). */
  body: Record<string, unknown> | null;
  /** Size of the request body in bytes. */
  bytes: number;
  /** Every text part of systemInstruction and contents, joined with newlines (handy for assertions). */
  text: string;
  /** Names of the function declarations offered. */
  functionNames: string[];
}

/** A queue of replies, or a function choosing the reply for each request. */
export type FakeGeminiScript =
  | FakeGeminiReply[]
  | ((request: RecordedRequest) => FakeGeminiReply | Promise<FakeGeminiReply>);

/** A running fake: its base URL, the recorded requests, and close(). */
export interface FakeGemini {
  /** Base URL for `httpOptions.baseUrl`, e.g. "http://127.0.0.1:41234". */
  url: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

/** Starts the fake Gemini server. */
export async function startFakeGemini(
  script: FakeGeminiScript,
  options: { latencyMs?: number } = {},
): Promise<FakeGemini> {
  const requests: RecordedRequest[] = [];
  const queue = Array.isArray(script) ? [...script] : null;
  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) sendError(res, 500, `fake-gemini: ${String(error)}`);
      else res.end();
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = await readBody(req);
    const match = /^\/v1beta\/models\/([^:/?]+):(generateContent|streamGenerateContent)/.exec(req.url ?? "");
    if (req.method !== "POST" || !match) {
      sendError(res, 404, `fake-gemini: no route ${req.url}`);
      return;
    }
    const recorded = record(req, raw, match[1] ?? "", match[2] === "streamGenerateContent");
    requests.push(recorded);
    const reply = queue
      ? (queue.shift() ?? { error: 500, message: "fake-gemini: script exhausted" })
      : await (script as Exclude<FakeGeminiScript, FakeGeminiReply[]>)(recorded);
    const wait = (options.latencyMs ?? 0) + (reply.delayMs ?? 0);
    if (wait > 0 && !(await sleepUnlessClosed(wait, req))) return;
    respond(res, reply, recorded.stream);
  }

  function record(req: IncomingMessage, raw: string, model: string, stream: boolean): RecordedRequest {
    let body: Record<string, unknown> | null = null;
    try {
      body = JSON.parse(raw) as Record<string, unknown>;
    } catch {
      body = null;
    }
    return {
      index: requests.length,
      method: req.method ?? "",
      url: req.url ?? "",
      model,
      stream,
      headers: req.headers,
      body,
      bytes: Buffer.byteLength(raw),
      text: collectText(body),
      functionNames: collectFunctionNames(body),
    };
  }

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function respond(res: ServerResponse, reply: FakeGeminiReply, stream: boolean): void {
  if ("error" in reply) {
    sendError(res, reply.error, reply.message ?? `fake-gemini error ${reply.error}`, reply.retryDelay);
    return;
  }
  if ("malformedJson" in reply) {
    res.writeHead(200, { "content-type": stream ? "text/event-stream" : "application/json" });
    res.end(stream ? 'data: {"candidates": [{"content": \n\n' : '{"candidates": [{"content": {"parts": [');
    return;
  }
  const chunks = toChunks(reply);
  if (!stream) {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify(merge(chunks)));
    return;
  }
  res.writeHead(200, { "content-type": "text/event-stream" });
  for (const chunk of chunks) res.write(`data: ${JSON.stringify(chunk)}\r\n\r\n`);
  res.end();
}

/** The reply as GenerateContentResponse chunks (one for non-streamed replies). */
function toChunks(reply: FakeGeminiReply): Record<string, unknown>[] {
  if ("raw" in reply) return [reply.raw as Record<string, unknown>];
  const usage = { usageMetadata: { promptTokenCount: 100, candidatesTokenCount: 20, totalTokenCount: 120 } };
  if ("functionCalls" in reply) {
    const parts: Record<string, unknown>[] = reply.text ? [{ text: reply.text }] : [];
    for (const call of reply.functionCalls) {
      const part: Record<string, unknown> = { functionCall: { name: call.name, args: call.args ?? {} } };
      if (call.thoughtSignature) part.thoughtSignature = call.thoughtSignature;
      parts.push(part);
    }
    return [candidate(parts, reply.finishReason ?? "STOP", usage)];
  }
  if ("text" in reply) {
    const texts = Array.isArray(reply.text) ? reply.text : [reply.text];
    return texts.map((text, i) =>
      candidate([{ text }], i === texts.length - 1 ? (reply.finishReason ?? "STOP") : undefined, usage),
    );
  }
  return [{ candidates: [{ finishReason: reply.finishReason, index: 0 }], ...usage }];
}

function candidate(parts: unknown[], finishReason: string | undefined, extra: Record<string, unknown>) {
  return { candidates: [{ content: { role: "model", parts }, finishReason, index: 0 }], ...extra };
}

/** Joins streamed text chunks into one response, as the unary endpoint would return it. */
function merge(chunks: Record<string, unknown>[]): Record<string, unknown> {
  if (chunks.length === 1) return chunks[0] ?? {};
  const text = chunks.map((c) => collectText({ contents: [firstContent(c)] })).join("");
  return candidate([{ text }], "STOP", {});
}

function firstContent(chunk: Record<string, unknown>): unknown {
  const candidates = chunk.candidates as Array<{ content?: unknown }> | undefined;
  return candidates?.[0]?.content ?? {};
}

function sendError(res: ServerResponse, status: number, message: string, retryDelay?: string): void {
  const names: Record<number, string> = {
    400: "INVALID_ARGUMENT",
    404: "NOT_FOUND",
    429: "RESOURCE_EXHAUSTED",
    500: "INTERNAL",
    503: "UNAVAILABLE",
  };
  res.writeHead(status, { "content-type": "application/json" });
  // Gemini states how long to wait on a 429 as google.rpc.RetryInfo in the error's details.
  const details = retryDelay
    ? [{ "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay }]
    : undefined;
  res.end(JSON.stringify({ error: { code: status, message, status: names[status] ?? "UNKNOWN", details } }));
}

function collectText(body: Record<string, unknown> | null): string {
  if (!body) return "";
  const contents = [body.systemInstruction, ...((body.contents as unknown[]) ?? [])];
  const texts: string[] = [];
  for (const content of contents) {
    const parts = (content as { parts?: Array<{ text?: unknown }> } | undefined)?.parts ?? [];
    for (const part of parts) if (typeof part.text === "string") texts.push(part.text);
  }
  return texts.join("\n");
}

function collectFunctionNames(body: Record<string, unknown> | null): string[] {
  const tools = (body?.tools as Array<{ functionDeclarations?: Array<{ name: string }> }>) ?? [];
  return tools.flatMap((tool) => (tool.functionDeclarations ?? []).map((d) => d.name));
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

/** Waits ms; resolves false early when the client went away (e.g. the SDK's timeout aborted it). */
function sleepUnlessClosed(ms: number, req: IncomingMessage): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      req.socket.off("close", onClose);
      resolve(true);
    }, ms);
    const onClose = () => {
      clearTimeout(timer);
      resolve(false);
    };
    req.socket.once("close", onClose);
  });
}
