/**
 * Slack event envelope → an inbound turn, or null when the bot should stay silent (pure). Bots (the bot
 * itself included), edits, deletions, joins and other subtypes are ignored here, whatever Bolt did first.
 */
import type { ThreadKey, Turn } from "../../src/types.ts";

/** Who the bot is in this workspace (from auth.test); needed to strip mentions and skip own messages. */
export interface SlackIdentity {
  botUserId?: string;
  botId?: string;
}

/** A message the bot may answer, with where to answer it. */
export interface SlackInbound {
  turn: Turn;
  teamId: string;
  channel: string;
  /** The message's own ts. */
  ts: string;
  /** The thread to answer in: the message's thread_ts, or its ts when it starts a thread. */
  threadTs: string;
  /** mention: asked with @bot; dm: a direct message; follow-up: in a thread, no mention (needs history). */
  reason: "mention" | "dm" | "follow-up" | "action";
  isDm: boolean;
}

/** The one thread key of a Slack thread: slack:<team>:<channel>:<thread root ts>. */
export function slackThreadKey(teamId: string, channel: string, threadTs: string): ThreadKey {
  return `slack:${teamId}:${channel}:${threadTs}`;
}

/** Subtypes that are still a person writing a message. */
const USER_SUBTYPES = new Set(["thread_broadcast"]);

const str = (v: unknown): string | undefined => (typeof v === "string" && v !== "" ? v : undefined);

/** Slack's wire text → plain text: bot mention removed, links and mentions readable, entities decoded. */
export function cleanSlackText(text: string, botUserId?: string): string {
  let out = text;
  if (botUserId) out = out.replace(new RegExp(`<@${botUserId}(\\|[^>]*)?>`, "g"), " ");
  out = out
    .replace(/<(https?:[^|>]+)\|([^>]+)>/g, "$2 ($1)")
    .replace(/<(https?:[^>]+)>/g, "$1")
    .replace(/<mailto:[^|>]+\|([^>]+)>/g, "$1")
    .replace(/<#[A-Z0-9]+\|([^>]*)>/g, "#$1")
    .replace(/<@([A-Z0-9]+)(\|[^>]*)?>/g, "@$1")
    .replace(/<!(here|channel|everyone)(\|[^>]*)?>/g, "@$1")
    .replace(/<!subteam\^[A-Z0-9]+\|?([^>]*)>/g, "$1")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");
  return out.replace(/[ \t\u3000]+/g, " ").trim();
}

function receivedAt(eventTime: unknown, ts: string): string | undefined {
  const seconds = typeof eventTime === "number" ? eventTime : Number.parseFloat(ts);
  return Number.isFinite(seconds) ? new Date(seconds * 1000).toISOString() : undefined;
}

/** Parses an Events API envelope (event_callback). Returns null for anything the bot must not answer. */
export function parseSlackEvent(envelope: unknown, identity: SlackIdentity): SlackInbound | null {
  if (typeof envelope !== "object" || envelope === null) return null;
  const body = envelope as Record<string, unknown>;
  const event = body.event as Record<string, unknown> | undefined;
  if (!event || (event.type !== "app_mention" && event.type !== "message")) return null;
  const subtype = str(event.subtype);
  if (subtype && !USER_SUBTYPES.has(subtype)) return null;
  if (event.bot_id || event.bot_profile || event.edited || event.hidden) return null;
  const user = str(event.user);
  const channel = str(event.channel);
  const ts = str(event.ts);
  const teamId = str(body.team_id) ?? str(event.team);
  if (!user || !channel || !ts || !teamId) return null;
  if (identity.botUserId && user === identity.botUserId) return null;

  const rawText = typeof event.text === "string" ? event.text : "";
  const mentioned =
    event.type === "app_mention" ||
    (identity.botUserId ? rawText.includes(`<@${identity.botUserId}`) : false);
  const isDm = event.channel_type === "im" || (event.channel_type === undefined && channel.startsWith("D"));
  const threadTs = str(event.thread_ts) ?? ts;
  let reason: SlackInbound["reason"];
  if (isDm) reason = "dm";
  else if (mentioned) reason = "mention";
  else if (threadTs !== ts) reason = "follow-up";
  else return null;

  const text = cleanSlackText(rawText, identity.botUserId);
  if (reason === "follow-up" && text === "") return null;
  const threadKey = slackThreadKey(teamId, channel, threadTs);
  return {
    turn: {
      threadKey,
      platform: "slack",
      userId: user,
      text,
      eventId: str(body.event_id),
      messageId: ts,
      receivedAt: receivedAt(body.event_time, ts),
    },
    teamId,
    channel,
    ts,
    threadTs,
    reason,
    isDm,
  };
}
