/**
 * A watch's search: the same find_subsidies call the offline planner makes for the thread's conditions,
 * through the agent's ToolHost. Only fitting hits count ("weak" nearest ones are never news).
 */
import { findCall } from "../planner/rule-find.ts";
import { findJgrantsTools } from "../planner/rule-planner.ts";
import { readSearchResult } from "../subsidies/index.ts";
import type { DataSource, SearchConditions, Subsidy, ToolHost } from "../types.ts";

/** The most hits the ranked search returns in one call. */
const WATCH_SEARCH_LIMIT = 50;

export interface WatchSearchResult {
  subsidies: Subsidy[];
  source: DataSource | null;
}

/** Thrown when the search cannot run (no server, or the tool failed): the run is retried later. */
export class WatchSearchError extends Error {
  override readonly name = "WatchSearchError";
}

/** Runs the ranked search for `conditions` at `now`. */
export async function searchForWatch(
  tools: ToolHost,
  conditions: SearchConditions,
  now: Date,
): Promise<WatchSearchResult> {
  const jg = findJgrantsTools(await tools.listTools());
  if (!jg?.find) throw new WatchSearchError("the ranked search (find_subsidies) is not available");
  // No question: a watch has no deadline window of its own (reminders are judged on days left).
  const call = findCall(jg.server, conditions, "", now, WATCH_SEARCH_LIMIT);
  call.reason = "ウォッチの定期確認";
  const result = await tools.callTool(call);
  if (result.isError) throw new WatchSearchError(result.error ?? "find_subsidies failed");
  const read = readSearchResult(result.data, now);
  if (!read) throw new WatchSearchError("find_subsidies returned no search result");
  const match = (result.data as { match?: unknown }).match;
  const subsidies = match === "good" ? read.subsidies : [];
  return { subsidies, source: read.source ?? null };
}
