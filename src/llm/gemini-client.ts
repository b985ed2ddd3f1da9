/**
 * The one runtime import site of @google/genai. A small wrapper that the planner and the answerer share:
 * base URL and key from config, a per-attempt timeout, bounded exponential backoff on 429/5xx/network
 * errors (the SDK's own retry is left off so that attempts, delays and counters stay ours), and a count
 * of the prompt bytes and requests actually sent.
 */
import { ApiError, type Content, type FunctionDeclaration, GoogleGenAI, type Part } from "@google/genai";
import { scopedSignal } from "../abort.ts";
import type { Config } from "../config.ts";
import type { Logger } from "../logger.ts";
import { silentLogger } from "../logger.ts";
import { GeminiError } from "./gemini-errors.ts";

/** SDK types the planner and answerer use, re-exported so that only this file imports the SDK. */
export type { Content, FunctionDeclaration, Part };

/** The Gemini section of the config (present when GOOGLE_API_KEY is set). */
export type GeminiConfig = NonNullable<Config["gemini"]>;

/** One request: a system instruction, the contents, and optionally function declarations. */
export interface GeminiRequest {
  systemInstruction?: string;
  contents: Content[];
  functionDeclarations?: FunctionDeclaration[];
  temperature?: number;
}

/** A model reply, with the model's content kept verbatim (thought signatures included) for replay. */
export interface GeminiResult {
  content: Content | undefined;
  functionCalls: Array<{ name: string; args: Record<string, unknown> }>;
  /** Visible text (thought parts excluded). */
  text: string;
  finishReason: string | undefined;
  /** Requests sent for this call (1 + retries). */
  attempts: number;
  /** Bytes of prompt sent over all attempts. */
  promptBytes: number;
}

export interface RetryOptions {
  /** Delay before the first retry; doubles each time (default 500 ms). */
  baseDelayMs?: number;
  /** Upper bound of one delay (default 8000 ms). */
  maxDelayMs?: number;
  /** Injectable sleep, so tests need not wait. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/** What createGeminiClient needs: the config section, a logger, and optional backoff settings. */
export interface GeminiClientOptions {
  config: GeminiConfig;
  logger?: Logger;
  retry?: RetryOptions;
}

/** The wrapper the planner and answerer call; it throws GeminiError only. */
export interface GeminiClient {
  readonly model: string;
  /** One generateContent call (with retries). Throws GeminiError. */
  generate(request: GeminiRequest, options?: { signal?: AbortSignal }): Promise<GeminiResult>;
  /** One streamGenerateContent call; text deltas go to onDelta. Retries only before the first delta. */
  generateStream(
    request: GeminiRequest,
    options?: { signal?: AbortSignal; onDelta?: (text: string) => void },
  ): Promise<GeminiResult>;
}

/** Creates the client wrapper for one Gemini configuration. */
export function createGeminiClient(options: GeminiClientOptions): GeminiClient {
  const { config } = options;
  const logger = options.logger ?? silentLogger;
  const ai = new GoogleGenAI({
    apiKey: config.apiKey,
    httpOptions: config.baseUrl ? { baseUrl: config.baseUrl } : undefined,
  });
  const baseDelayMs = options.retry?.baseDelayMs ?? 500;
  const maxDelayMs = options.retry?.maxDelayMs ?? 8000;
  const sleep = options.retry?.sleep ?? defaultSleep;

  async function run(
    request: GeminiRequest,
    signal: AbortSignal | undefined,
    stream: ((text: string) => void) | undefined,
  ): Promise<GeminiResult> {
    const bytes = promptBytesOf(request);
    let attempts = 0;
    for (;;) {
      attempts++;
      let streamed = false;
      const attempt = scopedSignal({ follow: [signal], timeoutMs: config.timeoutMs });
      try {
        const params = {
          model: config.model,
          contents: request.contents,
          config: buildConfig(request, attempt.signal),
        };
        const result = stream
          ? await consumeStream(await ai.models.generateContentStream(params), (text) => {
              streamed = true;
              stream(text);
            })
          : toResult(await ai.models.generateContent(params));
        return { ...result, attempts, promptBytes: bytes * attempts };
      } catch (raw) {
        attempt.dispose();
        const error = classify(raw, attempt.timedOut(), signal);
        error.attempts = attempts;
        error.promptBytes = bytes * attempts;
        if (!error.retryable || streamed || attempts > config.maxRetries) throw error;
        const delay = Math.min(maxDelayMs, baseDelayMs * 2 ** (attempts - 1));
        logger.warn(
          { code: error.code, status: error.status, attempt: attempts, delayMs: delay },
          "gemini retry",
        );
        await sleep(delay, signal);
        if (signal?.aborted) throw classify(signal.reason, false, signal);
      } finally {
        attempt.dispose();
      }
    }
  }

  return {
    model: config.model,
    generate: (request, opts = {}) => run(request, opts.signal, undefined),
    generateStream: (request, opts = {}) => run(request, opts.signal, opts.onDelta ?? (() => {})),
  };
}

function buildConfig(request: GeminiRequest, signal: AbortSignal) {
  return {
    abortSignal: signal,
    automaticContinuation: false,
    systemInstruction: request.systemInstruction,
    temperature: request.temperature,
    tools: request.functionDeclarations?.length
      ? [{ functionDeclarations: request.functionDeclarations }]
      : undefined,
  };
}

interface ResponseLike {
  candidates?: Array<{ content?: Content; finishReason?: string }>;
}

function toResult(response: ResponseLike): Omit<GeminiResult, "attempts" | "promptBytes"> {
  const candidate = response.candidates?.[0];
  const parts = candidate?.content?.parts ?? [];
  return {
    content: candidate?.content,
    functionCalls: parts.flatMap((part) =>
      part.functionCall?.name
        ? [{ name: part.functionCall.name, args: (part.functionCall.args ?? {}) as Record<string, unknown> }]
        : [],
    ),
    text: visibleText(parts),
    finishReason: candidate?.finishReason,
  };
}

async function consumeStream(
  stream: AsyncIterable<ResponseLike>,
  onDelta: (text: string) => void,
): Promise<Omit<GeminiResult, "attempts" | "promptBytes">> {
  let text = "";
  let finishReason: string | undefined;
  for await (const chunk of stream) {
    const candidate = chunk.candidates?.[0];
    const delta = visibleText(candidate?.content?.parts ?? []);
    if (delta) {
      text += delta;
      onDelta(delta);
    }
    finishReason = candidate?.finishReason ?? finishReason;
  }
  return { content: { role: "model", parts: [{ text }] }, functionCalls: [], text, finishReason };
}

function visibleText(parts: Part[]): string {
  return parts
    .filter((part) => typeof part.text === "string" && !part.thought)
    .map((part) => part.text)
    .join("");
}

/** Bytes of what one request sends as prompt: system instruction, contents and declarations. */
export function promptBytesOf(request: GeminiRequest): number {
  const size = (value: unknown) => (value === undefined ? 0 : Buffer.byteLength(JSON.stringify(value)));
  return (
    Buffer.byteLength(request.systemInstruction ?? "") +
    size(request.contents) +
    size(request.functionDeclarations)
  );
}

function classify(raw: unknown, timedOut: boolean, caller: AbortSignal | undefined): GeminiError {
  if (raw instanceof GeminiError) return raw;
  const message = raw instanceof Error ? raw.message : String(raw);
  if (timedOut) return new GeminiError("GEMINI_TIMEOUT", "Gemini did not answer in time", { cause: raw });
  if (caller?.aborted) return new GeminiError("GEMINI_ABORTED", "Gemini call aborted", { cause: raw });
  if (raw instanceof ApiError) {
    const status = raw.status;
    const code =
      status === 429 ? "GEMINI_RATE_LIMITED" : status >= 500 ? "GEMINI_SERVER_ERROR" : "GEMINI_HTTP_ERROR";
    return new GeminiError(code, `Gemini HTTP ${status}: ${message.slice(0, 300)}`, { status, cause: raw });
  }
  if (raw instanceof TypeError && /fetch failed|network|ECONN/i.test(message)) {
    return new GeminiError("GEMINI_NETWORK", `Gemini unreachable: ${message}`, { cause: raw });
  }
  return new GeminiError("GEMINI_BAD_RESPONSE", `Gemini response unreadable: ${message.slice(0, 300)}`, {
    cause: raw,
  });
}

function defaultSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    }
    signal?.addEventListener("abort", done, { once: true });
  });
}
