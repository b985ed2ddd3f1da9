/**
 * Reply-token-first delivery. A reply is free and single-use; a push costs quota and carries an
 * X-Line-Retry-Key so retrying it can never deliver twice (LINE answers 409 for an accepted key).
 */
import { randomUUID } from "node:crypto";
import type { messagingApi } from "@line/bot-sdk";
import type { Logger } from "../../src/logger.ts";
import { classify, type LineApi } from "./client.ts";

export type DeliveryOutcome = "replied" | "pushed" | "quota-exhausted" | "failed";

export interface DeliveryRequest {
  messages: messagingApi.Message[];
  /** Push target: the user, group or room id. */
  to: string;
  /** The event's reply token, when it may still be used. */
  replyToken?: string;
  /** False once the reply deadline has passed: go straight to push. */
  useReply: boolean;
}

export interface DeliveryOptions {
  api: LineApi;
  logger: Logger;
  /** Waits before each retry of a retryable failure; its length is the number of retries. */
  retryDelaysMs?: number[];
}

const DEFAULT_DELAYS = [500, 2000];
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Replies with retries; "fallback" means the token is unusable and a push should follow. */
async function tryReply(
  request: DeliveryRequest & { replyToken: string },
  options: DeliveryOptions,
): Promise<"replied" | "fallback" | "failed"> {
  const delays = options.retryDelaysMs ?? DEFAULT_DELAYS;
  let ambiguous = false;
  for (let attempt = 0; ; attempt++) {
    try {
      await options.api.reply(request.replyToken, request.messages);
      return "replied";
    } catch (error) {
      const failure = classify(error);
      if (failure.failure === "invalid-reply-token") {
        // After a 5xx the token is most likely used up by a reply that did go through: pushing would duplicate.
        if (ambiguous) {
          options.logger.warn(
            { to: request.to },
            "LINE reply token used up after a server error; assuming delivered",
          );
          return "replied";
        }
        options.logger.info({ to: request.to }, "LINE reply token invalid or expired; falling back to push");
        return "fallback";
      }
      if (!failure.retryable || attempt >= delays.length) {
        options.logger.error({ to: request.to, err: failure, status: failure.status }, "LINE reply failed");
        const maybeSent = ambiguous || failure.failure === "server" || failure.failure === "network";
        return failure.failure === "rate-limited" && !maybeSent ? "fallback" : "failed";
      }
      if (failure.failure !== "rate-limited") ambiguous = true;
      await sleep(delays[attempt] ?? 0);
    }
  }
}

/** Pushes once under one retry key, retrying transient failures with the same key. */
async function tryPush(request: DeliveryRequest, options: DeliveryOptions): Promise<DeliveryOutcome> {
  const delays = options.retryDelaysMs ?? DEFAULT_DELAYS;
  const retryKey = randomUUID();
  for (let attempt = 0; ; attempt++) {
    try {
      await options.api.push(request.to, request.messages, retryKey);
      return "pushed";
    } catch (error) {
      const failure = classify(error);
      if (failure.failure === "already-accepted") return "pushed";
      if (failure.failure === "quota-exhausted") {
        options.logger.error(
          { to: request.to, status: failure.status, lineMessage: failure.message },
          "LINE push quota exhausted: the monthly message limit is reached; answers that miss the reply deadline cannot be delivered until it resets",
        );
        return "quota-exhausted";
      }
      if (!failure.retryable || attempt >= delays.length) {
        options.logger.error({ to: request.to, err: failure, status: failure.status }, "LINE push failed");
        return "failed";
      }
      await sleep(delays[attempt] ?? 0);
    }
  }
}

/** Delivers messages: by reply token when allowed, otherwise (or when the token is invalid) by one push. */
export async function deliver(request: DeliveryRequest, options: DeliveryOptions): Promise<DeliveryOutcome> {
  if (request.useReply && request.replyToken) {
    const replied = await tryReply({ ...request, replyToken: request.replyToken }, options);
    if (replied !== "fallback") return replied;
  }
  return tryPush(request, options);
}
