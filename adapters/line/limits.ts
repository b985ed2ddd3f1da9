/** Checks one outbound LINE message against the platform limits the renderer promises to respect. */
import type { messagingApi } from "@line/bot-sdk";
import { jsonBytes, LINE_LIMITS } from "./flex.ts";
import { graphemes } from "./text.ts";

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function strings(node: unknown): string[] {
  if (typeof node === "string") return [node];
  if (Array.isArray(node)) return node.flatMap(strings);
  if (node && typeof node === "object") return Object.values(node).flatMap(strings);
  return [];
}

/** The limits a message breaks, as readable strings ([] when it is valid). */
export function checkLineMessage(message: messagingApi.Message): string[] {
  const problems: string[] = [];
  if (message.type === "text" && (message.text.length === 0 || message.text.length > LINE_LIMITS.textChars)) {
    problems.push(`text has ${message.text.length} characters (1–${LINE_LIMITS.textChars})`);
  }
  if (message.type === "flex") {
    if (!message.altText || message.altText.length > LINE_LIMITS.altTextChars) {
      problems.push(`altText must be 1–${LINE_LIMITS.altTextChars} characters`);
    }
    const bubbles = message.contents.type === "carousel" ? message.contents.contents : [message.contents];
    if (bubbles.length > LINE_LIMITS.carouselBubbles) problems.push(`carousel has ${bubbles.length} bubbles`);
    if (jsonBytes(message.contents) > LINE_LIMITS.carouselBytes) problems.push("carousel JSON over 50 KB");
    bubbles.forEach((bubble, i) => {
      if (jsonBytes(bubble) > LINE_LIMITS.bubbleBytes) problems.push(`bubble ${i + 1} JSON over 10 KB`);
    });
  }
  const items = message.quickReply?.items ?? [];
  if (items.length > LINE_LIMITS.quickReplyItems) problems.push(`${items.length} quick reply items`);
  for (const item of items) {
    const label = item.action?.label ?? "";
    if (graphemes(label).length > LINE_LIMITS.quickReplyLabel)
      problems.push(`quick reply label too long: ${label}`);
    const data = item.action?.type === "postback" ? (item.action.data ?? "") : "";
    if (data.length > LINE_LIMITS.postbackData) problems.push("postback data over 300 characters");
  }
  if (strings(message).some((s) => LONE_SURROGATE.test(s)))
    problems.push("a string is cut inside a character");
  return problems;
}
