/**
 * The catalog: the subsidy records the bot knows, with a ranked `find(query, filters)` over them. Records
 * come from a CatalogRecordSource (the bundled snapshot, or the live sync); the index is rebuilt when the
 * source's version changes. Ranking is BM25 (MiniSearch) over character bigrams with field weights
 * title > catch phrase, purpose > detail; concepts are scored one by one and summed, so a record that meets
 * more of the question's needs ranks higher and every hit knows which words it matched.
 */
import { Bm25Index } from "./bm25-index.ts";
import { type CatalogEntry, toEntry } from "./entry.ts";
import { type CatalogFilters, passes } from "./filters.ts";
import { groupHits, type RankedHit } from "./group.ts";
import { analyseQuery, type Concept } from "./query.ts";
import type { CatalogRecordSource } from "./record-source.ts";
import { outOfSector, questionSectors } from "./sectors.ts";
import { type AnalyzerName, fold, tokenizerOf } from "./text.ts";

export type { CatalogFilters } from "./filters.ts";
export type { RankedHit } from "./group.ts";

export const FIELD_BOOST = { title: 3, catch: 2, purpose: 1.5, detail: 1 };
/** Below the best hit, a hit fits when it meets this share of the floor and of the best score. */
const FIT_SHARE = 0.8;
const SCORE_SHARE = 0.5;
/** A need met this well is met by its word or a close equivalent (the phrase's words, 0.8), not a loose one. */
const STRONG_COVER = 0.8;
/** How many of the top hits may lead the fit judgement. */
const LEAD_WINDOW = 3;
/** How much of its score a record keeps when it meets none of the question's own needs. */
const COVERAGE_BASE = 0.4;
/** How much of its fit a programme for another sector keeps (sectors.ts): alone, it never fits well. */
const OTHER_SECTOR = 0.4;

export interface FindResult {
  /** Ranked hits, one per programme (rounds grouped), best first. */
  hits: RankedHit[];
  /** How many programmes matched at all (before the limit). */
  total: number;
  /** How many of them fit the question (the rest are only related). */
  fitting: number;
  /** "good": the best hits meet the question's own need; "weak": only related ones; "none": nothing. */
  match: "good" | "weak" | "none";
  /** The concepts the question was read as (own words first). */
  concepts: Concept[];
}

export interface Catalog {
  find(query: string, filters?: CatalogFilters, limit?: number): FindResult;
  get(id: string): CatalogEntry | undefined;
  readonly size: number;
  source: CatalogRecordSource;
}

export interface CatalogOptions {
  analyzer?: AnalyzerName;
  /** The clock for "open now" (default: the real time). */
  now?: () => Date;
  /** A top hit must meet at least this share of the question's own need (weights) to be "good". */
  floor?: number;
}

interface Built {
  version: number;
  entries: Map<string, CatalogEntry>;
  /** The entries by document number in the index. */
  byDoc: CatalogEntry[];
  index: Bm25Index;
}

function build(source: CatalogRecordSource, analyzer: AnalyzerName): Built {
  const tokenize = tokenizerOf(analyzer);
  const index = new Bm25Index(tokenize, [
    FIELD_BOOST.title,
    FIELD_BOOST.catch,
    FIELD_BOOST.purpose,
    FIELD_BOOST.detail,
  ]);
  const entries = new Map<string, CatalogEntry>();
  const version = source.version();
  for (const record of source.list()) {
    if (!record?.id || entries.has(record.id)) continue;
    const entry = toEntry(record);
    entries.set(entry.id, entry);
  }
  const byDoc = [...entries.values()];
  index.addAll(byDoc.map((e) => ({ id: e.id, fields: [e.title, e.catch, e.purpose, e.detail] })));
  return { version, entries, byDoc, index };
}

/** Creates a catalog over a record source; the index is built now and rebuilt on change. */
export function createCatalog(source: CatalogRecordSource, options: CatalogOptions = {}): Catalog {
  const analyzer = options.analyzer ?? "bigram";
  const now = options.now ?? (() => new Date());
  const floor = options.floor ?? 0.45;
  let built = build(source, analyzer);
  const current = (): Built => {
    if (source.version() !== built.version) built = build(source, analyzer);
    return built;
  };

  function find(query: string, filters: CatalogFilters = {}, limit = 10): FindResult {
    const { byDoc, index } = current();
    const at = filters.openOn ?? now().getTime();
    const concepts = analyseQuery(query);
    const allowed = new Uint8Array(byDoc.length);
    for (let d = 0; d < byDoc.length; d++) if (passes(byDoc[d]!, filters, at)) allowed[d] = 1;
    const sectors = questionSectors(fold(query));
    const fitShare = (d: number) => (outOfSector(byDoc[d]!.sectors, sectors) ? OTHER_SECTOR : 1);
    const ranked = rank(
      index,
      (d, titleOnly) => (titleOnly ? fold(byDoc[d]!.title) : byDoc[d]!.text),
      tokenizerOf(analyzer),
      concepts,
      allowed,
      fitShare,
    ).map(({ doc, ...s }) => ({ ...s, entry: byDoc[doc]! }));
    const groups = groupHits(ranked);
    // The best of the first few that meets the question itself: a record that only scores high on a
    // word of its title (「ＩＴ関連企業誘致」 for IT導入) does not hide a real fit just below it.
    const best = groups.slice(0, LEAD_WINDOW).find((g) => g.coverage >= floor && g.strong);
    const match = groups.length === 0 ? "none" : best ? "good" : "weak";
    // A fitting hit meets enough of the question itself and is not far below the best one.
    const fits = (h: RankedHit) =>
      best !== undefined && h.coverage >= floor * FIT_SHARE && h.score >= best.score * SCORE_SHARE;
    const fitting = groups.filter(fits).length;
    const hits = groups.slice(0, limit).map((h) => ({ ...h, fits: fits(h) }));
    return { hits, total: groups.length, fitting, match, concepts };
  }

  return {
    find,
    get: (id) => current().entries.get(id),
    get size() {
      return current().entries.size;
    },
    source,
  };
}

/**
 * Scores every allowed record: per need, the best of its alternatives (BM25 averaged over the
 * alternative's tokens, times the alternative's weight); records sum their needs' scores.
 */
function rank(
  index: Bm25Index,
  textOf: (doc: number, titleOnly: boolean) => string,
  tokenize: (text: string) => string[],
  concepts: Concept[],
  allowed: Uint8Array,
  fitShare: (doc: number) => number,
): Array<{ doc: number; score: number; coverage: number; strong: boolean; matched: Concept[] }> {
  const altScores = new Map<string, { docs: Int32Array; scores: Float64Array }>();
  const query = queryTokens(tokenize);
  const scoresOf = (text: string) => {
    let found = altScores.get(text);
    if (found) return found;
    const tokens = query(text);
    found = index.search(tokens, allowed);
    const n = Math.max(1, new Set(tokens).size);
    for (let c = 0; c < found.scores.length; c++) found.scores[c]! /= n;
    altScores.set(text, found);
    return found;
  };
  // How telling a need is (BM25 idf of its first word over every record): 「電子カルテ」 says more than
  // 「システム」, so meeting it counts for more when judging whether a record fits the question.
  const total = index.documentCount;
  const specs = new Map<Concept, number>();
  const spec = (need: Concept): number => {
    let value = specs.get(need);
    if (value === undefined) {
      const text = need.alternatives[0]?.text ?? need.from;
      const df = index.documentFrequency(query(text));
      value = Math.log(1 + (total - df + 0.5) / (df + 0.5));
      specs.set(need, value);
    }
    return value;
  };
  // Per document number: its summed score, its share of the question's own need, the needs it meets.
  const score = new Float64Array(total);
  const own = new Float64Array(total);
  // Whether one of the question's own needs is met by its word, or a close equivalent (not a loose synonym).
  const strong = new Uint8Array(total);
  const matched = new Map<number, Concept[]>();
  // Per need, each document's best alternative: its value and how literally it meets the need.
  const bestValue = new Float64Array(total);
  const bestCover = new Float64Array(total);
  const seenIn = new Int32Array(total);
  concepts.forEach((need, k) => {
    const inNeed: number[] = [];
    for (const alt of need.alternatives) {
      const { docs, scores } = scoresOf(alt.text);
      for (let c = 0; c < docs.length; c++) {
        const d = docs[c]!;
        if (seenIn[d] !== k + 1) {
          seenIn[d] = k + 1;
          bestValue[d] = 0;
          bestCover[d] = 0;
          inNeed.push(d);
        }
        bestValue[d] = Math.max(bestValue[d]!, scores[c]! * alt.weight);
        // Its tokens all occur, but does the word itself? (「IT導入」 is not met by "IT" here and 導入 there.)
        // A programme the user named is met by that programme, not by another one that mentions it.
        const literal = textOf(d, need.named === true).includes(alt.text);
        bestCover[d] = Math.max(bestCover[d]!, literal ? alt.cover : alt.cover * 0.3);
      }
    }
    for (const d of inNeed) {
      score[d]! += bestValue[d]! * need.weight;
      if (need.own) own[d]! += need.weight * bestCover[d]! * spec(need);
      if (need.own && bestCover[d]! >= STRONG_COVER) strong[d] = 1;
      const needs = matched.get(d);
      if (needs) needs.push(need);
      else matched.set(d, [need]);
    }
  });
  const ownTotal = concepts.filter((c) => c.own).reduce((sum, c) => sum + c.weight * spec(c), 0);
  return [...matched.entries()]
    .map(([doc, needs]) => {
      const share = fitShare(doc);
      const coverage = (ownTotal > 0 ? own[doc]! / ownTotal : 0) * share;
      // A record that meets the point of the question ranks above one that only scores on its edges, and
      // one anyone can use above one for another sector.
      return {
        doc,
        score: score[doc]! * share * (COVERAGE_BASE + (1 - COVERAGE_BASE) * coverage),
        coverage,
        strong: strong[doc] === 1,
        matched: needs,
      };
    })
    .sort((a, b) => b.score - a.score);
}

/** The query side of the tokenizer: one-character pieces are dropped when the word has longer ones. */
function queryTokens(tokenize: (text: string) => string[]): (text: string) => string[] {
  return (text) => {
    const tokens = tokenize(text);
    const long = tokens.filter((t) => [...t].length >= 2);
    return long.length > 0 ? long : tokens;
  };
}

/** When nothing clearly fits, at most this many nearest hits are shown (labelled as such). */
export const NEAREST_SHOWN = 3;

/** The hits a search answer shows: those that fit, or the nearest few when none does. */
export function shownHits(result: FindResult, limit: number): RankedHit[] {
  return result.match === "good"
    ? result.hits.filter((h) => h.fits).slice(0, limit)
    : result.hits.slice(0, Math.min(NEAREST_SHOWN, limit));
}

/** The words of a hit to show (「電子カルテ」に一致): the user's own words it matched, most telling first. */
export function matchedWords(matched: Concept[]): string[] {
  const own = matched.filter((c) => c.own).map((c) => c.from);
  const rest = matched.filter((c) => !c.own).map((c) => c.from);
  return [...new Set([...own, ...rest].map(fold))].slice(0, 4);
}
