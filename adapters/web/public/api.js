/** The page's only network code: POST /chat/stream, read as Server-Sent Events. */
import { readSse } from "./sse.js";

/** An HTTP error before streaming began (400/401/413/503 …), with the server's message. */
export class ChatHttpError extends Error {
  /** @param {number} status @param {string} message */
  constructor(status, message) {
    super(message);
    this.name = "ChatHttpError";
    this.status = status;
  }
}

/**
 * Sends one message and dispatches the streamed events.
 * Resolves when the stream ends; rejects with ChatHttpError, or TypeError on network failure.
 * @param {{ message: string, threadId?: string | null, token?: string | null, signal?: AbortSignal }} request
 * @param {{ progress?: (e: any) => void, tool?: (e: any) => void, reply?: (r: any) => void, error?: (e: { error: string }) => void }} handlers
 */
export async function streamChat(request, handlers) {
  /** @type {Record<string, string>} */
  const headers = { "Content-Type": "application/json", Accept: "text/event-stream" };
  if (request.token) headers.Authorization = `Bearer ${request.token}`;
  /** @type {{ message: string, threadId?: string }} */
  const body = { message: request.message };
  if (request.threadId) body.threadId = request.threadId;
  const response = await fetch("/chat/stream", {
    method: "POST",
    headers,
    body: JSON.stringify(body),
    signal: request.signal,
  });
  const type = response.headers.get("content-type") ?? "";
  if (!response.ok) throw new ChatHttpError(response.status, await errorMessage(response));
  if (!type.includes("text/event-stream") || !response.body) {
    // A server may answer with the final JSON directly; treat it as the reply.
    handlers.reply?.(await response.json());
    return;
  }
  await readSse(response.body, ({ event, data }) => {
    const payload = parseJson(data);
    if (payload === undefined) return;
    if (event === "progress") handlers.progress?.(payload);
    else if (event === "tool") handlers.tool?.(payload);
    else if (event === "reply") handlers.reply?.(payload);
    else if (event === "error") handlers.error?.(payload);
  });
}

/**
 * Opens a stored thread again: the watch digests that arrived meanwhile ({answer, kind}[]).
 * @param {{ threadId: string, token?: string | null }} request
 * @returns {Promise<Array<{ answer: string, kind: string }>>}
 */
export async function openThread(request) {
  /** @type {Record<string, string>} */
  const headers = { "Content-Type": "application/json" };
  if (request.token) headers.Authorization = `Bearer ${request.token}`;
  const response = await fetch("/chat/open", {
    method: "POST",
    headers,
    body: JSON.stringify({ threadId: request.threadId }),
  });
  if (!response.ok) throw new ChatHttpError(response.status, await errorMessage(response));
  const json = await response.json();
  return Array.isArray(json?.digests) ? json.digests : [];
}

/** @param {Response} response */
async function errorMessage(response) {
  try {
    const json = await response.json();
    if (json && typeof json.error === "string") return json.error;
  } catch {
    // Not JSON: fall through to the status text.
  }
  return response.statusText || `HTTP ${response.status}`;
}

/** @param {string} text */
function parseJson(text) {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
