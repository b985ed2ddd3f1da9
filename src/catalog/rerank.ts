/**
 * Reranking for servers without the ranked tool (the official jGrants server): the candidates that literal
 * searches gathered are ranked in-process with the catalog's own scorer and cleaning (procedural pages
 * out, one card per programme, the fit judged the same way), so both paths answer alike.
 */
import type { JgrantsRecord } from "../mcp-servers/jgrants/types.ts";
import type { MatchQuality, Subsidy } from "../types.ts";
import { createCatalog, matchedWords, shownHits } from "./catalog.ts";
import { recordSourceOf } from "./record-source.ts";

export interface Reranked {
  /** The ids to show, best first: those that fit, or the three nearest when none does. */
  ids: string[];
  match: MatchQuality;
  /** The words of the question each shown id matched. */
  matched: Map<string, string[]>;
  /** Other rounds grouped under each shown id. */
  rounds: Map<string, Array<{ id: string; label: string }>>;
}

/** The list fields a literal search returns, as a record the catalog can index. */
function recordOf(s: Subsidy): JgrantsRecord {
  return {
    id: s.id,
    title: s.title,
    subsidy_catch_phrase: s.summary || null,
    use_purpose: s.purpose,
    industry: s.industry,
    target_area_search: s.area,
    target_number_of_employees: s.employees,
    acceptance_start_datetime: s.start?.iso ?? null,
    acceptance_end_datetime: s.end?.iso ?? null,
  };
}

/** Ranks literal-search candidates for a question; the searches already applied the server's filters. */
export function rerank(candidates: Subsidy[], question: string, now: Date): Reranked {
  const records = candidates.map(recordOf);
  const source = recordSourceOf(records, { origin: "live", asOf: "" });
  const result = createCatalog(source, { now: () => now }).find(
    question,
    { includeClosed: true },
    records.length,
  );
  const chosen = shownHits(result, records.length);
  return {
    ids: chosen.map((h) => h.entry.id),
    match: result.match,
    matched: new Map(chosen.map((h) => [h.entry.id, matchedWords(h.matched)])),
    rounds: new Map(chosen.map((h) => [h.entry.id, h.rounds])),
  };
}
