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
import { readResponse, readStream } from "./gemini-response.ts";
import { retryDelay, serverRetryDelayMs } from "./gemini-retry.ts";

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
  /**
   * Why the reply carries nothing usable, when it does not: a block (promptFeedback.blockReason, or a
   * finishReason such as SAFETY, RECITATION or OTHER), or no candidate or no parts at all.
   */
  withheld?: string;
}

/** Per-call options: the caller's signal and the turn's deadline (epoch ms) that bounds every attempt. */
export interface CallOptions {
  signal?: AbortSignal;
  /** No attempt runs past it, and a retry whose delay would end after it is not made. */
  deadline?: number;
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
  generate(request: GeminiRequest, options?: CallOptions): Promise<GeminiResult>;
  /** One streamGenerateContent call; text deltas go to onDelta. Retries only before the first delta. */
  generateStream(
    request: GeminiRequest,
    options?: CallOptions & { onDelta?: (text: string) => void },
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
    options: CallOptions,
    stream: ((text: string) => void) | undefined,
  ): Promise<GeminiResult> {
    const { signal, deadline } = options;
    const bytes = promptBytesOf(request);
    let attempts = 0;
    for (;;) {
      const timeoutMs = attemptTimeout(config.timeoutMs, deadline);
      if (timeoutMs <= 0) throw budgetSpent(attempts, bytes);
      attempts++;
      let streamed = false;
      const attempt = scopedSignal({ follow: [signal], timeoutMs });
      try {
        const params = {
          model: config.model,
          contents: request.contents,
          config: buildConfig(request, attempt.signal),
        };
        const result = stream
          ? await readStream(await ai.models.generateContentStream(params), (text) => {
              streamed = true;
              stream(text);
            })
          : readResponse(await ai.models.generateContent(params));
        return { ...result, attempts, promptBytes: bytes * attempts };
      } catch (raw) {
        attempt.dispose();
        const error = classify(raw, attempt.timedOut(), signal);
        error.attempts = attempts;
        error.promptBytes = bytes * attempts;
        const delay = streamed
          ? null
          : retryDelay({
              error,
              attempts,
              maxRetries: config.maxRetries,
              baseDelayMs,
              maxDelayMs,
              deadline,
              now: Date.now(),
            });
        if (delay === null) throw error;
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
    generate: (request, opts = {}) => run(request, opts, undefined),
    generateStream: (request, opts = {}) => run(request, opts, opts.onDelta ?? (() => {})),
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

/** One attempt's timeout: the per-call deadline, shortened to what is left of the turn's budget. */
function attemptTimeout(timeoutMs: number, deadline: number | undefined): number {
  return deadline === undefined ? timeoutMs : Math.min(timeoutMs, deadline - Date.now());
}

function budgetSpent(attempts: number, bytes: number): GeminiError {
  const error = new GeminiError("GEMINI_BUDGET_SPENT", "The turn's time budget for Gemini is spent");
  error.attempts = attempts;
  error.promptBytes = bytes * attempts;
  return error;
}

/**
 * Bytes of the JSON body one request sends, built the way the SDK builds it (contents, systemInstruction
 * as a user content, tools, generationConfig), so `_meta.promptBytes` reports what went over the wire.
 */
export function promptBytesOf(request: GeminiRequest): number {
  const body = {
    contents: request.contents,
    systemInstruction:
      request.systemInstruction === undefined
        ? undefined
        : { parts: [{ text: request.systemInstruction }], role: "user" },
    tools: request.functionDeclarations?.length
      ? [{ functionDeclarations: request.functionDeclarations }]
      : undefined,
    // The SDK always sends a generationConfig (empty without a temperature).
    generationConfig: request.temperature === undefined ? {} : { temperature: request.temperature },
  };
  return Buffer.byteLength(JSON.stringify(body));
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
    const error = new GeminiError(code, `Gemini HTTP ${status}: ${message.slice(0, 300)}`, {
      status,
      cause: raw,
    });
    if (status === 429) error.retryDelayMs = serverRetryDelayMs(message);
    return error;
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
