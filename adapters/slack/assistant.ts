/**
 * Slack's assistant container (manifest: features.assistant_view). When a user opens a new assistant
 * thread, Slack sends `assistant_thread_started`: the bot greets in that thread and offers the example
 * questions as suggested prompts. The user's messages there arrive as ordinary DM messages (message.im, in
 * the assistant thread) and are answered like any DM, with the assistant status set while the agent works.
 */
import { EXAMPLE_QUESTIONS } from "../../src/agent/replies.ts";
import type { Logger } from "../../src/logger.ts";
import type { ThreadStore } from "../../src/types.ts";
import { accessDenied, type SlackConfig } from "./listeners.ts";
import { plainMessage } from "./render.ts";
import type { SlackCalls } from "./web-api.ts";

/** Example questions: the help reply, the assistant's suggested prompts and manifest.yml show the same. */
const PROMPT_TITLES = ["IT導入の補助金", "省エネ設備", "創業支援"];
export const SLACK_PROMPTS = EXAMPLE_QUESTIONS.map((message, i) => ({
  title: PROMPT_TITLES[i] ?? message.slice(0, 20),
  message,
}));

/** The greeting posted in a new assistant thread. */
export const ASSISTANT_GREETING =
  "こんにちは。補助金・助成金を日本語でお探しします。下の例を選ぶか、地域・業種・目的を書いて送ってください。";

export interface AssistantDeps {
  config: SlackConfig;
  store: ThreadStore;
  calls: SlackCalls;
  logger: Logger;
}

/** Handles one `assistant_thread_started` envelope (already acked): greeting and suggested prompts, once. */
export function createAssistantStartedHandler(deps: AssistantDeps) {
  const { store, calls, logger } = deps;
  return async (envelope: unknown): Promise<void> => {
    const body = (envelope ?? {}) as { team_id?: unknown; event_id?: unknown; event?: unknown };
    const event = (body.event ?? {}) as { assistant_thread?: Record<string, unknown> };
    const thread = event.assistant_thread ?? {};
    const channel = typeof thread.channel_id === "string" ? thread.channel_id : "";
    const threadTs = typeof thread.thread_ts === "string" ? thread.thread_ts : "";
    const userId = typeof thread.user_id === "string" ? thread.user_id : "";
    const teamId = typeof body.team_id === "string" ? body.team_id : "";
    if (!channel || !threadTs || !userId) return;
    const log = logger.child({ channel, threadTs, eventId: body.event_id });
    const denied = accessDenied({ teamId, channel, userId }, deps.config);
    if (denied) {
      log.info({ denied, user: userId }, "slack: ignored an assistant thread outside the allowlist");
      return;
    }
    if (typeof body.event_id === "string") {
      // A greeting is harmless to repeat, so a store failure still greets; a known retry does not.
      const first = await store.markDelivered(`slack:event:${body.event_id}`).catch((error: unknown) => {
        log.warn({ err: error }, "slack: store unavailable; greeting without the duplicate check");
        return true;
      });
      if (!first) return;
    }
    const target = { channel, threadTs };
    try {
      await calls.post(target, plainMessage(ASSISTANT_GREETING));
    } catch (error) {
      log.warn({ err: error }, "slack: the assistant greeting could not be posted");
    }
    await calls.setSuggestedPrompts(target, "たとえば", SLACK_PROMPTS);
  };
}
