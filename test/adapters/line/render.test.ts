/** render.ts and text.ts: the carousel's contents and LINE's limits, plain text from markdown. */
import { describe, expect, it } from "vitest";
import { jsonBytes, LINE_LIMITS } from "../../../adapters/line/flex.ts";
import { renderReply } from "../../../adapters/line/render.ts";
import { graphemes, markdownToPlain, truncate } from "../../../adapters/line/text.ts";
import { sampleReply, sampleSubsidy } from "../../fakes/sample-subsidies.ts";
import { type Any, texts } from "./flex-texts.ts";

function expectWithinLimits(messages: Any[]): void {
  expect(messages.length).toBeGreaterThanOrEqual(1);
  expect(messages.length).toBeLessThanOrEqual(LINE_LIMITS.messagesPerReply);
  for (const m of messages) {
    if (m.type === "text") expect(m.text.length).toBeLessThanOrEqual(5000);
    if (m.type === "flex") {
      expect(m.altText.length).toBeGreaterThan(0);
      expect(m.altText.length).toBeLessThanOrEqual(LINE_LIMITS.altTextChars);
      expect(jsonBytes(m.contents)).toBeLessThanOrEqual(LINE_LIMITS.carouselBytes);
      expect(m.contents.contents.length).toBeLessThanOrEqual(12);
      for (const b of m.contents.contents) expect(jsonBytes(b)).toBeLessThanOrEqual(LINE_LIMITS.bubbleBytes);
    }
    for (const item of m.quickReply?.items ?? []) {
      expect(graphemes(item.action.label).length).toBeLessThanOrEqual(LINE_LIMITS.quickReplyLabel);
      if (item.action.data) expect(item.action.data.length).toBeLessThanOrEqual(LINE_LIMITS.postbackData);
    }
    for (const t of texts(m)) expect(t).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
  }
}

describe("renderReply", () => {
  it("renders summary, a carousel with every fact per bubble, and next-step quick replies", () => {
    const messages: Any[] = renderReply(sampleReply(3));
    expectWithinLimits(messages);
    expect(messages[0].text).toContain("キーワード「IT導入・DX」");
    expect(messages[0].text).toContain("地域: 東京都");
    expect(messages[0].text).toContain("他に7件");
    // The data date is said once in the whole reply: beside the first bubble's status.
    expect(JSON.stringify(messages).match(/2026-08-22/g)).toHaveLength(1);
    expect(texts(messages[1].contents.contents[0])).toContain("2026-08-22時点: 受付中");
    const bubble = messages[1].contents.contents[0];
    const all = texts(bubble).join("\n");
    for (const label of [
      "上限額",
      "補助率",
      "締切",
      "受付状況",
      "対象地域",
      "100万円",
      "あと18日",
      "受付中",
    ]) {
      expect(all).toContain(label);
    }
    const buttons = bubble.footer.contents.map((b: Any) => b.action);
    expect(buttons[0]).toMatchObject({ type: "uri", label: "Jグランツで見る", uri: sampleSubsidy(1).url });
    expect(buttons[1]).toMatchObject({ type: "postback", label: "詳しく" });
    const labels = messages.at(-1).quickReply.items.map((i: Any) => i.action.label);
    expect(labels).toContain("締切が近い順に並べる");
    // Another area is a new search: the label says so.
    expect(labels).toContain("大阪府で探す");
    expect(labels.some((l: string) => l.endsWith("で絞る"))).toBe(false);
    expect(messages.map((m) => m.text ?? "").join("")).not.toContain("**");
  });

  it("keeps 30 long subsidies within every LINE limit", () => {
    const long = "長い説明🎌👨‍👩‍👧‍👦".repeat(150);
    const subsidies = Array.from({ length: 30 }, (_, i) =>
      sampleSubsidy(i + 1, { title: long, summary: long, rate: long, area: long }),
    );
    const reply = sampleReply(30, { subsidies, totalCount: 345, text: `**${long}**\n`.repeat(10) });
    const messages: Any[] = renderReply(reply);
    expectWithinLimits(messages);
    expect(messages[1].contents.contents.length).toBeGreaterThan(0);
    expect(messages[0].text).toContain(`他に${345 - messages[1].contents.contents.length}件`);
    expectWithinLimits(renderReply(reply, { maxMessages: 4 }));
  });

  it("renders help, cleared and error replies as plain text", () => {
    for (const kind of ["help", "cleared", "error"] as const) {
      const messages: Any[] = renderReply(
        sampleReply(2, { kind, text: "## 使い方\n**例**: 東京都のIT導入" }),
      );
      expect(messages).toHaveLength(1);
      expect(messages[0]).toMatchObject({ type: "text", text: "【使い方】\n例: 東京都のIT導入" });
      // Help and a fresh start offer the examples; an error offers nothing to tap.
      const labels = (messages[0].quickReply?.items ?? []).map((i: Any) => i.action.label);
      expect(labels.length > 0).toBe(kind !== "error");
    }
  });
});

describe("text helpers", () => {
  it("truncates by graphemes with an ellipsis, never inside an emoji", () => {
    expect(truncate("あいうえお", 5)).toBe("あいうえお");
    expect(truncate("あいうえおか", 5)).toBe("あいうえ…");
    const family = "👨‍👩‍👧‍👦";
    const cut = truncate(family.repeat(10), 4);
    expect(cut).toBe(`${family.repeat(3)}…`);
    const byUnits = truncate("😀".repeat(10), 100, 6);
    expect(byUnits).toBe("😀😀…");
  });

  it("turns markdown into LINE plain text: no **, links on their own line, tables as lists", () => {
    const md = [
      "## おすすめ",
      "**IT導入補助金**は[公式ページ](https://example.com/a)を参照。詳しくは https://example.com/b を見てください。",
      "",
      "| 名称 | 上限額 |",
      "|---|---:|",
      "| A補助金 | 100万円 |",
      "| B助成金 | 50万円 |",
      "- 箇条書き",
    ].join("\n");
    const plain = markdownToPlain(md);
    expect(plain).not.toContain("**");
    expect(plain).not.toContain("|");
    expect(plain).toContain("【おすすめ】");
    expect(plain.split("\n")).toContain("https://example.com/a");
    expect(plain.split("\n")).toContain("https://example.com/b");
    expect(plain).toContain("・名称: A補助金 / 上限額: 100万円");
    expect(plain).toContain("・箇条書き");
  });
});
