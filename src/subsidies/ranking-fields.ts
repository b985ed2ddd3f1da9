/** The fields a ranked search (find_subsidies) adds to a list item: matched words, snippet, rounds, city. */
import type { Subsidy } from "../types.ts";

type Ranking = Pick<Subsidy, "matchedTerms" | "snippet" | "otherRounds" | "city">;

const strings = (v: unknown): string[] =>
  Array.isArray(v) ? v.filter((s): s is string => typeof s === "string" && s !== "") : [];

/** Reads the ranking fields of an item; absent ones stay absent (literal search results have none). */
export function rankingFields(raw: Record<string, unknown>): Ranking {
  const out: Ranking = {};
  const matched = strings(raw.matched_terms);
  if (matched.length > 0) out.matchedTerms = matched;
  if (typeof raw.snippet === "string" && raw.snippet) out.snippet = raw.snippet;
  if (Array.isArray(raw.rounds)) {
    const rounds = raw.rounds.filter(
      (r): r is { id: string; label: string } =>
        typeof r === "object" && r !== null && typeof r.id === "string" && typeof r.label === "string",
    );
    if (rounds.length > 0) out.otherRounds = rounds.map(({ id, label }) => ({ id, label }));
  }
  if (typeof raw.city === "string" && raw.city) out.city = raw.city;
  return out;
}
