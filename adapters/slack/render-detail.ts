/**
 * A details answer in Block Kit (pure): the subsidy's title and fuller summary, the card's facts, the
 * fields only a details answer has (受付開始, 事業終了期限, 対象業種, 利用目的, 実施機関, 複数回申請), the
 * attachments by name, and a button to the portal page. No number, no "詳しく聞く": it is the details.
 */
import type { types } from "@slack/bolt";
import { attachmentLines, detailRows } from "../../src/subsidies/present.ts";
import type { Subsidy } from "../../src/types.ts";
import { SLACK_LIMITS } from "./limits.ts";
import { escapeMrkdwn } from "./mrkdwn.ts";
import { clipText, factFields, field, titleText } from "./render-subsidy.ts";

type Block = types.KnownBlock;

/** The blocks of one subsidy's details; `n` numbers it only when several were asked for (0 = none). */
export function detailBlocks(subsidy: Subsidy, n: number, dated: boolean): Block[] {
  const summary = subsidy.summary.trim() ? `\n${escapeMrkdwn(subsidy.summary.trim())}` : "";
  const blocks: Block[] = [
    {
      type: "section",
      text: {
        type: "mrkdwn",
        text: clipText(`${titleText(subsidy, n)}${summary}`, SLACK_LIMITS.sectionText),
      },
    },
    { type: "section", fields: factFields(subsidy, dated) },
  ];
  const rows = detailRows(subsidy).filter((r) => r.label !== "従業員規模");
  if (rows.length > 0) {
    blocks.push({
      type: "section",
      fields: rows.slice(0, SLACK_LIMITS.maxFields).map((r) => field(r.label, r.value)),
    });
  }
  const files = attachmentLines(subsidy);
  if (files.length > 0) {
    const list = files.map((f) => `• ${escapeMrkdwn(f)}`).join("\n");
    blocks.push({
      type: "section",
      text: { type: "mrkdwn", text: clipText(`*添付資料*\n${list}`, SLACK_LIMITS.sectionText) },
    });
  }
  if (/^https:\/\//.test(subsidy.url)) {
    blocks.push({
      type: "actions",
      elements: [
        {
          type: "button",
          text: { type: "plain_text", text: "Jグランツで見る（申請・公募要領）", emoji: true },
          url: subsidy.url,
          action_id: `portal_${clipText(subsidy.id, 200)}`,
        },
      ],
    });
  }
  return blocks;
}
