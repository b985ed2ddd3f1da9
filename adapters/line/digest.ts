/**
 * Watch digests pushed to the LINE chat the watch was saved in (user, group or room). The push carries an
 * X-Line-Retry-Key derived from the digest id, so a retried send is delivered at most once by LINE.
 */
import { createHash } from "node:crypto";
import type { Digest } from "../../src/watch/index.ts";
import type { LineApi } from "./client.ts";
import { markdownToPlain, truncate } from "./text.ts";

/** LINE's limit for one text message. */
const TEXT_MAX = 5000;

/** The push target of a LINE thread key (line:user:U…, line:group:C…, line:room:R…), or null. */
export function lineTargetOf(threadKey: string): string | null {
  return /^line:(?:user|group|room):([^:]+)$/.exec(threadKey)?.[1] ?? null;
}

/** A UUID made from the digest id: the same digest always pushes with the same retry key. */
export function retryKeyOf(digestId: string): string {
  const hex = createHash("sha256").update(digestId).digest("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** Pushes a digest as one text message; throws when LINE refused it (the scheduler retries). */
export function createLineDigestSender(api: LineApi) {
  return async (digest: Digest): Promise<void> => {
    const to = lineTargetOf(digest.threadKey);
    if (!to) throw new TypeError(`not a LINE thread key: ${digest.threadKey}`);
    const text = truncate(markdownToPlain(digest.text), TEXT_MAX);
    await api.push(to, [{ type: "text", text }], retryKeyOf(digest.id));
  };
}
