/** Errors of the Gemini client, with stable codes the planner and answerer turn into `degraded` reasons. */
import { AppError } from "../errors.ts";

/** Stable codes of Gemini failures (retryable: rate limited, server error, network). */
export type GeminiErrorCode =
  | "GEMINI_RATE_LIMITED"
  | "GEMINI_SERVER_ERROR"
  | "GEMINI_HTTP_ERROR"
  | "GEMINI_TIMEOUT"
  | "GEMINI_NETWORK"
  | "GEMINI_BAD_RESPONSE"
  | "GEMINI_ABORTED"
  /** The turn's time budget for LLM calls ran out before this request could be sent or retried. */
  | "GEMINI_BUDGET_SPENT";

/** A failed Gemini call; `retryable` tells the client's retry loop whether another attempt may help. */
export class GeminiError extends AppError {
  override readonly code: GeminiErrorCode;
  readonly status?: number;
  readonly retryable: boolean;
  /** Requests sent before giving up, and the prompt bytes they carried (set by the client). */
  attempts = 0;
  promptBytes = 0;
  /** The delay a 429 asked for (google.rpc.RetryInfo), in ms. */
  retryDelayMs?: number;

  constructor(code: GeminiErrorCode, message: string, options: { status?: number; cause?: unknown } = {}) {
    super(code, message, { cause: options.cause, userMessage: "AIの応答を取得できませんでした。" });
    this.name = "GeminiError";
    this.code = code;
    this.status = options.status;
    this.retryable =
      code === "GEMINI_RATE_LIMITED" || code === "GEMINI_SERVER_ERROR" || code === "GEMINI_NETWORK";
  }
}

/** A short reason for `degraded`, e.g. "gemini: rate limited (429) after 3 attempts". */
export function degradedReason(error: unknown): string {
  if (error instanceof GeminiError) {
    const labels: Record<GeminiErrorCode, string> = {
      GEMINI_RATE_LIMITED: "rate limited",
      GEMINI_SERVER_ERROR: "server error",
      GEMINI_HTTP_ERROR: "request rejected",
      GEMINI_TIMEOUT: "timed out",
      GEMINI_NETWORK: "unreachable",
      GEMINI_BAD_RESPONSE: "malformed response",
      GEMINI_ABORTED: "aborted",
      GEMINI_BUDGET_SPENT: "turn time budget spent",
    };
    const status = error.status ? ` (${error.status})` : "";
    return `gemini: ${labels[error.code]}${status}`;
  }
  return `gemini: ${error instanceof Error ? error.message.slice(0, 120) : String(error).slice(0, 120)}`;
}
