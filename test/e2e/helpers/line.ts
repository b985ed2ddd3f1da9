/**
 * LINE as the app sees it from outside: signed webhook posts to `${app.url}/line/webhook` (events built
 * and signed by the adapter tests' helpers), and readers of the replies the fake Messaging API received.
 */

import { sign } from "../../adapters/line/helpers.ts";
import type { LineCall } from "../../fakes/fake-line-api.ts";

export { postbackEvent, SECRET, textEvent, userSource } from "../../adapters/line/helpers.ts";

/** Posts events as LINE does: the exact UTF-8 bytes, signed with the channel secret (or a wrong one). */
export async function postLine(
  appUrl: string,
  events: unknown[],
  options: { secret?: string } = {},
): Promise<number> {
  const raw = JSON.stringify({ destination: "Ubot0000000000000000000000000000", events });
  const res = await fetch(`${appUrl}/line/webhook`, {
    method: "POST",
    headers: {
      "content-type": "application/json; charset=UTF-8",
      "x-line-signature": sign(raw, options.secret),
    },
    body: Buffer.from(raw, "utf8"),
  });
  await res.text();
  return res.status;
}

// biome-ignore lint/suspicious/noExplicitAny: LINE message JSON as recorded by the fake
type Message = any;

/** Messages sent to users (reply or push, accepted by the fake), in order. */
export const delivered = (calls: LineCall[]): LineCall[] =>
  calls.filter((c) => (c.kind === "reply" || c.kind === "push") && c.status < 300);

/** The text of a delivery's text messages, joined by newlines. */
export const textsOf = (call: LineCall): string =>
  (call.body.messages as Message[])
    .filter((m) => m.type === "text")
    .map((m) => m.text as string)
    .join("\n");

/** The Flex bubbles of a delivery (empty when it has no carousel). */
export function bubblesOf(call: LineCall): Message[] {
  const flex = (call.body.messages as Message[]).find((m) => m.type === "flex");
  if (!flex) return [];
  return flex.contents.type === "carousel" ? flex.contents.contents : [flex.contents];
}

/** What a bubble shows: its title, the labelled rows, and its two buttons' actions. */
export function readBubble(bubble: Message) {
  const body = bubble.body.contents as Message[];
  const rows: Record<string, string> = {};
  for (const c of body) {
    if (c.type === "box" && c.layout === "baseline") rows[c.contents[0].text] = c.contents[1].text;
  }
  const actions = (bubble.footer.contents as Message[]).map((b) => b.action);
  return {
    title: body[1]?.text as string,
    rows,
    uri: actions.find((a) => a.type === "uri")?.uri as string | undefined,
    postback: actions.find((a) => a.type === "postback") as { label: string; data: string } | undefined,
  };
}
