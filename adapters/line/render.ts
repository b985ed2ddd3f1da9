/**
 * Reply → LINE messages (pure): a short summary, a Flex carousel (one bubble per subsidy) and the
 * explanation as plain text, with quick replies for next steps, always within LINE's limits.
 */
import type { messagingApi } from "@line/bot-sdk";
import type { Reply, SearchConditions, Subsidy } from "../../src/types.ts";
import { boundedBubble, jsonBytes, LINE_LIMITS } from "./flex.ts";
import { markdownToPlain, truncate } from "./text.ts";

type Message = messagingApi.Message;
type QuickReplyItem = messagingApi.QuickReplyItem;

export interface RenderOptions {
  /** How many messages the reply may use (an apology may take one of the five). */
  maxMessages?: number;
}

/** A text message within LINE's 5,000-character limit. */
export function textMessage(text: string, quickReply?: QuickReplyItem[]): messagingApi.TextMessage {
  const message: messagingApi.TextMessage = { type: "text", text: truncate(text.trim() || "…", 4000, 5000) };
  if (quickReply?.length) message.quickReply = { items: quickReply };
  return message;
}

/** A quick reply that sends a follow-up as a postback, so it works in groups without a mention. */
export function askItem(label: string, question: string): QuickReplyItem {
  return {
    type: "action",
    action: {
      type: "postback",
      label: truncate(label, LINE_LIMITS.quickReplyLabel),
      // Only the characters URLSearchParams treats specially are escaped, so Japanese stays short.
      data: `action=ask&q=${truncate(question, 100, 250).replace(/[%&=+#]/g, encodeURIComponent)}`,
      displayText: truncate(question, 300),
    },
  };
}

function conditionsText(c: SearchConditions | null): string {
  if (!c) return "";
  const parts = [
    c.keywords.length ? `キーワード「${c.keywords.join("・")}」` : "",
    c.area ? `地域: ${c.area}` : "",
    c.industry ? `業種: ${c.industry}` : "",
    c.employees ? `従業員数: ${c.employees}` : "",
    c.purpose ? `目的: ${c.purpose}` : "",
    c.acceptance === "1" ? "受付中のみ" : "",
    c.sort === "acceptance_end_datetime" && c.order !== "DESC" ? "締切が近い順" : "",
  ].filter(Boolean);
  return parts.join(" / ");
}

function dataDate(subsidies: Subsidy[]): string {
  const source = subsidies[0]?.source;
  if (!source) return "";
  if (source.mode === "snapshot") return `データ: ${source.asOf ?? "日付不明"}時点のJグランツ収録データ`;
  return `データ: Jグランツ${source.asOf ? `（${source.asOf.slice(0, 10)}取得）` : "（最新）"}`;
}

/** The short text shown before the carousel: conditions, count, "他にN件", the date of the data. */
export function summaryText(reply: Reply, shown: number): string {
  const lines: string[] = [];
  const conditions = conditionsText(reply.conditions);
  if (conditions) lines.push(`🔍 ${conditions}`);
  const total = Math.max(reply.totalCount, shown);
  const more = total - shown;
  lines.push(`📋 ${total}件見つかりました。${shown}件を表示します${more > 0 ? `（他に${more}件）` : ""}。`);
  const asOf = reply.subsidies[0]?.source.asOf?.slice(0, 10);
  const noted = asOf !== undefined && reply.notes.some((n) => n.includes(asOf));
  const date = dataDate(reply.subsidies);
  if (date && !noted) lines.push(date);
  for (const note of reply.notes) if (!lines.some((l) => l.includes(note))) lines.push(`※ ${note}`);
  return lines.join("\n");
}

/** Quick replies for natural next steps after a search. */
export function nextStepItems(reply: Reply): QuickReplyItem[] {
  const items = [askItem("締切が近い順", "締切が近い順にして")];
  const current = reply.conditions?.area;
  const areas = [...new Set(reply.subsidies.map((s) => s.area ?? ""))].filter(
    (a) => a && a !== "全国" && a !== current && /[都道府県]$/.test(a),
  );
  for (const area of (areas.length ? areas : ["東京都", "大阪府"]).slice(0, 3)) {
    if (area !== current) items.push(askItem(`${area}で絞る`, `${area}で絞り込んで`));
  }
  if (reply.subsidies.length) items.push(askItem("1番目の詳細", "1番目の詳細は？"));
  return items.slice(0, LINE_LIMITS.quickReplyItems);
}

/** A Flex carousel of at most 12 bubbles that fits 50 KB (bubbles are dropped from the end if needed). */
export function carouselMessage(subsidies: Subsidy[]): messagingApi.FlexMessage | null {
  const bubbles = subsidies.slice(0, LINE_LIMITS.carouselBubbles).map((s, i) => boundedBubble(s, i + 1));
  while (
    bubbles.length > 1 &&
    jsonBytes({ type: "carousel", contents: bubbles }) > LINE_LIMITS.carouselBytes
  ) {
    bubbles.pop();
  }
  if (!bubbles.length) return null;
  const titles = subsidies.slice(0, bubbles.length).map((s, i) => `${i + 1}. ${s.title}`);
  return {
    type: "flex",
    altText: truncate(`補助金${bubbles.length}件: ${titles.join(" / ")}`, 200, LINE_LIMITS.altTextChars),
    contents: { type: "carousel", contents: bubbles },
  };
}

/** Renders an agent reply as at most `maxMessages` (≤ 5) LINE messages. */
export function renderReply(reply: Reply, options: RenderOptions = {}): Message[] {
  const max = Math.min(options.maxMessages ?? LINE_LIMITS.messagesPerReply, LINE_LIMITS.messagesPerReply);
  const plain = markdownToPlain(reply.text);
  const carousel = reply.kind === "answer" ? carouselMessage(reply.subsidies) : null;
  if (!carousel || max < 2) {
    const notes = reply.kind === "answer" ? reply.notes.filter((n) => !plain.includes(n)) : [];
    const text = [plain, ...notes.map((n) => `※ ${n}`)].filter(Boolean).join("\n\n");
    const quick = reply.kind === "answer" && reply.subsidies.length ? nextStepItems(reply) : undefined;
    return [textMessage(text || "回答を作成できませんでした。", quick)];
  }
  const shown = carousel.contents.type === "carousel" ? carousel.contents.contents.length : 1;
  const messages: Message[] = [textMessage(summaryText(reply, shown)), carousel];
  if (plain && max >= 3) messages.push(textMessage(plain));
  const last = messages[messages.length - 1];
  if (last) last.quickReply = { items: nextStepItems(reply) };
  return messages;
}
