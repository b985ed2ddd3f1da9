/**
 * Which tools a planning request offers. Declarations are most of a planning prompt, so the planner gets
 * the tools that can serve the question: the search and detail tools always, the overview and the time
 * tools only when the question asks for them, and — after searches that found nothing — the search tools
 * alone (details are fetched by the agent itself). Kinds are told apart by name, so a new search tool
 * (e.g. a ranked `find_subsidies`) is picked up without a change here.
 */
import type { ToolInfo } from "../types.ts";
import type { PlanInput } from "./planner.ts";

export type ToolKind = "search" | "detail" | "overview" | "time" | "fetch" | "other";

/** The kind of a tool, from its server and name. */
export function toolKind(tool: Pick<ToolInfo, "server" | "name">): ToolKind {
  const name = tool.name.toLowerCase();
  if (/(^|_)(search|find)(_|$)/.test(name)) return "search";
  if (/(^|_)detail(_|$)/.test(name)) return "detail";
  if (/(^|_)(overview|stats|statistics)(_|$)/.test(name)) return "overview";
  if (tool.server === "time") return "time";
  if (tool.server === "fetch" || name === "fetch") return "fetch";
  return "other";
}

/** Questions about overall numbers or the current state of subsidies as a whole. */
const WANTS_OVERVIEW = /概況|概要を|全体|統計|傾向|集計|何件|件数|どのくらいあ|最新状況|overview/i;
/** Questions about the date or time itself (the prompt already states today's date for deadlines). */
const WANTS_TIME = /何日|何曜|曜日|日付|何時|時刻|年度は|何年度|あと何日|日数|days?\b|time\b|date\b/i;
const HAS_URL = /https?:\/\//i;

/** The tools one planning request offers (see the file comment). */
export function offeredTools(input: PlanInput): ToolInfo[] {
  const calls = input.rounds.flatMap((r) => r.calls);
  const onlyEmptySearches =
    calls.length > 0 &&
    calls.every(
      (c) =>
        toolKind({ server: c.call.server, name: c.call.tool }) === "search" &&
        (c.isError || c.hitCount === 0),
    );
  const question = input.question;
  // With the ranked tool, the literal search is never the better choice: offer one search, not two.
  const ranked = input.tools.some((t) => t.name === "find_subsidies");
  return input.tools.filter((tool) => {
    if (ranked && tool.name === "search_subsidies") return false;
    const kind = toolKind(tool);
    if (onlyEmptySearches) return kind === "search";
    if (kind === "overview") return WANTS_OVERVIEW.test(question);
    if (kind === "time") return WANTS_TIME.test(question);
    if (kind === "fetch") return HAS_URL.test(question);
    return true;
  });
}
