/** The subsidy domain: one place that reads jGrants results and owns the formatting rules. */
export {
  AMOUNT_UNSET,
  dateOnlyDisplay,
  daysLeft,
  formatAmount,
  jstDateText,
  jstDayKey,
  parseApiDate,
  portalUrl,
  statusOf,
  toJstDisplay,
} from "./format.ts";
export { mergeSubsidy, subsidyFromDetail, subsidyFromListItem } from "./normalise.ts";
export { readConditions, readDataSource, readDetailResult, readSearchResult } from "./results.ts";
export { SUMMARY_MAX_CHARS, sanitiseForPlanner, summariseCall } from "./summarise.ts";
export { clip, collapseWhitespace, htmlToText, summaryOf, tightenCjk } from "./text.ts";
