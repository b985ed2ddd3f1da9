/** Gathers subsidies from tool results across rounds: search hits in order, details merged in. */

import { NEAREST_SHOWN } from "../catalog/catalog.ts";
import { rerank } from "../catalog/rerank.ts";
import type { PlanFocus } from "../planner/planner.ts";
import { mergeSubsidy, readDetailResult, readSearchResult } from "../subsidies/index.ts";
import type { DataSource, MatchQuality, SearchConditions, Subsidy, ToolResult } from "../types.ts";

export const SEARCH_TOOL = "search_subsidies";
/** The ranked search (our server's additive tool): its hits arrive best first and carry the fit. */
export const FIND_TOOL = "find_subsidies";
export const DETAIL_TOOL = "get_subsidy_detail";
/** Either search tool. */
export const isSearchTool = (tool: string) => tool === SEARCH_TOOL || tool === FIND_TOOL;

/** The running state of what a turn found. */
export class Collected {
  private readonly byId = new Map<string, Subsidy>();
  private readonly order: string[] = [];
  /** The largest total reported by one search (searches overlap, so they are not summed). */
  private maxTotal = 0;
  source: DataSource | null = null;
  /** The fit the ranked search reported (the best over this turn's ranked searches), when one ran. */
  match: MatchQuality | null = null;
  /** Rank of each ranked hit (0 = best), so a ranked order survives merging with other results. */
  private readonly rankOf = new Map<string, number>();

  /** Adds one tool result; returns how many hits it had (search) or 1 for a detail, 0 otherwise. */
  add(result: ToolResult, now: Date): number {
    if (result.isError || result.data === undefined) return 0;
    if (isSearchTool(result.call.tool)) {
      const read = readSearchResult(result.data, now);
      if (!read) return 0;
      this.source = read.source ?? this.source;
      this.maxTotal = Math.max(this.maxTotal, read.totalCount);
      if (result.call.tool === FIND_TOOL) {
        const match = (result.data as { match?: unknown }).match;
        if (match === "good" || match === "weak" || match === "none") this.noteMatch(match);
        read.subsidies.forEach((s, i) => {
          if (!this.rankOf.has(s.id)) this.rankOf.set(s.id, this.rankOf.size + i);
        });
      }
      for (const subsidy of read.subsidies) this.put(subsidy);
      return read.totalCount;
    }
    if (result.call.tool === DETAIL_TOOL) {
      const detail = readDetailResult(result.data, now);
      if (!detail) return 0;
      this.source = this.source ?? detail.source;
      this.put(detail);
      return 1;
    }
    return 0;
  }

  private put(subsidy: Subsidy): void {
    const existing = this.byId.get(subsidy.id);
    if (!existing) {
      this.byId.set(subsidy.id, subsidy);
      this.order.push(subsidy.id);
      return;
    }
    if (subsidy.detailed && !existing.detailed) this.byId.set(subsidy.id, mergeSubsidy(existing, subsidy));
  }

  private noteMatch(match: MatchQuality): void {
    const order: MatchQuality[] = ["none", "weak", "good"];
    if (!this.match || order.indexOf(match) > order.indexOf(this.match)) this.match = match;
  }

  /**
   * Ranks literal-search hits in-process with the catalog's scorer (a server without find_subsidies):
   * only those that fit stay (or the three nearest), best first, each with the words it matched.
   */
  rerankLiteral(question: string, now: Date): void {
    if (this.rankOf.size > 0 || this.order.length === 0) return;
    const ranked = rerank(this.all(), question, now);
    // The question's words meet none of them: no judgement is possible, so the planner's search stands.
    if (ranked.match === "none") return;
    this.match = ranked.match;
    const keep = new Set(ranked.ids);
    this.order.splice(0, this.order.length, ...ranked.ids);
    for (const id of [...this.byId.keys()]) if (!keep.has(id)) this.byId.delete(id);
    this.maxTotal = ranked.ids.length;
    ranked.ids.forEach((id, i) => {
      this.rankOf.set(id, i);
      const s = this.byId.get(id)!;
      const matched = ranked.matched.get(id) ?? [];
      const rounds = ranked.rounds.get(id) ?? [];
      this.byId.set(id, {
        ...s,
        ...(matched.length > 0 ? { matchedTerms: matched } : {}),
        ...(rounds.length > 0 ? { otherRounds: rounds } : {}),
      });
    });
  }

  /** The rank a ranked search gave a subsidy (0 = best), or undefined for literal hits. */
  rank(id: string): number | undefined {
    return this.rankOf.get(id);
  }

  /** Every subsidy found, in first-seen order. */
  all(): Subsidy[] {
    return this.order.map((id) => this.byId.get(id)!);
  }

  get(id: string): Subsidy | undefined {
    return this.byId.get(id);
  }

  get size(): number {
    return this.order.length;
  }

  /** Total matches: at least the distinct hits seen, and at least the largest single total. */
  get totalCount(): number {
    return Math.max(this.order.length, this.maxTotal);
  }
}

const STATUS_RANK: Record<Subsidy["status"], number> = { 受付中: 0, 受付前: 1, 不明: 2, 受付終了: 3 };

/** Orders merged hits like the API's default: open first, then by deadline (ascending), unknown last. */
export function sortSubsidies(
  subsidies: Subsidy[],
  sort: SearchConditions["sort"] = "acceptance_end_datetime",
  order: SearchConditions["order"] = "ASC",
  relevance: (s: Subsidy) => number = () => 0,
): Subsidy[] {
  const keyOf = (s: Subsidy): string | undefined =>
    sort === "acceptance_start_datetime" ? s.start?.iso : sort === "created_date" ? undefined : s.end?.iso;
  const direction = order === "DESC" ? -1 : 1;
  return subsidies
    .map((s, index) => ({ s, index }))
    .sort((a, b) => {
      const rank = STATUS_RANK[a.s.status] - STATUS_RANK[b.s.status];
      if (rank !== 0) return rank;
      const relevant = relevance(b.s) - relevance(a.s);
      if (relevant !== 0) return relevant;
      const ka = keyOf(a.s);
      const kb = keyOf(b.s);
      if (ka && kb && ka !== kb) return (ka < kb ? -1 : 1) * direction;
      if (ka && !kb) return -1;
      if (!ka && kb) return 1;
      return a.index - b.index;
    })
    .map(({ s }) => s);
}

/** How many subsidies a search answer shows: n, at most three nearest ones when the fit is weak. */
export function shownLimit(collected: Collected, n: number): number {
  return collected.match === "weak" ? Math.min(n, NEAREST_SHOWN) : n;
}

/**
 * The subsidies a turn shows, in order: the ids a follow-up asked about, or the top `n` hits sorted as
 * asked and kept by `keep` (e.g. a "今月締切" deadline window). Details are fetched for exactly these.
 */
export function selectShown(
  collected: Collected,
  focus: PlanFocus,
  conditions: SearchConditions | null,
  n: number,
  keep: (s: Subsidy) => boolean = () => true,
): Subsidy[] {
  if (focus.kind === "detail") return focus.ids.map((id) => collected.get(id)).filter((s) => s !== undefined);
  if (focus.kind === "search" && focus.exclude?.length) {
    const shownBefore = new Set(focus.exclude);
    const wanted = keep;
    keep = (s) => !shownBefore.has(s.id) && wanted(s);
  }
  const sort = focus.kind === "resort" ? focus.sort : conditions?.sort;
  const order = focus.kind === "resort" ? focus.order : conditions?.order;
  // Unless the user asked for an order: a ranked search's order, else what matches more searched words.
  const ranked = collected.all().some((s) => collected.rank(s.id) !== undefined);
  const relevance = sort
    ? undefined
    : ranked
      ? (s: Subsidy) => -(collected.rank(s.id) ?? Number.MAX_SAFE_INTEGER)
      : relevanceTo(conditions?.keywords ?? []);
  return sortSubsidies(collected.all().filter(keep), sort, order, relevance).slice(0, Math.max(n, 1));
}

/**
 * How well a subsidy matches the searched words: a word in the title counts 2, in the summary 1, and the
 * question's own words (listed first) weigh more than the broader ones added after them.
 */
function relevanceTo(keywords: string[]): (s: Subsidy) => number {
  const words = keywords.map((k) => k.normalize("NFKC").toLowerCase()).filter((k) => k.length >= 2);
  return (s) => {
    const title = s.title.normalize("NFKC").toLowerCase();
    const summary = s.summary.normalize("NFKC").toLowerCase();
    return words.reduce(
      (score, w, i) => score + (title.includes(w) ? 2 : summary.includes(w) ? 1 : 0) * (words.length - i),
      0,
    );
  };
}
