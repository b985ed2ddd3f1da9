/**
 * Reply → LINE messages (pure): a short summary, a Flex carousel (one bubble per subsidy) and the
 * explanation as plain text, with quick replies for next steps, always within LINE's limits.
 */
import type { messagingApi } from "@line/bot-sdk";
import { proseBesideCards } from "../../src/answer/template-prose.ts";
import { notesBesideCards } from "../../src/subsidies/present.ts";
import type { Reply, SearchConditions, Subsidy } from "../../src/types.ts";
import { detailBubble } from "./detail.ts";
import { EXAMPLE_QUESTIONS } from "./examples.ts";
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

/** Said above the cards when nothing clearly fits and only the nearest subsidies are shown. */
export const WEAK_MATCH_TEXT =
  "条件にぴったり合う受付中の補助金は見つかりませんでした。近いものを参考に表示します。";

const ATTRIBUTION = "出典: Jグランツ（デジタル庁）。申請前に公式ページで公募要領をご確認ください。";

/**
 * The short text shown before the carousel: conditions, the count (said here only), the notes (the data
 * date is on the first bubble instead) and the source.
 */
export function summaryText(reply: Reply, shown: number): string {
  const lines: string[] = [];
  const conditions = conditionsText(reply.conditions);
  if (conditions) lines.push(`🔍 ${conditions}`);
  const total = Math.max(reply.totalCount, shown);
  const more = total - shown;
  if (reply.meta.match === "weak") lines.push(`⚠️ ${WEAK_MATCH_TEXT}`);
  else if (shown === total) lines.push(`📋 ${total}件見つかりました。`);
  else lines.push(`📋 ${total}件見つかりました。${shown}件を表示します（他に${more}件）。`);
  for (const note of notesBesideCards(reply)) lines.push(`※ ${note}`);
  lines.push(ATTRIBUTION);
  return lines.join("\n");
}

/** Quick replies: the suggestions first, then natural next steps after a search; each says what it does. */
export function nextStepItems(reply: Reply): QuickReplyItem[] {
  const items = (reply.suggestions ?? []).filter((q) => q.trim()).map((q) => askItem(q, q));
  if (reply.view === "details") {
    items.push(askItem("ほかの補助金を探す", "ほかの補助金も教えて"));
    return items.slice(0, LINE_LIMITS.quickReplyItems);
  }
  // The list's search can be watched: the item sends the typed command, so the confirmation is the same.
  if (reply.subsidies.length > 0) items.push(askItem("🔔 この条件をウォッチ", "この条件をウォッチ"));
  if (reply.subsidies.length > 1) items.push(askItem("締切が近い順に並べる", "締切が近い順にして"));
  const current = reply.conditions?.area;
  const areas = [...new Set(reply.subsidies.map((s) => s.area ?? ""))].filter(
    (a) => a && a !== "全国" && a !== current && /[都道府県]$/.test(a),
  );
  // Another area is a new search there, not a narrowing of this one.
  for (const area of (areas.length ? areas : ["東京都", "大阪府"]).slice(0, 3)) {
    if (area !== current) items.push(askItem(`${area}で探す`, `${area}なら？`));
  }
  if (reply.subsidies.length === 1) items.push(askItem("この補助金の詳細", "1番目の詳細は？"));
  else if (reply.subsidies.length > 1) items.push(askItem("1番目の詳細", "1番目の詳細は？"));
  return items.slice(0, LINE_LIMITS.quickReplyItems);
}

/** A Flex carousel of at most 12 bubbles that fits 50 KB (bubbles are dropped from the end if needed). */
export function carouselMessage(subsidies: Subsidy[], details = false): messagingApi.FlexMessage | null {
  const numbered = !details || subsidies.length > 1;
  const bubbles = subsidies
    .slice(0, LINE_LIMITS.carouselBubbles)
    .map((s, i) => (details ? detailBubble(s, i === 0) : boundedBubble(s, i + 1, i === 0)));
  while (
    bubbles.length > 1 &&
    jsonBytes({ type: "carousel", contents: bubbles }) > LINE_LIMITS.carouselBytes
  ) {
    bubbles.pop();
  }
  if (!bubbles.length) return null;
  const titles = subsidies
    .slice(0, bubbles.length)
    .map((s, i) => `${numbered ? `${i + 1}. ` : ""}${s.title}`);
  const what = details ? "補助金の詳細" : `補助金${bubbles.length}件`;
  return {
    type: "flex",
    altText: truncate(`${what}: ${titles.join(" / ")}`, 200, LINE_LIMITS.altTextChars),
    contents: { type: "carousel", contents: bubbles },
  };
}

/** Renders an agent reply as at most `maxMessages` (≤ 5) LINE messages. */
export function renderReply(reply: Reply, options: RenderOptions = {}): Message[] {
  const max = Math.min(options.maxMessages ?? LINE_LIMITS.messagesPerReply, LINE_LIMITS.messagesPerReply);
  const plain = markdownToPlain(reply.text);
  const details = reply.view === "details";
  const carousel = reply.kind === "answer" ? carouselMessage(reply.subsidies, details) : null;
  if (!carousel || max < 2) {
    const notes = reply.kind === "answer" ? reply.notes.filter((n) => !plain.includes(n)) : [];
    const text = [plain, ...notes.map((n) => `※ ${n}`)].filter(Boolean).join("\n\n");
    const answered = reply.kind === "answer" && (reply.subsidies.length > 0 || reply.suggestions?.length);
    // After help or a cleared history, the examples are one tap away.
    const fresh = reply.kind === "help" || reply.kind === "cleared";
    const quick = answered
      ? nextStepItems(reply)
      : fresh
        ? EXAMPLE_QUESTIONS.map((q) => askItem(q, q))
        : undefined;
    return [textMessage(text || "回答を作成できませんでした。", quick)];
  }
  const shown = carousel.contents.type === "carousel" ? carousel.contents.contents.length : 1;
  // The cards carry the facts; the text keeps only what they do not say.
  const prose = markdownToPlain(proseBesideCards(reply));
  const detailText = [
    prose || "ご質問の補助金の詳細です。",
    ...notesBesideCards(reply).map((n) => `※ ${n}`),
    ATTRIBUTION,
  ].join("\n");
  const messages: Message[] = [textMessage(details ? detailText : summaryText(reply, shown)), carousel];
  if (!details && prose && max >= 3) messages.push(textMessage(prose));
  const last = messages[messages.length - 1];
  if (last) last.quickReply = { items: nextStepItems(reply) };
  return messages;
}
