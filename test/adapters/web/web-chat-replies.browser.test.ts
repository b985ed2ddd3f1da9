/**
 * The web chat's less common replies in headless Chromium, against the scripted fake /chat/stream: a weak
 * match (labelled, with suggestion buttons that ask), a details answer (no number, no count, fuller fields),
 * and a search that found nothing (no cards, one collapsed line).
 */
import { describe, expect, it } from "vitest";
import type { Reply } from "../../../src/types.ts";
import { type StreamStep, toChatResponse } from "../../fakes/fake-chat-api.ts";
import { sampleReply, sampleSubsidy } from "../../fakes/sample-subsidies.ts";
import { chromiumAvailable } from "./chromium.ts";
import { ask, turnsDone, useChatHarness } from "./harness.ts";

const replyOnly = (reply: Reply): StreamStep[] => [
  { event: "progress", data: { type: "searching", keywords: ["宇宙"], filters: {} } },
  { event: "progress", data: { type: "found", count: reply.totalCount, shown: reply.subsidies.length } },
  { event: "reply", data: toChatResponse(reply, "web:thread-1") },
];

describe.skipIf(!chromiumAvailable())("web chat replies in headless Chromium", () => {
  const { api, openChat } = useChatHarness();

  it("labels a weak match and turns its suggestions into buttons that ask", async () => {
    const weak = sampleReply(2, {
      text: "「宇宙」に近い補助金です。",
      totalCount: 2,
      meta: { ...sampleReply(2).meta, match: "weak" },
      suggestions: ["東京都の設備投資の補助金", "IT導入補助金"],
    });
    api.setScript((_body, i) => (i === 0 ? replyOnly(weak) : replyOnly(sampleReply(3))));
    const page = await openChat();
    await ask(page, "宇宙の補助金");
    await turnsDone(page, 1);
    expect(await page.locator(".msg.bot .weak").textContent()).toBe(
      "条件にぴったり合う受付中の補助金は見つかりませんでした。近いものを参考に表示します。",
    );
    expect(await page.locator(".msg.bot .progress li:visible").allTextContents()).toEqual([
      "✓ 近い補助金を2件表示（0.1秒未満）",
    ]);
    const buttons = page.locator(".suggestions button.suggestion");
    expect(await buttons.allTextContents()).toEqual(["東京都の設備投資の補助金", "IT導入補助金"]);
    await buttons.nth(1).click();
    await turnsDone(page, 2);
    expect(api.requests[1]?.body).toEqual({ message: "IT導入補助金", threadId: "web:thread-1" });
  });

  it("shows a details answer as a details card: no number, no count, the fuller fields", async () => {
    const subsidy = sampleSubsidy(2, {
      projectEnd: { iso: "2027-02-26T14:59:00.000Z", jst: "2027/02/26(金) 23:59" },
      multipleApplications: true,
      attachments: [{ kind: "公募要領", name: "R8公募要領.pdf" }],
    });
    const details = sampleReply(1, {
      text: `ご質問の補助金の詳細です。\n\n**${subsidy.title}**\n- 上限額: 200万円`,
      subsidies: [subsidy],
      totalCount: 1,
      view: "details",
    });
    api.setScript(() => replyOnly(details));
    const page = await openChat();
    await ask(page, "2番目の詳細は？");
    await turnsDone(page, 1);
    const card = page.locator(".card.details");
    expect(await card.count()).toBe(1);
    expect(await card.locator(".card-index").count()).toBe(0);
    const row = (label: string) => card.locator(".fact", { hasText: label }).locator("dd").textContent();
    expect(await row("事業終了期限")).toBe("2027/02/26(金) 23:59");
    expect(await row("複数回申請")).toBe("可（複数回の申請ができます）");
    expect(await row("実施機関")).toBe("東京都産業労働局");
    expect(await card.locator(".attachments li").allTextContents()).toEqual(["公募要領: R8公募要領.pdf"]);
    expect(await card.locator("a.portal").getAttribute("href")).toBe(subsidy.url);
    expect(await page.locator(".msg.bot .answer").textContent()).toBe("ご質問の補助金の詳細です。");
    expect(await page.locator(".msg.bot .progress li:visible").allTextContents()).toEqual([
      "✓ 詳細を表示（0.1秒未満）",
    ]);
  });

  it("shows a search that found nothing as prose only", async () => {
    const none = sampleReply(0, {
      text: "「宇宙」に合う補助金は見つかりませんでした。\n別の言葉でもう一度お試しください。",
      totalCount: 0,
      notes: [],
    });
    api.setScript(() => replyOnly(none));
    const page = await openChat();
    await ask(page, "宇宙の補助金");
    await turnsDone(page, 1);
    expect(await page.locator(".card").count()).toBe(0);
    expect(await page.locator(".msg.bot .answer").textContent()).toContain("見つかりませんでした");
    expect(await page.locator(".msg.bot .progress li:visible").allTextContents()).toEqual([
      "✓ 該当なし（0.1秒未満）",
    ]);
  });
});
