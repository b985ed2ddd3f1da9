/**
 * Data text (titles, rates, summaries as the source has them) may carry links: a URL, a bare domain, or
 * markdown link syntax. Slack, LINE and the web chat would make those clickable, so that a record could
 * put a link of its choosing into our answer. Here they are made inert but still readable: the scheme's
 * colon becomes a full-width 「：」, a bare domain's dots become 「．」, and `[label](target)` loses the
 * adjacency that makes it a link. Only the subsidy's own portal URL stays a link.
 */

/** A URL with a scheme, up to a space, bracket, quote or Japanese punctuation. */
export const URL = /https?:\/\/[^\s<>()[\]「」『』"'、。]+/gi;
/** A domain without a scheme (Slack and LINE make those clickable too). */
export const BARE_DOMAIN = /\b(?:[a-z0-9-]+\.)+(?:com|net|org|jp|io|co|info|biz|xyz|dev|app|me|ly)\b/gi;

/** The text with every link except the `allowed` URLs made non-clickable. */
export function inertLinks(text: string, allowed: string[] = []): string {
  const kept: string[] = [];
  // Allowed URLs are set aside first, so that the rules below cannot touch them.
  const held = text.replace(URL, (url) => {
    if (!allowed.includes(url.replace(/[.,;:!?]+$/, ""))) return url.replace("://", "：//");
    kept.push(url);
    return `\u0000${kept.length - 1}\u0000`;
  });
  return held
    .replace(BARE_DOMAIN, (domain) => domain.replaceAll(".", "．"))
    .replace(/\]\(/g, "] (")
    .replace(/\u0000(\d+)\u0000/g, (_m, i: string) => kept[Number(i)] ?? "");
}
