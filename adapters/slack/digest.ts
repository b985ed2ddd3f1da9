/**
 * Watch digests posted into the Slack thread the watch was saved in (channel thread or DM), rendered
 * like any reply (sections within Slack's limits). The thread key says where: slack:<team>:<channel>:<ts>.
 */
import { watchReply } from "../../src/agent/replies.ts";
import type { Digest } from "../../src/watch/index.ts";
import { renderReply } from "./render.ts";
import type { createSlackCalls, SlackTarget } from "./web-api.ts";

/** The channel and thread of a Slack thread key, or null when it is not one. */
export function slackTargetOf(threadKey: string): SlackTarget | null {
  const match = /^slack:[^:]+:([^:]+):(\d+\.\d+)$/.exec(threadKey);
  return match ? { channel: match[1]!, threadTs: match[2]! } : null;
}

/** Posts a digest's text into its thread; throws when Slack refused it (the scheduler retries). */
export function createSlackDigestSender(calls: ReturnType<typeof createSlackCalls>) {
  return async ({ threadKey, text }: Digest): Promise<void> => {
    const target = slackTargetOf(threadKey);
    if (!target) throw new TypeError(`not a Slack thread key: ${threadKey}`);
    const messages = renderReply(watchReply(threadKey, text, "offline", null), { buttons: false });
    for (const message of messages) await calls.post(target, message);
  };
}
