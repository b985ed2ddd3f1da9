/** A short piece of a record's text around the first word of the question it matched. */
import type { CatalogEntry } from "./entry.ts";
import type { Concept } from "./query.ts";
import { fold } from "./text.ts";

const RADIUS = 40;

/** About 90 characters of catch phrase, purpose or detail around the best matched word, or undefined. */
export function snippetOf(entry: CatalogEntry, matched: Concept[]): string | undefined {
  const words = [...matched]
    .sort((a, b) => Number(b.own) - Number(a.own) || b.weight - a.weight)
    .flatMap((c) => c.alternatives.map((a) => a.text));
  for (const text of [entry.catch, entry.detail, entry.purpose]) {
    if (!text) continue;
    const folded = fold(text);
    for (const word of words) {
      const at = folded.indexOf(word);
      if (at < 0) continue;
      const from = Math.max(0, at - RADIUS);
      const to = Math.min(text.length, at + word.length + RADIUS);
      const piece = text.slice(from, to).replace(/\s+/g, " ").trim();
      return `${from > 0 ? "…" : ""}${piece}${to < text.length ? "…" : ""}`;
    }
  }
  return undefined;
}
