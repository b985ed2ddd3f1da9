/** Search over the snapshot, mimicking the jGrants list API: keyword, " / " filters, acceptance, sort, order. */
import { acceptanceEnd, acceptanceStart, isAccepting } from "./records.ts";
import { foldText, type IndexedRecord } from "./snapshot-data.ts";
import type { JgrantsRecord, SearchParams, SortField } from "./types.ts";

/** Splits a " / "-joined value (the detail API writes "/" without spaces, so both are accepted). */
export function splitList(value: string): string[] {
  return value
    .split(/\s*[/／]\s*/)
    .map((v) => foldText(v.trim()))
    .filter(Boolean);
}

/**
 * True when the record's list field shares at least one value with the filter (OR within one filter).
 * Matching is literal: a 全国 subsidy does not match 東京都 unless the filter also names 全国
 * (see README.md, "全国 under a prefecture filter").
 */
function matchesFilter(recordValue: unknown, filter: string | undefined): boolean {
  if (!filter) return true;
  if (typeof recordValue !== "string" || recordValue === "") return false;
  const have = new Set(splitList(recordValue));
  return splitList(filter).some((wanted) => have.has(wanted));
}

/** Every whitespace-separated keyword term must occur in the title, catch phrase or detail text. */
function matchesKeyword(text: string, keyword: string): boolean {
  const terms = foldText(keyword).split(/\s+/).filter(Boolean);
  return terms.every((term) => (LATIN_WORD.test(term) ? latinWord(term).test(text) : text.includes(term)));
}

/** A term of Latin letters and digits only ("it", "ev", "iot"), matched as a whole word, not inside others. */
const LATIN_WORD = /^[a-z0-9]+$/;
const latinWordCache = new Map<string, RegExp>();
function latinWord(term: string): RegExp {
  let re = latinWordCache.get(term);
  if (!re) {
    re = new RegExp(`(?<![a-z0-9])${term}(?![a-z0-9])`);
    latinWordCache.set(term, re);
  }
  return re;
}

/** The sort key: created_date is not in the snapshot, so the S-number (issued in creation order) stands in. */
function sortKey(record: JgrantsRecord, field: SortField): number | null {
  if (field === "acceptance_start_datetime") return acceptanceStart(record);
  if (field === "acceptance_end_datetime") return acceptanceEnd(record);
  const created = typeof record.created_date === "string" ? Date.parse(record.created_date) : Number.NaN;
  if (!Number.isNaN(created)) return created;
  const match = typeof record.name === "string" ? /(\d+)/.exec(record.name) : null;
  return match ? Number(match[1]) : null;
}

/** Records matching the params, sorted (unknown sort keys last in both orders, then by id for stability). */
export function searchSnapshot(records: IndexedRecord[], params: SearchParams, now: number): JgrantsRecord[] {
  const hits = records
    .filter(({ record, text }) => {
      if (!matchesKeyword(text, params.keyword)) return false;
      if (!matchesFilter(record.use_purpose, params.use_purpose)) return false;
      if (!matchesFilter(record.industry, params.industry)) return false;
      if (!matchesFilter(record.target_number_of_employees, params.target_number_of_employees)) return false;
      if (!matchesFilter(record.target_area_search, params.target_area_search)) return false;
      return params.acceptance === 0 || isAccepting(record, now);
    })
    .map(({ record }) => ({ record, key: sortKey(record, params.sort) }));
  const direction = params.order === "DESC" ? -1 : 1;
  hits.sort((a, b) => {
    if (a.key === null || b.key === null) {
      if (a.key !== b.key) return a.key === null ? 1 : -1;
    } else if (a.key !== b.key) {
      return (a.key - b.key) * direction;
    }
    return a.record.id < b.record.id ? -1 : a.record.id > b.record.id ? 1 : 0;
  });
  return hits.map((h) => h.record);
}
