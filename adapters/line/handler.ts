/**
 * Runs one classified LINE event: exactly-once via markDelivered, the loading animation in 1:1 chats,
 * the agent, then reply-token-first delivery; remembers undelivered answers to apologise next time.
 */
import type { messagingApi } from "@line/bot-sdk";
import type { Config } from "../../src/config.ts";
import { describeError } from "../../src/errors.ts";
import type { Logger } from "../../src/logger.ts";
import type { AgentLike, ThreadStore } from "../../src/types.ts";
import type { LineApi } from "./client.ts";
import { deliver } from "./deliver.ts";
import { keepLoading } from "./loading.ts";
import {
  apologyMessage,
  failureMessages,
  guidanceMessages,
  joinMessages,
  welcomeMessages,
} from "./messages.ts";
import type { LineAction, LineChat } from "./parse.ts";
import { renderReply } from "./render.ts";

/** At most this many chats are remembered as owed an apology (the oldest is forgotten first). */
const MAX_OWED_APOLOGIES = 10_000;

export interface EventHandlerDeps {
  config: NonNullable<Config["line"]>;
  api: LineApi;
  agent: AgentLike;
  store: ThreadStore;
  logger: Logger;
  /** Aborted when the adapter stops. */
  signal: AbortSignal;
  retryDelaysMs?: number[];
  /** The loading animation's timing (see loading.ts). */
  loading?: { seconds?: number; refreshMs?: number };
}

/** Creates the per-event worker; `receivedAt` is when the webhook arrived (the reply deadline's start). */
export function createEventHandler(deps: EventHandlerDeps) {
  const { api, logger } = deps;
  /**
   * Chats whose last answer was lost (quota or API failure): the next reply starts with an apology. In memory
   * only (a courtesy, lost on restart; see README), and capped so a long outage cannot grow it without bound.
   */
  const owedApology = new Set<string>();
  const oweApology = (chatId: string) => {
    owedApology.delete(chatId);
    owedApology.add(chatId);
    const oldest = owedApology.values().next().value;
    if (owedApology.size > MAX_OWED_APOLOGIES && oldest !== undefined) owedApology.delete(oldest);
  };

  async function firstDelivery(eventId: string | undefined, redelivery: boolean): Promise<boolean> {
    if (!eventId) return true;
    try {
      return await deps.store.markDelivered(`line:${eventId}`);
    } catch (error) {
      // Without the store we cannot tell; answering a redelivery again is the worse mistake.
      logger.error({ err: error, eventId }, "LINE dedup check failed");
      return !redelivery;
    }
  }

  async function send(
    chat: LineChat,
    messages: messagingApi.Message[],
    replyToken: string | undefined,
    useReply: boolean,
  ) {
    const apology = owedApology.has(chat.id);
    const all = apology ? [apologyMessage(), ...messages].slice(0, 5) : messages;
    const outcome = await deliver(
      { messages: all, to: chat.id, replyToken, useReply },
      { api, logger, retryDelaysMs: deps.retryDelaysMs },
    );
    if (outcome === "replied" || outcome === "pushed") {
      owedApology.delete(chat.id);
    } else {
      oweApology(chat.id);
      if (outcome === "quota-exhausted") {
        const usage = await api.quota().catch(() => null);
        logger.error(
          { chat: chat.threadKey, quota: usage },
          "LINE push quota exhausted; the chat gets an apology next time",
        );
      }
    }
    logger.info({ chat: chat.threadKey, outcome, apology }, "LINE delivery");
    return outcome;
  }

  return async function handle(action: LineAction, receivedAt: number): Promise<void> {
    if (action.type === "ignore") {
      logger.debug({ reason: action.reason }, "LINE event ignored");
      return;
    }
    if (action.type === "unfollow") {
      logger.info({ chat: action.chat.threadKey }, "LINE user unfollowed (blocked) the bot");
      return;
    }
    const eventId = action.type === "turn" ? action.turn.eventId : action.eventId;
    if (!(await firstDelivery(eventId, action.redelivery))) {
      logger.info({ eventId, chat: action.chat.threadKey }, "LINE duplicate event skipped");
      return;
    }
    if (action.type !== "turn") {
      const messages =
        action.type === "follow"
          ? welcomeMessages()
          : action.type === "join"
            ? joinMessages(deps.config.groupPrefix)
            : guidanceMessages();
      await send(action.chat, messages, action.replyToken, true);
      return;
    }
    const { chat, turn } = action;
    const stopLoading =
      chat.kind === "user" ? keepLoading(api, chat.id, { logger, ...deps.loading }) : () => {};
    const reserve = owedApology.has(chat.id) ? 4 : 5;
    let messages: messagingApi.Message[];
    try {
      const reply = await deps.agent.handle(turn, {
        signal: deps.signal,
        onProgress: (event) => logger.debug({ chat: chat.threadKey, progress: event.type }, "LINE progress"),
      });
      messages = renderReply(reply, { maxMessages: reserve });
    } catch (error) {
      logger.error({ chat: chat.threadKey, err: describeError(error) }, "LINE turn failed in the agent");
      messages = failureMessages();
    } finally {
      stopLoading();
    }
    const useReply = Date.now() - receivedAt < deps.config.replyDeadlineMs;
    await send(chat, messages, action.replyToken, useReply);
  };
}
