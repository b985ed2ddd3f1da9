/**
 * What to ask instead when nothing clearly fits: a related topic, a wider area, or programmes outside the
 * open window. Each suggestion is a message the planners understand as a follow-up in the same thread.
 */
import { neighboursOf } from "../catalog/domain-terms.ts";
import type { SearchConditions } from "../types.ts";
import { isSearchTool } from "./collect.ts";
import type { LoopOutput } from "./run-turn.ts";

/** Up to three follow-up questions, most useful first. */
export function suggestionsFor(c: SearchConditions | null): string[] {
  const out: string[] = [];
  if (c?.city && c.area) out.push(`${c.area}全体で探す`);
  else if (c?.area && c.area !== "全国") out.push("全国なら？");
  const topic = (c?.keywords ?? []).flatMap(neighboursOf).find((w) => !c?.keywords.includes(w));
  if (topic) out.push(`${c?.city ?? c?.area ?? ""}${c?.city || c?.area ? "で" : ""}${topic}の補助金`);
  if (c?.acceptance !== "0") out.push("受付終了・受付前のものも含めて");
  return out.slice(0, 3);
}

/** True when every search of the turn failed (a server or tool error), as opposed to finding nothing. */
export function searchFailed(loop: LoopOutput): boolean {
  const searches = loop.results.filter((r) => isSearchTool(r.call.tool));
  return searches.length > 0 && searches.every((r) => r.isError) && loop.collected.size === 0;
}
