/**
 * The offline planner's ranked search: one find_subsidies call that carries the user's need as `query`
 * (the question's content) and plain filters read from the question and the thread (area, city, head
 * count, industry, deadline window). The server ranks, applies the 全国 rule and judges the fit.
 */
import { areaFilter, findArea, findCity } from "../catalog/areas.ts";
import { analyseQuery } from "../catalog/query.ts";
import { asWritten } from "../catalog/text.ts";
import type { SearchConditions, ToolCall } from "../types.ts";
import { deadlineWindow, employeeCount, type QuestionFilters } from "./filters.ts";

export const FIND_TOOL = "find_subsidies";

/** JST day (YYYY-MM-DD) of an instant. */
const jstDay = (d: Date) => new Date(d.getTime() + 9 * 3_600_000).toISOString().slice(0, 10);

/** The conditions of a new ranked search read from the question. */
export function findConditions(question: string, filters: QuestionFilters): SearchConditions {
  const own = analyseQuery(question).filter((c) => c.own);
  const city = findCity(question) ?? undefined;
  const place = areaFilter(findArea(question).area ?? undefined, city);
  const count = employeeCount(question);
  const c: SearchConditions = {
    keywords: own.map((n) => asWritten(n.from, question)).slice(0, 4),
    query: question.trim(),
    acceptance: filters.acceptance ?? "1",
  };
  if (place.area) c.area = place.area;
  if (place.city) c.city = place.city;
  if (count !== undefined) c.employees = `${count}名`;
  if (filters.industry) c.industry = filters.industry;
  if (filters.sort) Object.assign(c, { sort: filters.sort, order: filters.order ?? "ASC" });
  return c;
}

/** The find_subsidies call for conditions (the deadline window of `question`, judged at `now`). */
export function findCall(
  server: string,
  c: SearchConditions,
  question: string,
  now: Date,
  limit: number,
): ToolCall {
  const args: Record<string, unknown> = { query: c.query ?? c.keywords.join(" "), limit };
  if (c.area) args.area = c.area;
  if (c.city) args.city = c.city;
  const count = c.employees ? /(\d+)/.exec(c.employees)?.[1] : undefined;
  if (count) args.employees = Number(count);
  if (c.industry) args.industry = c.industry;
  if (c.acceptance === "0") args.include_closed = true;
  const window = deadlineWindow(question, now);
  if (window) args.closes_by = jstDay(window.to);
  const words = c.keywords.length > 0 ? c.keywords.map((k) => `「${k}」`).join("") : "ご質問の内容";
  return { server, tool: FIND_TOOL, args, reason: `${words}に合う補助金をランキング検索` };
}
