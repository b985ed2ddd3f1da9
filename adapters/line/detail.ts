/**
 * A details answer as one Flex bubble per subsidy: the card's facts, the fields only details have
 * (受付開始, 事業終了期限, 従業員規模, 対象業種, 利用目的, 実施機関, 複数回申請), the attachments by name,
 * the longer 概要 and the portal button. No "詳しく" button: this is the details.
 */
import type { messagingApi } from "@line/bot-sdk";
import { attachmentLines, detailRows } from "../../src/subsidies/present.ts";
import type { Subsidy } from "../../src/types.ts";
import { factRows, jsonBytes, LINE_LIMITS, portalUrl, row } from "./flex.ts";
import { truncate } from "./text.ts";

type FlexBubble = messagingApi.FlexBubble;
type FlexComponent = messagingApi.FlexComponent;

const small = (text: string, color = "#555555"): FlexComponent => ({
  type: "text",
  text,
  size: "xs",
  color,
  wrap: true,
});

/** The details bubble; `compact` halves the long texts when the full one would pass 10 KB. */
function detailBubbleOf(s: Subsidy, dated: boolean, compact: boolean): FlexBubble {
  const short = compact ? 0.5 : 1;
  const files = attachmentLines(s, compact ? 3 : 6);
  const body: FlexComponent[] = [
    { type: "text", text: "詳細", size: "xxs", color: "#1D6FB8", weight: "bold" },
    { type: "text", text: truncate(s.title, 120 * short), weight: "bold", size: "md", wrap: true },
    { type: "separator", margin: "md" },
    ...factRows(s, short, dated),
    ...detailRows(s).map((r) => row(r.label, r.value, 120 * short)),
  ];
  if (files.length > 0) {
    body.push({ type: "separator", margin: "md" }, small("添付資料", "#888888"));
    for (const f of files) body.push(small(`・${truncate(f, 80)}`));
  }
  if (s.summary) {
    body.push({ type: "separator", margin: "md" }, small(truncate(s.summary, 400 * short), "#333333"));
  }
  return {
    type: "bubble",
    size: "mega",
    body: { type: "box", layout: "vertical", spacing: "sm", contents: body },
    footer: {
      type: "box",
      layout: "vertical",
      contents: [
        {
          type: "button",
          style: "primary",
          height: "sm",
          action: { type: "uri", label: "Jグランツで見る（申請・公募要領）", uri: portalUrl(s) },
        },
      ],
    },
  };
}

/** A details bubble within the 10 KB limit. */
export function detailBubble(s: Subsidy, dated: boolean): FlexBubble {
  const full = detailBubbleOf(s, dated, false);
  return jsonBytes(full) <= LINE_LIMITS.bubbleBytes ? full : detailBubbleOf(s, dated, true);
}
