/**
 * The offline planner's broadening ladder: the question's own search first, then the same words with
 * filters dropped one by one (the area last), synonyms and broader terms, then shorter words. Each rung is a set
 * of searches (one per keyword); the planner runs the first rung whose calls were not all made yet.
 */

import { neighboursOf } from "../catalog/domain-terms.ts";
import type { SearchConditions, ToolCall } from "../types.ts";
import { shorterWordsOf } from "./keywords.ts";

export interface Rung {
  conditions: SearchConditions;
  /** Why this rung exists, in Japanese (the first rung has none). */
  why: string | null;
}

export const MAX_KEYWORDS = 3;

const FILTER_LABELS: Array<[keyof SearchConditions, string]> = [
  ["purpose", "利用目的"],
  ["industry", "業種"],
  ["employees", "従業員規模"],
  ["area", "地域"],
];

/** Takes items round-robin from each list ("IT導入"'s first neighbour, then "創業"'s, …), unique. */
function interleave(lists: string[][], exclude: Set<string>, max: number): string[] {
  const out: string[] = [];
  for (let i = 0; out.length < max && lists.some((l) => i < l.length); i++) {
    for (const l of lists) {
      const w = l[i];
      if (w && !exclude.has(w) && !out.includes(w) && out.length < max) out.push(w);
    }
  }
  return out;
}

/**
 * Every rung for a search, in the order they are tried. The area goes last of the filters, and only after
 * the synonyms were tried inside it: a Tokyo business asking about IT is better served by "DX in Tokyo"
 * than by "IT anywhere".
 */
export function ladderOf(base: SearchConditions): Rung[] {
  const rungs: Rung[] = [{ conditions: base, why: null }];
  let current: SearchConditions = base;
  for (const [key, label] of FILTER_LABELS) {
    if (current[key] === undefined || key === "area") continue;
    const { [key]: _dropped, ...rest } = current;
    current = rest as SearchConditions;
    rungs.push({ conditions: current, why: `0件のため条件「${label}」を外して再検索` });
  }
  const tried = new Set(base.keywords);
  const neighbours = interleave(base.keywords.map(neighboursOf), tried, MAX_KEYWORDS);
  const plain: SearchConditions = {
    keywords: [],
    ...(base.sort ? { sort: base.sort, order: base.order } : {}),
  };
  const why = `0件のため類義語・上位語「${neighbours.join("・")}」で再検索`;
  if (neighbours.length > 0 && base.area) {
    rungs.push({ conditions: { ...plain, keywords: neighbours, area: base.area }, why });
  }
  if (current.area !== undefined) {
    const { area: _dropped, ...rest } = current;
    current = rest as SearchConditions;
    rungs.push({ conditions: current, why: "0件のため条件「地域」を外して再検索" });
  }
  if (neighbours.length > 0) {
    rungs.push({ conditions: { ...plain, keywords: neighbours }, why });
    for (const n of neighbours) tried.add(n);
  }
  const shorter = interleave(base.keywords.map(shorterWordsOf), tried, MAX_KEYWORDS);
  if (shorter.length > 0) {
    rungs.push({
      conditions: { ...plain, keywords: shorter },
      why: `0件のため短い語「${shorter.join("・")}」で再検索`,
    });
  }
  return rungs;
}

/** The arguments of one search_subsidies call (official parameter names; defaults left to the server). */
export function searchArgs(keyword: string, c: SearchConditions): Record<string, unknown> {
  const args: Record<string, unknown> = { keyword };
  // The API matches areas literally, so nationwide subsidies (which a local business can use too) are
  // only found when 全国 is asked for alongside the prefecture.
  if (c.area) args.target_area_search = c.area.includes("全国") ? c.area : `${c.area} / 全国`;
  if (c.employees) args.target_number_of_employees = c.employees;
  if (c.industry) args.industry = c.industry;
  if (c.purpose) args.use_purpose = c.purpose;
  if (c.sort) args.sort = c.sort;
  if (c.order) args.order = c.order;
  if (c.acceptance === "0") args.acceptance = 0;
  return args;
}

/** SearchConditions back from the calls that ran (for the history of a finished turn). */
export function conditionsFromCalls(calls: ToolCall[], base: SearchConditions): SearchConditions {
  const first = calls[0]?.args ?? {};
  const str = (v: unknown) => (typeof v === "string" && v !== "" ? v : undefined);
  const out: SearchConditions = {
    keywords: calls.map((c) => str(c.args.keyword)).filter((k): k is string => Boolean(k)),
    acceptance: base.acceptance ?? "1",
  };
  const area = str(first.target_area_search)?.replace(/ \/ 全国$/, "");
  if (area) out.area = area;
  const employees = str(first.target_number_of_employees);
  if (employees) out.employees = employees;
  const industry = str(first.industry);
  if (industry) out.industry = industry;
  const purpose = str(first.use_purpose);
  if (purpose) out.purpose = purpose;
  if (base.sort) out.sort = base.sort;
  if (base.order) out.order = base.order;
  return out;
}

/** A stable key of a call, for "never repeat a call already made". */
export function callKey(call: Pick<ToolCall, "server" | "tool" | "args">): string {
  const sorted = Object.keys(call.args)
    .sort()
    .map((k) => [k, call.args[k]]);
  return `${call.server}/${call.tool}/${JSON.stringify(sorted)}`;
}
