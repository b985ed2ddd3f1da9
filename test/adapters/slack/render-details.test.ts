/** Slack blocks of details answers, weak matches, suggestions and the text fallback. */
import { describe, expect, it } from "vitest";
import { checkSlackMessage } from "../../../adapters/slack/limits.ts";
import { renderReply, SUGGEST_ACTION_PREFIX, WEAK_MATCH_TEXT } from "../../../adapters/slack/render.ts";
import { renderTemplateAnswer } from "../../../src/answer/template-answerer.ts";
import type { Reply } from "../../../src/types.ts";
import { sampleReply, sampleSubsidy } from "../../fakes/sample-subsidies.ts";

type Block = {
  type: string;
  text?: { text: string };
  fields?: Array<{ text: string }>;
  accessory?: unknown;
  elements?: Array<{
    type: string;
    text?: { text: string };
    url?: string;
    value?: string;
    action_id?: string;
  }>;
};

const detailed = sampleSubsidy(2, {
  projectEnd: { iso: "2027-02-26T14:59:00.000Z", jst: "2027/02/26(金) 23:59" },
  multipleApplications: true,
  attachments: [
    { kind: "公募要領", name: "R8公募要領.pdf" },
    { kind: "申請様式", name: "様式第1号.docx" },
  ],
});

function detailsReply(over: Partial<Reply> = {}): Reply {
  const subsidies = [detailed];
  return sampleReply(1, {
    subsidies,
    totalCount: 1,
    view: "details",
    text: renderTemplateAnswer({
      question: "2番目の詳細は？",
      subsidies,
      totalCount: 1,
      conditions: { keywords: ["IT導入"], area: "東京都" },
      focus: { kind: "detail", ids: [detailed.id] },
      history: [],
      source: detailed.source,
      notes: [],
      now: new Date("2026-08-22T03:00:00Z"),
    }),
    ...over,
  });
}

const fieldsOf = (blocks: Block[]) =>
  Object.fromEntries(
    blocks
      .flatMap((b) => b.fields ?? [])
      .map((f) => {
        const [label = "", ...value] = f.text.split("\n");
        return [label.replace(/\*/g, ""), value.join("\n")];
      }),
  );

describe("a details answer in Slack blocks", () => {
  it("shows the fuller fields, the attachments by name and the portal link, labelled as details", () => {
    const [message, ...rest] = renderReply(detailsReply());
    expect(rest).toHaveLength(0);
    expect(checkSlackMessage(message!)).toEqual([]);
    const blocks = message!.blocks as unknown as Block[];
    const fields = fieldsOf(blocks);
    expect(fields).toMatchObject({
      上限額: "200万円",
      受付状況: "2026-08-22時点: 受付中",
      受付開始: "2026/10/01(木) 09:00",
      事業終了期限: "2027/02/26(金) 23:59",
      対象業種: "製造業 / 情報通信業",
      利用目的: "設備整備・IT導入をしたい",
      実施機関: "東京都産業労働局",
      複数回申請: "可（複数回の申請ができます）",
    });
    const text = blocks.map((b) => b.text?.text ?? "").join("\n");
    expect(text).toContain("*添付資料*\n• 公募要領: R8公募要領.pdf\n• 申請様式: 様式第1号.docx");
    expect(text).toContain(detailed.summary);
    const link = blocks.flatMap((b) => b.elements ?? []).find((e) => e.url);
    expect(link?.url).toBe(detailed.url);
    // Not a search: no count, no number, no conditions, no "詳しく聞く".
    const json = JSON.stringify(blocks);
    expect(json).not.toMatch(/見つかりました|検索条件|\*1\. |詳しく聞く/);
  });
});

describe("list answers in Slack", () => {
  it("carries each subsidy's URL in the text fallback", () => {
    const reply = sampleReply(3);
    const text = renderTemplateAnswer({
      question: "IT導入",
      subsidies: reply.subsidies,
      totalCount: 10,
      conditions: reply.conditions,
      focus: { kind: "search" },
      history: [],
      source: reply.subsidies[0]!.source,
      notes: [],
      now: new Date("2026-08-22T03:00:00Z"),
    });
    const [message] = renderReply({ ...reply, text });
    for (const s of reply.subsidies) expect(message!.text).toContain(s.url);
  });

  it("labels a weak match as the nearest subsidies and offers the suggestions as buttons", () => {
    const reply = sampleReply(2, {
      meta: { ...sampleReply(2).meta, match: "weak" },
      suggestions: ["東京都の設備投資の補助金", "IT導入補助金"],
    });
    const [message] = renderReply(reply);
    expect(checkSlackMessage(message!)).toEqual([]);
    const blocks = message!.blocks as unknown as Block[];
    expect(blocks[0]?.text?.text).toContain(WEAK_MATCH_TEXT);
    expect(JSON.stringify(blocks)).not.toContain("見つかりました");
    const buttons = blocks.filter((b) => b.type === "actions").flatMap((b) => b.elements ?? []);
    expect(
      buttons.map((b) => [b.text?.text, b.value, b.action_id?.startsWith(SUGGEST_ACTION_PREFIX)]),
    ).toEqual([
      ["東京都の設備投資の補助金", "東京都の設備投資の補助金", true],
      ["IT導入補助金", "IT導入補助金", true],
      // The list's search can be watched all the same.
      ["🔔 この条件をウォッチ", "この条件をウォッチ", false],
    ]);
  });
});

describe("a search that found nothing", () => {
  it("has no count header: the prose says it was not found, once", () => {
    const text =
      "「IT導入」（東京都）に合う補助金は見つかりませんでした。\n別の言葉でもう一度お試しください。";
    const [message] = renderReply(sampleReply(0, { text, totalCount: 0 }));
    const json = JSON.stringify(message!.blocks);
    expect(json).not.toContain("件*見つかりました");
    expect(json.match(/見つかりませんでした/g)).toHaveLength(1);
  });
});
