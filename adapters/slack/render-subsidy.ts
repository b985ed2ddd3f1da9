/**
 * One subsidy as a Block Kit section (pure): the title linked to jGrants, the summary line, and the
 * fields users act on. Every value comes from the structured Subsidy, never from LLM prose.
 */
import type { types } from "@slack/bolt";
import { areaLabel, matchedLabel, otherRoundsLabel, statusLabel } from "../../src/subsidies/present.ts";
import type { Subsidy } from "../../src/types.ts";
import { SLACK_LIMITS } from "./limits.ts";
import { escapeMrkdwn, mrkdwnLink } from "./mrkdwn.ts";

/** Prefix of the "詳細" buttons' action ids; the suffix is the subsidy's position in the reply. */
export const DETAIL_ACTION_PREFIX = "subsidy_detail_";

/** Shortens text to max characters with a visible ellipsis (never silently). */
export function clipText(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, Math.max(0, max - 1))}…`;
}

/** "2026/12/17(木)・あと18日", "…・本日締切", "…・受付終了"; "不明" without a deadline. */
export function deadlineText(subsidy: Subsidy): string {
  if (!subsidy.end) return "不明";
  const date = subsidy.end.jst.split(" ")[0] ?? subsidy.end.jst;
  if (subsidy.status === "受付終了") return `${date}・受付終了`;
  if (subsidy.daysLeft === 0) return `${date}・本日締切`;
  if (subsidy.daysLeft !== null) return `${date}・あと${subsidy.daysLeft}日`;
  return date;
}

// verbatim: data text is shown as the source has it, and a URL or domain in it is not made a link.
export const field = (label: string, value: string | null): types.MrkdwnElement => ({
  type: "mrkdwn",
  text: clipText(`*${label}*\n${escapeMrkdwn(value?.trim() ? value : "—")}`, SLACK_LIMITS.fieldText),
  verbatim: true,
});

/** The button value: "<n>|<id>", parsed back by parseDetailValue. */
export function detailValue(n: number, id: string): string {
  return clipText(`${n}|${id}`, SLACK_LIMITS.buttonValue);
}

/** Reads a detail button's value; null when it is not ours. */
export function parseDetailValue(value: unknown): { n: number; id: string } | null {
  if (typeof value !== "string") return null;
  const match = /^(\d{1,3})\|(.{1,200})$/.exec(value);
  if (!match) return null;
  return { n: Number(match[1]), id: match[2] ?? "" };
}

/** The six fields of every card: amount, rate, deadline, status (dated on the first card), area, size. */
export function factFields(subsidy: Subsidy, dated: boolean): types.MrkdwnElement[] {
  return [
    field("上限額", subsidy.maxAmountText),
    field("補助率", subsidy.rate ?? "公募要領を確認"),
    field("締切", deadlineText(subsidy)),
    field("受付状況", statusLabel(subsidy, dated)),
    field("対象地域", areaLabel(subsidy, "—")),
    field("従業員規模", subsidy.employees),
  ];
}

/** The linked title, and the line of matched words and grouped rounds when the search gave them. */
export function titleText(subsidy: Subsidy, n: number): string {
  const title = `*${n > 0 ? `${n}. ` : ""}${mrkdwnLink(subsidy.url, clipText(subsidy.title, 300))}*`;
  const match = [matchedLabel(subsidy), otherRoundsLabel(subsidy)].filter(Boolean).join("・");
  return match ? `${title}\n_${escapeMrkdwn(match)}_` : title;
}

/** The section of the n-th subsidy (1-based), with an optional "詳細" button. */
export function subsidySection(
  subsidy: Subsidy,
  n: number,
  buttons: boolean,
  dated = false,
): types.SectionBlock {
  // Title and summary are clipped separately so the link markup is never cut in half.
  const summary = subsidy.summary.trim() ? `\n${escapeMrkdwn(clipText(subsidy.summary.trim(), 2000))}` : "";
  const section: types.SectionBlock = {
    type: "section",
    text: {
      type: "mrkdwn",
      text: clipText(`${titleText(subsidy, n)}${summary}`, SLACK_LIMITS.sectionText),
      verbatim: true,
    },
    fields: factFields(subsidy, dated),
  };
  if (buttons) {
    section.accessory = {
      type: "button",
      text: { type: "plain_text", text: "詳しく聞く", emoji: true },
      action_id: `${DETAIL_ACTION_PREFIX}${n}`,
      value: detailValue(n, subsidy.id),
    };
  }
  return section;
}
