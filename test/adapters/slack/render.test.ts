/** render.ts and mrkdwn.ts: pure rendering, limits, escaping. */
import { describe, expect, it } from "vitest";
import { checkSlackMessage } from "../../../adapters/slack/limits.ts";
import { escapeMrkdwn, markdownToMrkdwn, mrkdwnLink } from "../../../adapters/slack/mrkdwn.ts";
import { conditionsText, renderReply, splitForSections } from "../../../adapters/slack/render.ts";
import { deadlineText, parseDetailValue } from "../../../adapters/slack/render-subsidy.ts";
import { sampleReply, sampleSubsidy } from "../../fakes/sample-subsidies.ts";

type Section = {
  type: string;
  text?: { text: string };
  fields?: Array<{ text: string }>;
  accessory?: { value: string };
};

describe("renderReply", () => {
  it("shows the conditions and count once, one section per subsidy with its fields, and the footer", () => {
    const [message, ...rest] = renderReply(sampleReply(3));
    expect(rest).toHaveLength(0);
    const blocks = message?.blocks as unknown as Section[];
    expect(blocks[0]?.text?.text).toContain("*検索条件*: 「IT導入」「DX」／東京都／受付中のみ");
    expect(blocks[0]?.text?.text).toContain("*10件*見つかりました（上位3件を表示）");
    // Each fact once: the count in the header (the prose's count line is dropped), the data date
    // beside the first card's status (the snapshot note is dropped).
    const json = JSON.stringify(blocks);
    expect(json.match(/見つかりました/g)).toHaveLength(1);
    expect(json.match(/2026-08-22/g)).toHaveLength(1);
    const subsidies = blocks.filter((b) => b.fields);
    expect(subsidies).toHaveLength(3);
    const first = subsidies[0];
    expect(first?.text?.text).toContain(
      "*1. <https://www.jgrants-portal.go.jp/subsidy/a0WJ200000CD0001MAX|令和8年度 中小企業デジタル化・IT導入支援補助金（第1回）&amp; &lt;特別枠&gt;>*",
    );
    expect(first?.fields?.map((f) => f.text.split("\n")[0])).toEqual([
      "*上限額*",
      "*補助率*",
      "*締切*",
      "*受付状況*",
      "*対象地域*",
      "*従業員規模*",
    ]);
    expect(first?.fields?.[2]?.text).toBe("*締切*\n2026/12/17(木)・あと18日");
    expect(first?.fields?.[3]?.text).toBe("*受付状況*\n2026-08-22時点: 受付中");
    expect(subsidies[1]?.fields?.[3]?.text).toBe("*受付状況*\n受付中");
    expect(parseDetailValue(first?.accessory?.value)).toEqual({ n: 1, id: "a0WJ200000CD0001MAX" });
    expect(blocks.filter((b) => b.type === "divider").length).toBeGreaterThanOrEqual(3);
    expect(JSON.stringify(blocks.at(-1))).toContain("出典: <https://www.jgrants-portal.go.jp/|Jグランツ>");
    expect(message?.text).not.toBe("");
  });

  it("shows the prose around the subsidies once: facts come from the blocks, not from the LLM text", () => {
    const text = [
      "「IT導入」で3件見つかりました。上位3件を紹介します。",
      "**1. 補助金A**\n- 上限額: 100万円\n- [Jグランツで見る](https://www.jgrants-portal.go.jp/subsidy/a0WJ200000CD0001MAX)",
      "💡 地域を加えると絞り込めます。",
      "出典: Jグランツ（デジタル庁）。",
    ].join("\n\n");
    const [message] = renderReply(sampleReply(3, { text }));
    const prose = ((message?.blocks ?? []) as unknown as Section[])
      .filter((b) => b.text && !b.fields)
      .map((b) => b.text?.text);
    // The count is the header's; the prose keeps what only it says.
    expect(prose.join("\n")).not.toContain("上位3件を紹介します");
    expect(prose.join("\n")).toContain("💡 地域を加えると絞り込めます。");
    // The tip comes after the cards.
    const blocks = (message?.blocks ?? []) as unknown as Section[];
    const tipAt = blocks.findIndex((b) => b.text?.text.startsWith("💡"));
    expect(tipAt).toBeGreaterThan(blocks.findLastIndex((b) => b.fields));
    expect(prose.join("\n")).not.toContain("上限額: 100万円");
    expect(JSON.stringify(message?.blocks).match(/出典/g)).toHaveLength(1);
  });

  it("splits 30 subsidies over several messages, each within the limits, none dropped", () => {
    const messages = renderReply(sampleReply(30));
    expect(messages.length).toBeGreaterThan(1);
    for (const message of messages) expect(checkSlackMessage(message)).toEqual([]);
    const ids = messages
      .flatMap((m) => (m.blocks as unknown as Section[]).map((b) => b.accessory?.value))
      .filter(Boolean);
    expect(ids).toHaveLength(30);
    expect(messages.at(-1)?.text).toMatch(/続き/);
  });

  it("splits a very long explanation into several sections instead of truncating it", () => {
    const long = Array.from({ length: 400 }, (_, i) => `${i}行目: とても長い説明です。`).join("\n");
    const messages = renderReply(sampleReply(1, { text: long }));
    const all = messages
      .flatMap((m) => m.blocks as unknown as Section[])
      .map((b) => b.text?.text ?? "")
      .join("\n");
    expect(all).toContain("0行目");
    expect(all).toContain("399行目");
    for (const message of messages) expect(checkSlackMessage(message)).toEqual([]);
  });

  it("renders help and cleared replies as text only, without footer or buttons", () => {
    const [message] = renderReply(
      sampleReply(0, { kind: "cleared", text: "履歴を削除しました。", conditions: null, notes: [] }),
    );
    expect(message?.blocks).toHaveLength(1);
    expect(JSON.stringify(message)).not.toContain("出典");
  });

  it("formats deadlines: days left, today, closed, unknown", () => {
    expect(deadlineText(sampleSubsidy(1, { daysLeft: 0 }))).toBe("2026/12/17(木)・本日締切");
    expect(deadlineText(sampleSubsidy(1, { status: "受付終了", daysLeft: null }))).toBe(
      "2026/12/17(木)・受付終了",
    );
    expect(deadlineText(sampleSubsidy(1, { end: null }))).toBe("不明");
  });

  it("joins the conditions as users read them", () => {
    expect(conditionsText({ keywords: ["省エネ"], employees: "20名以下" })).toBe("「省エネ」／20名以下");
    expect(conditionsText(null)).toBe("");
  });

  it("never splits above the section limit", () => {
    const pieces = splitForSections("あ".repeat(7000));
    expect(pieces.map((p) => p.length)).toEqual([3000, 3000, 1000]);
  });
});

describe("mrkdwn", () => {
  it("escapes &, < and > in data and user text", () => {
    expect(escapeMrkdwn("A&B <!channel> >")).toBe("A&amp;B &lt;!channel&gt; &gt;");
    expect(markdownToMrkdwn("<!here> & co")).toBe("&lt;!here&gt; &amp; co");
  });

  it("converts bold, links, headings, lists and italics", () => {
    const out = markdownToMrkdwn(
      "## 概要\n**上限額**は[公募要領](https://example.jp/a?x=1&y=2)を確認\n- 項目 *注意*",
    );
    expect(out).toBe("*概要*\n*上限額*は<https://example.jp/a?x=1&amp;y=2|公募要領>を確認\n• 項目 _注意_");
  });

  it("turns tables into lists", () => {
    const table =
      "| 名称 | 上限額 | 締切 |\n|---|---|---|\n| A補助金 | 100万円 | 12/17 |\n| B助成金 | 50万円 | 1/31 |";
    expect(markdownToMrkdwn(table)).toBe(
      "• *A補助金* — 上限額: 100万円、締切: 12/17\n• *B助成金* — 上限額: 50万円、締切: 1/31",
    );
  });

  it("only links http(s) URLs", () => {
    expect(mrkdwnLink("javascript:alert(1)", "x")).toBe("x");
    expect(mrkdwnLink("https://a.example/p", "a|b")).toBe("<https://a.example/p|a｜b>");
  });
});
