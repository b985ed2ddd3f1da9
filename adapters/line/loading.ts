/**
 * The loading animation of a 1:1 chat, kept alive while the agent works. LINE shows it for 5–60 s and
 * hides it when a message arrives, so it is re-issued shortly before it would end.
 */
import type { Logger } from "../../src/logger.ts";
import type { LineApi } from "./client.ts";

export interface LoadingOptions {
  /** loadingSeconds of each call (5–60, a multiple of 5). */
  seconds?: number;
  /** How often to re-issue; must be shorter than `seconds`. */
  refreshMs?: number;
  logger: Logger;
}

/** Starts the animation now and refreshes it until the returned stop function is called. */
export function keepLoading(api: LineApi, chatId: string, options: LoadingOptions): () => void {
  const seconds = options.seconds ?? 20;
  const refreshMs = Math.min(options.refreshMs ?? (seconds - 5) * 1000, seconds * 1000 - 1000);
  let stopped = false;
  const show = () => {
    if (stopped) return;
    // A failed animation is cosmetic: log it and carry on with the answer.
    api.showLoading(chatId, seconds).catch((error: unknown) => {
      options.logger.warn({ err: error }, "LINE loading animation failed");
    });
  };
  show();
  const timer = setInterval(show, Math.max(refreshMs, 100));
  timer.unref();
  return () => {
    stopped = true;
    clearInterval(timer);
  };
}
