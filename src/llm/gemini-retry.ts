/**
 * When to retry a failed Gemini request, and after how long. A 429 may say how long to wait
 * (google.rpc.RetryInfo `retryDelay`, e.g. "37s"); that delay is honoured when it ends before the turn's
 * deadline, and otherwise the call gives up at once so the turn can fall back while the user still waits.
 * Without such a hint the delay grows exponentially.
 */
import type { GeminiError } from "./gemini-errors.ts";

/** How long to keep for the retried attempt itself after the delay (it must have a chance to answer). */
export const MIN_ATTEMPT_MS = 500;

/** The server's requested delay in ms, read from the error body the SDK puts in its message. */
export function serverRetryDelayMs(message: string): number | undefined {
  const match = /"retryDelay"\s*:\s*"(\d+(?:\.\d+)?)s"/.exec(message);
  return match?.[1] ? Math.round(Number(match[1]) * 1000) : undefined;
}

export interface DelayInput {
  error: GeminiError;
  /** Attempts made so far (1 after the first failure). */
  attempts: number;
  maxRetries: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** The turn's deadline (epoch ms), if any. */
  deadline?: number;
  now: number;
}

/** The delay before the next attempt, or null when the call should give up now. */
export function retryDelay(input: DelayInput): number | null {
  const { error, attempts } = input;
  if (!error.retryable || attempts > input.maxRetries) return null;
  const hinted = error.retryDelayMs;
  const delay = hinted ?? Math.min(input.maxDelayMs, input.baseDelayMs * 2 ** (attempts - 1));
  if (input.deadline !== undefined && input.now + delay + MIN_ATTEMPT_MS > input.deadline) return null;
  return delay;
}
