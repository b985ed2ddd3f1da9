/**
 * Reply → Slack messages (pure). A summary of the conditions and data date, the LLM's explanation as
 * mrkdwn, one section per subsidy, and a footer naming the source. Long replies are split into several
 * messages that each stay inside Slack's limits; nothing is dropped silently.
 */
import type { types } from "@slack/bolt";
import { proseBesideCards, splitNextSteps } from "../../src/answer/template-prose.ts";
import { notesBesideCards } from "../../src/subsidies/present.ts";
import type { Reply, SearchConditions } from "../../src/types.ts";
import { SLACK_LIMITS, type SlackMessage } from "./limits.ts";
import { escapeMrkdwn, markdownToMrkdwn, markdownToPlain } from "./mrkdwn.ts";
import { detailBlocks } from "./render-detail.ts";
import { clipText, subsidySection } from "./render-subsidy.ts";

export type { SlackMessage } from "./limits.ts";

export interface RenderOptions {
  /** Add a "詳しく聞く" button to each subsidy (default true). */
  buttons?: boolean;
}

type Block = types.KnownBlock;

/** The conditions as users read them: 「IT導入」「DX」／東京都／受付中のみ. */
export function conditionsText(conditions: SearchConditions | null): string {
  if (!conditions) return "";
  const parts = [
    conditions.keywords.map((k) => `「${k}」`).join(""),
    conditions.area,
    conditions.industry,
    conditions.employees,
    conditions.purpose,
    conditions.acceptance === "1" ? "受付中のみ" : undefined,
  ].filter((p): p is string => typeof p === "string" && p.trim() !== "");
  return parts.join("／");
}

/** Splits mrkdwn into section-sized pieces at paragraph, then line, then character boundaries. */
export function splitForSections(text: string, max: number = SLACK_LIMITS.sectionText): string[] {
  const pieces: string[] = [];
  let current = "";
  const push = () => {
    if (current.trim()) pieces.push(current);
    current = "";
  };
  for (const line of text.split("\n")) {
    if (line.length > max) {
      push();
      for (let i = 0; i < line.length; i += max) pieces.push(line.slice(i, i + max));
      continue;
    }
    const next = current ? `${current}\n${line}` : line;
    if (next.length > max) {
      push();
      current = line;
    } else current = next;
  }
  push();
  return pieces;
}

const section = (text: string): types.SectionBlock => ({ type: "section", text: { type: "mrkdwn", text } });

const context = (text: string): types.ContextBlock => ({
  type: "context",
  elements: [{ type: "mrkdwn", text: clipText(text, SLACK_LIMITS.contextText) }],
});

/** Said above the cards when nothing clearly fits and only the nearest subsidies are shown. */
export const WEAK_MATCH_TEXT =
  "条件にぴったり合う受付中の補助金は見つかりませんでした。近いものを参考に表示します。";

/** The one line above a list: the conditions and the count (said here only, once). */
function listHeader(reply: Reply): string {
  const conditions = conditionsText(reply.conditions);
  const shown = reply.subsidies.length;
  const count =
    reply.meta.match === "weak"
      ? `:warning: ${WEAK_MATCH_TEXT}`
      : reply.totalCount > shown
        ? `*${reply.totalCount}件*見つかりました（上位${shown}件を表示）`
        : `*${shown}件*見つかりました`;
  return [conditions ? `*検索条件*: ${escapeMrkdwn(conditions)}` : "", count].filter(Boolean).join("\n");
}

function headBlocks(reply: Reply): Block[][] {
  const units: Block[][] = [];
  // A details answer is not a search: no count, no conditions repeated from the previous turn. Without
  // cards there is no header either: the prose says what was (not) found.
  if (reply.kind === "answer" && reply.view !== "details" && reply.subsidies.length > 0) {
    units.push([section(clipText(listHeader(reply), SLACK_LIMITS.sectionText))]);
  }
  const prose = proseBesideCards(reply);
  const above = reply.subsidies.length > 0 ? splitNextSteps(prose).above : prose;
  for (const piece of splitForSections(markdownToMrkdwn(above))) units.push([section(piece)]);
  // Notes the answer text already states, and the data date the first card shows, are not repeated.
  const notes = notesBesideCards(reply)
    .filter((n) => !prose.includes(n.trim()))
    .slice(0, 10);
  if (notes.length > 0) units.push([context(notes.map((n) => `ℹ️ ${escapeMrkdwn(n)}`).join("\n"))]);
  return units;
}

function footer(): Block[] {
  return [
    { type: "divider" },
    context("出典: <https://www.jgrants-portal.go.jp/|Jグランツ>｜金額・締切は公募要領で必ずご確認ください"),
  ];
}

/** Prefix of the suggestion buttons' action ids; the value is the question they ask. */
export const SUGGEST_ACTION_PREFIX = "suggest_";

/** What to ask instead, as buttons that send the question in the thread. */
function suggestionBlocks(reply: Reply, buttons: boolean): Block[] {
  const suggestions = (reply.suggestions ?? []).filter((q) => q.trim() !== "").slice(0, 5);
  if (!buttons || suggestions.length === 0) return [];
  return [
    {
      type: "actions",
      elements: suggestions.map((q, i) => ({
        type: "button" as const,
        text: { type: "plain_text" as const, text: clipText(q, SLACK_LIMITS.buttonText), emoji: true },
        action_id: `${SUGGEST_ACTION_PREFIX}${i + 1}`,
        value: clipText(q, 500),
      })),
    },
  ];
}

/** The action id of the 「この条件をウォッチ」 button; its value is the command it sends in the thread. */
export const WATCH_ACTION_ID = "watch_save";
/** The words the watch button stands for (the same as typing them). */
export const WATCH_COMMAND = "この条件をウォッチ";

/** After a list, a button that watches its search. */
function watchBlocks(reply: Reply, buttons: boolean): Block[] {
  if (!buttons || reply.kind !== "answer" || reply.view === "details" || reply.subsidies.length === 0)
    return [];
  return [
    {
      type: "actions",
      elements: [
        {
          type: "button" as const,
          text: { type: "plain_text" as const, text: `🔔 ${WATCH_COMMAND}`, emoji: true },
          action_id: WATCH_ACTION_ID,
          value: WATCH_COMMAND,
        },
      ],
    },
  ];
}

const fits = (blocks: Block[], unit: Block[]): boolean =>
  blocks.length + unit.length <= SLACK_LIMITS.maxBlocks &&
  JSON.stringify(blocks).length + JSON.stringify(unit).length < SLACK_LIMITS.blocksJsonChars;

/** Renders a reply as one or more messages, each within Slack's limits, each with a `text` fallback. */
export function renderReply(reply: Reply, options: RenderOptions = {}): SlackMessage[] {
  const buttons = options.buttons ?? true;
  const units = headBlocks(reply);
  const details = reply.view === "details";
  const numbered = !details || reply.subsidies.length > 1;
  reply.subsidies.forEach((subsidy, i) => {
    const n = numbered ? i + 1 : 0;
    // The snapshot's date is said once, beside the first card's status.
    units.push(
      details
        ? [{ type: "divider" }, ...detailBlocks(subsidy, n, i === 0)]
        : [{ type: "divider" }, subsidySection(subsidy, i + 1, buttons, i === 0)],
    );
  });
  // The next-step tip reads after the cards.
  const below = reply.subsidies.length > 0 ? splitNextSteps(proseBesideCards(reply)).below : "";
  if (below) units.push([{ type: "divider" }, ...splitForSections(markdownToMrkdwn(below)).map(section)]);
  const suggestions = suggestionBlocks(reply, buttons);
  if (suggestions.length > 0) units.push(suggestions);
  const watch = watchBlocks(reply, buttons);
  if (watch.length > 0) units.push(watch);
  if (reply.kind === "answer" && reply.subsidies.length > 0) units.push(footer());
  const groups: Block[][] = [[]];
  for (const unit of units) {
    const current = groups[groups.length - 1] ?? [];
    if (current.length > 0 && !fits(current, unit)) groups.push([...unit]);
    else current.push(...unit);
  }
  const fallback = clipText(markdownToPlain(reply.text).trim() || "補助金の検索結果です。", 3000);
  const messages = groups.filter((g) => g.length > 0);
  if (messages.length === 0) return [{ text: fallback, blocks: [section(escapeMrkdwn(fallback))] }];
  return messages.map((blocks, i) => ({
    text: i === 0 ? fallback : `（続き ${i + 1}/${messages.length}）補助金の検索結果`,
    blocks,
  }));
}

/** A plain message with a single section (status lines, apologies). Text is escaped here. */
export function plainMessage(text: string): SlackMessage {
  const escaped = escapeMrkdwn(text);
  return { text: escaped, blocks: [section(clipText(escaped, SLACK_LIMITS.sectionText))] };
}
