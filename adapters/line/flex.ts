/** One Flex bubble per subsidy: the facts a user acts on, from structured data, never LLM prose. */
import type { messagingApi } from "@line/bot-sdk";
import { areaLabel, matchedLabel, otherRoundsLabel, statusLabel } from "../../src/subsidies/present.ts";
import type { Subsidy } from "../../src/types.ts";
import { firstSentence, truncate } from "./text.ts";

type FlexBubble = messagingApi.FlexBubble;
type FlexComponent = messagingApi.FlexComponent;

/** LINE's documented limits that the renderer respects. */
export const LINE_LIMITS = {
  textChars: 5000,
  messagesPerReply: 5,
  bubbleBytes: 10_000,
  carouselBytes: 50_000,
  carouselBubbles: 12,
  altTextChars: 400,
  quickReplyItems: 13,
  quickReplyLabel: 20,
  buttonLabel: 40,
  postbackData: 300,
  uriChars: 1000,
} as const;

/** UTF-8 size of a value's JSON, as LINE measures Flex payloads. */
export function jsonBytes(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value), "utf8");
}

/** The deadline with days left, e.g. "2026/12/17(木) 23:59（あと18日）". */
export function deadlineText(s: Subsidy): string {
  if (!s.end) return "未定（公募要領を確認）";
  if (s.daysLeft === null) return s.end.jst;
  if (s.daysLeft === 0) return `${s.end.jst}（本日締切）`;
  return `${s.end.jst}（あと${s.daysLeft}日）`;
}

export function portalUrl(s: Subsidy): string {
  const ok = /^https:\/\/[^\s]+$/.test(s.url) && s.url.length <= LINE_LIMITS.uriChars;
  return ok ? s.url : `https://www.jgrants-portal.go.jp/subsidy/${encodeURIComponent(s.id)}`;
}

export function row(label: string, value: string, maxChars: number): FlexComponent {
  return {
    type: "box",
    layout: "baseline",
    spacing: "sm",
    contents: [
      { type: "text", text: label, size: "xs", color: "#888888", flex: 2 },
      {
        type: "text",
        text: truncate(value || "—", maxChars),
        size: "xs",
        color: "#333333",
        flex: 5,
        wrap: true,
      },
    ],
  };
}

/** The small line of matched words and grouped rounds, when the search gave them. */
function matchText(s: Subsidy): FlexComponent[] {
  const text = [matchedLabel(s), otherRoundsLabel(s)].filter(Boolean).join("・");
  return text ? [{ type: "text", text: truncate(text, 60), size: "xxs", color: "#1D6FB8", wrap: true }] : [];
}

/**
 * Builds the bubble of the n-th (1-based) subsidy; `compact` shortens texts to fit tight size budgets;
 * `dated` puts the snapshot's date beside the status (the first bubble only, so it is said once).
 */
export function subsidyBubble(s: Subsidy, n: number, compact = false, dated = false): FlexBubble {
  const short = compact ? 0.5 : 1;
  const statusColor = s.status === "受付中" ? "#1DB446" : s.status === "受付前" ? "#E69500" : "#888888";
  const id = truncate(s.id, 100);
  const data = `action=detail&id=${encodeURIComponent(id)}&n=${n}`;
  return {
    type: "bubble",
    size: "kilo",
    body: {
      type: "box",
      layout: "vertical",
      spacing: "sm",
      contents: [
        { type: "text", text: `${n}. ${s.status}`, size: "xxs", color: statusColor, weight: "bold" },
        {
          type: "text",
          text: truncate(s.title, 80 * short),
          weight: "bold",
          size: "sm",
          wrap: true,
          maxLines: 3,
        },
        ...matchText(s),
        { type: "separator", margin: "md" },
        ...factRows(s, short, dated),
        {
          type: "text",
          text: truncate(firstSentence(s.summary) || "概要は公募要領を確認してください。", 60 * short),
          size: "xxs",
          color: "#666666",
          wrap: true,
          maxLines: 2,
          margin: "md",
        },
      ],
    },
    footer: {
      type: "box",
      layout: "vertical",
      spacing: "sm",
      contents: [
        {
          type: "button",
          style: "primary",
          height: "sm",
          action: { type: "uri", label: "Jグランツで見る", uri: portalUrl(s) },
        },
        {
          type: "button",
          style: "secondary",
          height: "sm",
          action: { type: "postback", label: "詳しく", data, displayText: `${n}番目の詳細` },
        },
      ],
    },
  };
}

/** The five facts of every bubble: amount, rate, deadline, status, area. */
export function factRows(s: Subsidy, short: number, dated: boolean): FlexComponent[] {
  return [
    row("上限額", s.maxAmountText, 40),
    row("補助率", s.rate ?? "公募要領を確認", 60 * short),
    row("締切", deadlineText(s), 60),
    row("受付状況", statusLabel(s, dated), 30),
    row("対象地域", areaLabel(s, "—"), 60 * short),
  ];
}

/** A bubble within the 10 KB limit: full texts when they fit, compact ones otherwise. */
export function boundedBubble(s: Subsidy, n: number, dated = false): FlexBubble {
  const full = subsidyBubble(s, n, false, dated);
  return jsonBytes(full) <= LINE_LIMITS.bubbleBytes ? full : subsidyBubble(s, n, true, dated);
}
