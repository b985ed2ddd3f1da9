/**
 * The Web API calls the adapter makes, with one retry rule: only a 429 is retried, after its Retry-After.
 * The client itself never retries (retries: 0), since a retried chat.postMessage after a timeout or 5xx
 * may already have posted; a 429 means Slack did not run the call, so repeating it cannot post twice.
 */
import type { webApi } from "@slack/bolt";
import type { Logger } from "../../src/logger.ts";
import type { SlackMessage } from "./limits.ts";

/** WebClient options that leave retrying to `withRateLimitRetry`. */
export function slackClientOptions(apiUrl: string | undefined): webApi.WebClientOptions {
  return {
    slackApiUrl: apiUrl ? (apiUrl.endsWith("/") ? apiUrl : `${apiUrl}/`) : undefined,
    retryConfig: { retries: 0 },
    rejectRateLimitedCalls: true,
    timeout: 15_000,
  };
}

/** Seconds to wait when the error is Slack's rate limit, else null. */
export function rateLimitSeconds(error: unknown): number | null {
  if (typeof error !== "object" || error === null) return null;
  const e = error as { code?: unknown; retryAfter?: unknown };
  if (e.code !== "slack_webapi_rate_limited_error") return null;
  return typeof e.retryAfter === "number" && e.retryAfter >= 0 ? e.retryAfter : 1;
}

/** Runs a call; on 429 waits Retry-After (capped at 60 s) and tries again, at most `retries` times. */
export async function withRateLimitRetry<T>(
  what: string,
  call: () => Promise<T>,
  logger: Logger,
  retries = 2,
): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await call();
    } catch (error) {
      const seconds = rateLimitSeconds(error);
      if (seconds === null || attempt >= retries) throw error;
      logger.warn({ method: what, retryAfter: seconds }, "slack: rate limited, retrying after Retry-After");
      await new Promise((resolve) => setTimeout(resolve, Math.min(seconds, 60) * 1000));
    }
  }
}

/** A thread in a channel: where replies go. */
export interface SlackTarget {
  channel: string;
  threadTs: string;
}

/** The calls the adapter needs, bound to one client. */
export function createSlackCalls(client: webApi.WebClient, logger: Logger) {
  return {
    /** Posts a message in the thread; returns its ts. */
    async post(target: SlackTarget, message: SlackMessage): Promise<string> {
      const result = await withRateLimitRetry(
        "chat.postMessage",
        () =>
          client.chat.postMessage({
            channel: target.channel,
            thread_ts: target.threadTs,
            text: message.text,
            blocks: message.blocks,
            unfurl_links: false,
            unfurl_media: false,
          }),
        logger,
      );
      return result.ts ?? "";
    },
    /** Replaces a message's content (status updates). */
    async update(channel: string, ts: string, message: SlackMessage): Promise<void> {
      await withRateLimitRetry(
        "chat.update",
        () => client.chat.update({ channel, ts, text: message.text, blocks: message.blocks }),
        logger,
      );
    },
    /** Deletes one of the bot's messages. */
    async remove(channel: string, ts: string): Promise<void> {
      await withRateLimitRetry("chat.delete", () => client.chat.delete({ channel, ts }), logger);
    },
    /** Sets the assistant thread status ("…を検索しています"); failures are only logged. */
    async setStatus(target: SlackTarget, status: string): Promise<void> {
      try {
        await client.assistant.threads.setStatus({
          channel_id: target.channel,
          thread_ts: target.threadTs,
          status,
        });
      } catch (error) {
        logger.debug({ err: error }, "slack: assistant.threads.setStatus failed (ignored)");
      }
    },
    /** Offers example questions in an assistant thread; failures are only logged. */
    async setSuggestedPrompts(
      target: SlackTarget,
      title: string,
      prompts: ReadonlyArray<{ title: string; message: string }>,
    ): Promise<void> {
      try {
        await client.assistant.threads.setSuggestedPrompts({
          channel_id: target.channel,
          thread_ts: target.threadTs,
          title,
          prompts: prompts.map((prompt) => ({ title: prompt.title, message: prompt.message })),
        });
      } catch (error) {
        logger.debug({ err: error }, "slack: assistant.threads.setSuggestedPrompts failed (ignored)");
      }
    },
  };
}

export type SlackCalls = ReturnType<typeof createSlackCalls>;
