/**
 * The sync's side of politeness on top of LiveClient (which spaces calls and retries briefly): when the API
 * still answers 429/5xx or cannot be reached, wait with a growing backoff and try again, up to a number of
 * consecutive failures or the sync's time bound. Other 4xx answers are final and never retried.
 */
import type { FetchOutcome, LiveClient } from "../../mcp-servers/jgrants/live-client.ts";

export interface PoliteFetchOptions {
  client: LiveClient;
  sleep: (ms: number) => Promise<void>;
  /** Backoff after the first failure; doubles up to `maxBackoffMs`. */
  backoffMs: number;
  maxBackoffMs: number;
  /** After this many failures in a row the sync stops (the API is down or throttling hard). */
  maxConsecutiveFailures: number;
  /** True once the sync must stop (time bound reached or lock lost). */
  shouldStop: () => boolean;
}

/** "gone": a final 4xx (404 = the record no longer exists); "stop": give up this sync, keep what it has. */
export type PoliteOutcome =
  | { kind: "ok"; data: unknown }
  | { kind: "gone"; status: number; error: string }
  | { kind: "stop"; error: string };

/** Creates the fetcher; its failure streak is shared by every request of one sync. */
export function createPoliteFetch(options: PoliteFetchOptions) {
  let streak = 0;
  let backoff = options.backoffMs;
  return async function get(path: string, query?: Record<string, string>): Promise<PoliteOutcome> {
    for (;;) {
      if (options.shouldStop()) return { kind: "stop", error: "time bound reached" };
      const outcome: FetchOutcome = await options.client.getJson(path, query, true);
      if (outcome.ok) {
        streak = 0;
        backoff = options.backoffMs;
        return { kind: "ok", data: outcome.data };
      }
      const status = outcome.status;
      if (status !== undefined && status !== 429 && status < 500) {
        return { kind: "gone", status, error: outcome.error };
      }
      streak += 1;
      if (streak >= options.maxConsecutiveFailures) return { kind: "stop", error: outcome.error };
      await options.sleep(backoff);
      backoff = Math.min(backoff * 2, options.maxBackoffMs);
    }
  };
}
