/**
 * Slack as the app sees it from outside: signed Events API deliveries to `${app.url}/slack/events`
 * (signed and built by the adapter tests' harness), and readers of what the fake Web API received.
 */

import { type SignatureKind, signedHeaders } from "../../adapters/slack/harness.ts";
import type { RecordedCall } from "../../fakes/fake-slack-api.ts";

export {
  BOT_ID,
  BOT_USER,
  envelope,
  mentionEvent,
  messageEvent,
  SIGNING_SECRET,
  TEAM,
} from "../../adapters/slack/harness.ts";

/**
 * Posts an Events API body the way Slack does (JSON, v0 signature, optional retry headers); `form` sends
 * an interactivity payload (a button click) as Slack does, form-encoded.
 */
export async function deliverSlack(
  appUrl: string,
  body: object,
  options: { signature?: SignatureKind; retryNum?: number; form?: boolean } = {},
): Promise<number> {
  const raw = options.form ? `payload=${encodeURIComponent(JSON.stringify(body))}` : JSON.stringify(body);
  const headers: Record<string, string> = {
    "content-type": options.form ? "application/x-www-form-urlencoded" : "application/json",
    ...signedHeaders(raw, options.signature),
  };
  if (options.retryNum !== undefined) {
    headers["x-slack-retry-num"] = String(options.retryNum);
    headers["x-slack-retry-reason"] = "http_timeout";
  }
  const res = await fetch(`${appUrl}/slack/events`, { method: "POST", headers, body: raw });
  await res.text();
  return res.status;
}

interface Block {
  type: string;
  text?: { text: string };
  fields?: Array<{ text: string }>;
  elements?: Array<{ text?: string }>;
  accessory?: { value?: string };
}

/** The blocks of a recorded chat.postMessage / chat.update. */
export const blocksOf = (call: RecordedCall): Block[] => (call.params.blocks as Block[] | undefined) ?? [];

/** Every piece of text in a message's blocks, joined by newlines. */
export function blocksText(call: RecordedCall): string {
  return blocksOf(call)
    .flatMap((b) => [
      b.text?.text,
      ...(b.fields ?? []).map((f) => f.text),
      ...(b.elements ?? []).map((e) => e.text),
    ])
    .filter((t): t is string => typeof t === "string")
    .join("\n");
}

/** The subsidy sections of a message: the title line and the fields as label → value. */
export function subsidySections(
  calls: RecordedCall[],
): Array<{ text: string; fields: Record<string, string> }> {
  return calls
    .flatMap(blocksOf)
    .filter((b) => b.type === "section" && b.fields)
    .map((b) => ({
      text: b.text?.text ?? "",
      fields: Object.fromEntries(
        (b.fields ?? []).map((f) => {
          const [label = "", ...value] = f.text.split("\n");
          return [label.replace(/\*/g, ""), value.join("\n")];
        }),
      ),
    }));
}

/** One answered message as the thread shows it: the status line, its edits and the answer messages. */
export interface SlackAnswer {
  status: RecordedCall;
  updates: RecordedCall[];
  answers: RecordedCall[];
}

const inThread = (call: RecordedCall, channel: string, threadTs: string) =>
  call.method === "chat.postMessage" &&
  call.outcome === "ok" &&
  call.params.channel === channel &&
  call.params.thread_ts === threadTs;

/** The answer made in a thread after call index `from`, once its status line has been removed. */
function answerAfter(calls: RecordedCall[], from: number, channel: string, threadTs: string) {
  const later = calls.slice(from);
  const posts = later.filter((c) => inThread(c, channel, threadTs));
  const [status, ...answers] = posts;
  const statusTs = status?.response?.ts;
  if (!status || !later.some((c) => c.method === "chat.delete" && c.params.ts === statusTs)) return null;
  const updates = later.filter((c) => c.method === "chat.update" && c.params.ts === statusTs);
  return { status, updates, answers };
}

/** Waits (polling the fake) until an answer made after call index `from` is complete in the thread. */
export async function waitForAnswer(
  fake: { calls: RecordedCall[]; waitFor(p: (calls: RecordedCall[]) => boolean, ms?: number): Promise<void> },
  from: number,
  channel: string,
  threadTs: string,
): Promise<SlackAnswer> {
  await fake.waitFor((calls) => answerAfter(calls, from, channel, threadTs) !== null, 20_000);
  const answer = answerAfter(fake.calls, from, channel, threadTs);
  if (!answer) throw new Error("answer vanished");
  return answer;
}
