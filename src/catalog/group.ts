/**
 * One card per programme: hits with the same group key (rounds, courses, word-for-word copies) become one,
 * led by the best-ranked of them, with the others listed as rounds (「ほか第20次、第21次」).
 */
import type { CatalogEntry } from "./entry.ts";
import type { Concept } from "./query.ts";

export interface ScoredEntry {
  entry: CatalogEntry;
  score: number;
  /** Share of the question's own need (weights) this record meets, 0–1. */
  coverage: number;
  /** One of the question's own needs is met by its word or a close equivalent. */
  strong: boolean;
  matched: Concept[];
}

export interface RankedHit extends ScoredEntry {
  /** The programme's other rounds that also passed the filters. */
  rounds: Array<{ id: string; label: string }>;
  /** True when it fits the question (not only related to it). */
  fits?: boolean;
}

/** Groups ranked hits by programme, keeping the rank of each group's best member. */
export function groupHits(ranked: ScoredEntry[]): RankedHit[] {
  const byKey = new Map<string, RankedHit>();
  const out: RankedHit[] = [];
  for (const hit of ranked) {
    const lead = byKey.get(hit.entry.groupKey);
    if (lead) {
      lead.rounds.push({ id: hit.entry.id, label: hit.entry.roundLabel || hit.entry.title });
      continue;
    }
    const card: RankedHit = { ...hit, rounds: [] };
    byKey.set(hit.entry.groupKey, card);
    out.push(card);
  }
  return out;
}
