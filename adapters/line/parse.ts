/**
 * LINE webhook event → what to do with it. Pure: no I/O. A 1:1 text is always a question; in groups
 * and rooms only a mention of the bot or the configured prefix makes one. Input is untrusted JSON.
 */
import type { Turn } from "../../src/types.ts";

/** The conversation an event belongs to; `id` is also the push target. */
export interface LineChat {
  kind: "user" | "group" | "room";
  id: string;
  threadKey: string;
}

export type LineAction =
  | { type: "turn"; turn: Turn; chat: LineChat; replyToken?: string; redelivery: boolean }
  | { type: "follow" | "join"; chat: LineChat; replyToken?: string; eventId?: string; redelivery: boolean }
  | {
      type: "unsupported";
      chat: LineChat;
      replyToken?: string;
      eventId?: string;
      redelivery: boolean;
      messageType: string;
    }
  | { type: "unfollow"; chat: LineChat }
  | { type: "ignore"; reason: string };

export interface ParseOptions {
  groupPrefix: string;
  allowedUsers?: string[];
  allowedGroups?: string[];
  /** The bot's own user id (the webhook body's `destination`): its own messages are never questions. */
  botUserId?: string;
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === "string" && v ? v : undefined);

/** The chat of an event's source, or null when the source is missing or malformed. */
export function chatOf(source: unknown): (LineChat & { userId?: string }) | null {
  if (!isObject(source)) return null;
  const userId = str(source.userId);
  if (source.type === "user" && userId)
    return { kind: "user", id: userId, threadKey: `line:user:${userId}`, userId };
  const groupId = str(source.groupId);
  if (source.type === "group" && groupId)
    return { kind: "group", id: groupId, threadKey: `line:group:${groupId}`, userId };
  const roomId = str(source.roomId);
  if (source.type === "room" && roomId)
    return { kind: "room", id: roomId, threadKey: `line:room:${roomId}`, userId };
  return null;
}

function allowed(chat: LineChat, userId: string | undefined, options: ParseOptions): boolean {
  if (chat.kind === "user") return !options.allowedUsers?.length || options.allowedUsers.includes(chat.id);
  if (options.allowedGroups?.length) return options.allowedGroups.includes(chat.id);
  return !options.allowedUsers?.length || (userId !== undefined && options.allowedUsers.includes(userId));
}

/** Removes the bot's own mentions (index/length in UTF-16 units; code points as a fallback). */
export function stripSelfMentions(text: string, mention: unknown): { text: string; mentioned: boolean } {
  const list = isObject(mention) && Array.isArray(mention.mentionees) ? mention.mentionees : [];
  const self = list
    .filter((m): m is Json => isObject(m) && m.isSelf === true)
    .map((m) => ({ index: Number(m.index), length: Number(m.length) }))
    .filter((m) => Number.isInteger(m.index) && Number.isInteger(m.length) && m.index >= 0 && m.length > 0)
    .sort((a, b) => b.index - a.index);
  let out = text;
  for (const { index, length } of self) {
    if (out.slice(index, index + length).startsWith("@")) {
      out = out.slice(0, index) + out.slice(index + length);
      continue;
    }
    const points = Array.from(out);
    if ((points[index] ?? "") === "@")
      out = [...points.slice(0, index), ...points.slice(index + length)].join("");
  }
  return { text: out.replace(/\s+/g, " ").trim(), mentioned: self.length > 0 };
}

/** The question a card button or quick reply stands for, or null for unknown data. */
export function postbackQuestion(data: string): string | null {
  const params = new URLSearchParams(data);
  const action = params.get("action");
  if (action === "ask") return params.get("q")?.trim() || null;
  if (action === "detail") {
    const id = params.get("id")?.trim();
    if (id) return `この補助金の詳細: ${id}`;
    const n = Number(params.get("n"));
    return Number.isInteger(n) && n > 0 ? `${n}番目の詳細は？` : null;
  }
  return null;
}

/** Decides what an event asks of the bot. */
export function classifyEvent(event: unknown, options: ParseOptions): LineAction {
  if (!isObject(event)) return { type: "ignore", reason: "not an event object" };
  const chat = chatOf(event.source);
  if (!chat) return { type: "ignore", reason: "no usable source" };
  if (options.botUserId && chat.userId === options.botUserId)
    return { type: "ignore", reason: "own message" };
  if (!allowed(chat, chat.userId, options)) return { type: "ignore", reason: "not in the allowlist" };
  const replyToken = str(event.replyToken);
  const eventId = str(event.webhookEventId);
  const redelivery = isObject(event.deliveryContext) && event.deliveryContext.isRedelivery === true;
  if (event.mode === "standby") return { type: "ignore", reason: "standby mode" };
  const base = { chat, replyToken, eventId, redelivery };
  if (event.type === "follow" || event.type === "join") return { type: event.type, ...base };
  if (event.type === "unfollow") return { type: "unfollow", chat };
  let text: string | null = null;
  let messageId: string | undefined;
  if (event.type === "postback" && isObject(event.postback)) {
    text = postbackQuestion(String(event.postback.data ?? ""));
    if (!text) return { type: "ignore", reason: "unknown postback data" };
  } else if (event.type === "message" && isObject(event.message)) {
    messageId = str(event.message.id);
    if (event.message.type !== "text") {
      if (chat.kind !== "user") return { type: "ignore", reason: "non-text message in a group" };
      return { type: "unsupported", ...base, messageType: String(event.message.type) };
    }
    const raw = String(event.message.text ?? "");
    const { text: stripped, mentioned } = stripSelfMentions(raw, event.message.mention);
    const prefixed = options.groupPrefix !== "" && raw.trimStart().startsWith(options.groupPrefix);
    if (chat.kind !== "user" && !mentioned && !prefixed)
      return { type: "ignore", reason: "not addressed to the bot" };
    text = stripped;
  } else {
    return { type: "ignore", reason: `event type ${String(event.type)}` };
  }
  if (!text) return { type: "ignore", reason: "empty text" };
  const timestamp = Number(event.timestamp);
  const turn: Turn = {
    threadKey: chat.threadKey,
    platform: "line",
    userId: chat.userId ?? chat.id,
    // Code points, so a long message is never cut inside a surrogate pair.
    text: Array.from(text).slice(0, 2000).join(""),
    ...(eventId ? { eventId } : {}),
    ...(messageId ? { messageId } : {}),
    ...(Number.isFinite(timestamp) && timestamp > 0 ? { receivedAt: new Date(timestamp).toISOString() } : {}),
  };
  return { type: "turn", turn, chat, replyToken, redelivery };
}

/** Event → Turn, or null when the event is not a question for the bot (the contract suite's view). */
export function parseEvent(event: unknown, options: ParseOptions): Turn | null {
  const action = classifyEvent(event, options);
  return action.type === "turn" ? action.turn : null;
}
