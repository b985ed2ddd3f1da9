/** LINE messages of details answers, one-result and weak lists: each fact once, details that show. */
import { describe, expect, it } from "vitest";
import { checkLineMessage } from "../../../adapters/line/limits.ts";
import { renderReply, WEAK_MATCH_TEXT } from "../../../adapters/line/render.ts";
import type { AnswerInput } from "../../../src/answer/answerer.ts";
import { renderTemplateAnswer } from "../../../src/answer/template-answerer.ts";
import type { Reply, Subsidy } from "../../../src/types.ts";
import { sampleReply, sampleSubsidy } from "../../fakes/sample-subsidies.ts";
import { type Any, texts } from "./flex-texts.ts";

const SNAPSHOT_NOTE =
  "2026-08-22時点のデータ（オフラインの収録データ）です。最新の情報はJグランツでご確認ください。";

/** A reply whose text is what the template answerer writes for these subsidies. */
function templateReply(
  subsidies: Subsidy[],
  over: Partial<Reply> & { focus?: AnswerInput["focus"] } = {},
): Reply {
  const { focus = { kind: "search" }, ...rest } = over;
  const base = sampleReply(subsidies.length, { subsidies, notes: [SNAPSHOT_NOTE], ...rest });
  const text = renderTemplateAnswer({
    question: "質問",
    subsidies,
    totalCount: base.totalCount,
    conditions: base.conditions,
    focus,
    history: [],
    source: subsidies[0]?.source ?? null,
    notes: base.notes,
    now: new Date("2026-08-22T03:00:00Z"),
  });
  return { ...base, text };
}

describe("LINE: a details answer", () => {
  const subsidy = sampleSubsidy(2, {
    projectEnd: { iso: "2027-02-26T14:59:00.000Z", jst: "2027/02/26(金) 23:59" },
    multipleApplications: false,
    attachments: [{ kind: "公募要領", name: "R8公募要領.pdf" }],
  });
  const reply = templateReply([subsidy], {
    view: "details",
    totalCount: 1,
    focus: { kind: "detail", ids: [subsidy.id] },
  });

  it("shows one details bubble with the fuller fields, the attachments and the portal link", () => {
    const messages: Any[] = renderReply(reply);
    for (const m of messages) expect(checkLineMessage(m)).toEqual([]);
    expect(messages).toHaveLength(2);
    const bubble = messages[1].contents.contents[0];
    // Each row's label and value, the attachment line, the summary, the dated status.
    expect(texts(bubble)).toEqual(
      expect.arrayContaining([
        "受付開始",
        "2026/10/01(木) 09:00",
        "事業終了期限",
        "2027/02/26(金) 23:59",
        "対象業種",
        "製造業 / 情報通信業",
        "利用目的",
        "実施機関",
        "東京都産業労働局",
        "不可（1事業者1回）",
        "・公募要領: R8公募要領.pdf",
        subsidy.summary,
        "2026-08-22時点: 受付中",
      ]),
    );
    const actions = bubble.footer.contents.map((b: Any) => b.action);
    expect(actions).toEqual([expect.objectContaining({ type: "uri", uri: subsidy.url })]);
  });

  it("is labelled as details: no count, no number, no conditions repeated", () => {
    const messages: Any[] = renderReply(reply);
    const all = JSON.stringify(messages);
    expect(messages[0].text.startsWith("ご質問の補助金の詳細です。")).toBe(true);
    expect(all).not.toMatch(/件見つかりました|キーワード「|"1\. /);
    expect(all.match(/2026-08-22/g)).toHaveLength(1);
  });
});

describe("LINE: list answers say each fact once", () => {
  it("does not repeat the cards or the notes in a third message", () => {
    const reply = templateReply(Array.from({ length: 5 }, (_, i) => sampleSubsidy(i + 1)));
    const messages: Any[] = renderReply(reply);
    for (const m of messages) expect(checkLineMessage(m)).toEqual([]);
    const textOnly = messages.filter((m) => m.type === "text").map((m) => m.text as string);
    const joined = textOnly.join("\n");
    expect(joined.match(/件見つかりました/g)).toHaveLength(1);
    expect(joined).not.toContain("上限額");
    expect(joined).not.toContain("オフラインの収録データ");
    expect(JSON.stringify(messages).match(/2026-08-22/g)).toHaveLength(1);
    // What is left of the answer text is the tip, short.
    const third = textOnly[1] ?? "";
    expect(third).toContain("💡");
    expect(third.length).toBeLessThan(200);
  });

  it("reads one result as one result", () => {
    const reply = templateReply([sampleSubsidy(1)], { totalCount: 1 });
    const messages: Any[] = renderReply(reply);
    const joined = JSON.stringify(messages);
    expect(messages[0].text).toContain("📋 1件見つかりました。");
    expect(joined).not.toMatch(/1件を表示|上位1件|2番目|締切が近い順/);
    const labels = messages.at(-1).quickReply.items.map((i: Any) => i.action.label);
    expect(labels).toContain("この補助金の詳細");
  });

  it("labels a weak match and offers the suggestions as quick replies", () => {
    const reply = templateReply([sampleSubsidy(1), sampleSubsidy(2)], {
      meta: { ...sampleReply(1).meta, match: "weak" },
      suggestions: ["東京都の設備投資の補助金"],
    });
    const messages: Any[] = renderReply(reply);
    expect(messages[0].text).toContain(WEAK_MATCH_TEXT);
    expect(messages[0].text).not.toContain("件見つかりました");
    const first = messages.at(-1).quickReply.items[0].action;
    expect(first).toMatchObject({ type: "postback", label: "東京都の設備投資の補助金" });
    expect(first.data).toBe("action=ask&q=東京都の設備投資の補助金");
  });
});
