/** The web chat page in headless Chromium against the scripted fake /chat/stream: the happy paths. */
import { describe, expect, it } from "vitest";
import { defaultScript, type StreamStep } from "../../fakes/fake-chat-api.ts";
import { sampleSubsidy } from "../../fakes/sample-subsidies.ts";
import { chromiumAvailable } from "./chromium.ts";
import { ask, screenshot, turnsDone, useChatHarness } from "./harness.ts";

describe.skipIf(!chromiumAvailable())("web chat in headless Chromium", () => {
  const { api, openChat } = useChatHarness();

  it("streams progress and tool calls, then renders cards from the reply's data", async () => {
    const page = await openChat();
    expect(await page.title()).toBe("補助金コンシェルジュ");
    await ask(page, "東京都でIT導入に使える補助金");
    await turnsDone(page, 1);

    const progress = await page.locator(".msg.bot .progress li").allTextContents();
    expect(progress).toContain("🔍「IT導入」で検索中（東京都）…");
    expect(progress).toContain("📋 12件見つかりました（上位3件を表示）…");
    expect(progress).toContain("✍️ 回答を作成中…");

    const rows = page.locator(".tool-row");
    expect(await rows.count()).toBe(2);
    const first = (await rows.nth(0).textContent()) ?? "";
    expect(first).toContain("jgrants / search_subsidies");
    expect(first).toContain('keyword: "IT導入"');
    expect(first).toContain("✅ 完了");
    expect(first).toContain("245 ms");
    expect(await rows.nth(1).locator(".tool-ms").textContent()).toBe("1.8 s");

    const cards = page.locator(".card");
    expect(await cards.count()).toBe(3);
    const one = sampleSubsidy(1);
    const link = cards.nth(0).locator(".card-title a");
    expect(await link.textContent()).toBe(one.title);
    expect(await link.getAttribute("href")).toBe(one.url);
    expect(await link.getAttribute("rel")).toContain("noopener");
    const facts = async (i: number, cls: string) => cards.nth(i).locator(`.fact.${cls} dd`).textContent();
    expect(await facts(0, "amount")).toBe("100万円");
    expect(await facts(0, "rate")).toBe("2/3 以内又は 1/2 以内");
    expect(await facts(0, "deadline")).toBe("2026/12/17(木) 23:59（あと18日）");
    // The snapshot's date is said once: beside the first card's status.
    expect(await facts(0, "status")).toBe("2026-08-22時点: 受付中");
    expect(await facts(1, "status")).toBe("受付中");
    expect(await facts(0, "area")).toBe(one.area);
    expect(await facts(2, "amount")).toBe("300万円");
    expect(await facts(2, "rate")).toBe("公募要領を確認");
    expect(await cards.nth(0).locator(".card-summary").textContent()).toBe(one.summary);

    // The cards carry the facts; the answer keeps its prose and does not repeat them.
    const prose = (await page.locator(".answer").textContent()) ?? "";
    expect(prose).toContain("件見つかりました");
    expect(prose).not.toContain("上限額");
    const footer = (await page.locator(".msg.bot .source").textContent()) ?? "";
    expect(footer).toContain("出典: Jグランツ");
    expect((await page.locator(".msg.bot").textContent())?.split("2026-08-22")).toHaveLength(2);
    // The progress collapsed into one visible line; the tool panel stays closed.
    expect(await page.locator(".msg.bot .progress li:visible").allTextContents()).toEqual([
      "✓ 10件から3件を表示（0.1秒未満）",
    ]);
    expect(await page.locator("details.tools").getAttribute("open")).toBeNull();

    expect(await page.locator("#message").isEnabled()).toBe(true);
    expect(await page.locator("#message").inputValue()).toBe("");
    expect(api.requests).toEqual([
      { path: "/chat/stream", body: { message: "東京都でIT導入に使える補助金" } },
    ]);

    await screenshot(page, "web-chat-answer.png");
    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot(page, "web-chat-answer-mobile.png");
  });

  it("keeps Shift+Enter as a newline and disables the input while answering", async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    api.setScript((body, i) => {
      const steps: StreamStep[] = defaultScript(body, i);
      // Hold the stream after "searching" and the planned search call.
      return [...steps.slice(0, 2), { wait: gate }, ...steps.slice(2)];
    });
    const page = await openChat();
    const input = page.locator("#message");
    await input.pressSequentially("一行目");
    await input.press("Shift+Enter");
    await input.pressSequentially("二行目");
    expect(await input.inputValue()).toBe("一行目\n二行目");
    expect(api.requests).toHaveLength(0);

    await input.press("Enter");
    await page.locator(".progress li").first().waitFor();
    expect(await input.isDisabled()).toBe(true);
    expect(await page.locator("#send").isDisabled()).toBe(true);
    expect(await page.locator(".msg.bot").getAttribute("aria-busy")).toBe("true");
    await page.locator(".tool-row.pending").waitFor({ state: "attached" });
    expect(await page.locator(".tool-row .tool-status").textContent()).toBe("実行中…");
    // Raw tool calls are one click away: the panel is closed while the answer streams.
    expect(await page.locator("details.tools").getAttribute("open")).toBeNull();
    expect(await page.locator(".msg.user .bubble").textContent()).toBe("一行目\n二行目");

    await screenshot(page, "web-chat-streaming.png");
    release();
    await turnsDone(page, 1);
    expect(await input.isEnabled()).toBe(true);
    expect(await page.locator(".card").count()).toBe(3);
    expect(api.requests[0]?.body.message).toBe("一行目\n二行目");
  });

  it("continues the thread for follow-ups and starts over with 新しい会話", async () => {
    const page = await openChat();
    await ask(page, "東京都でIT導入に使える補助金");
    await turnsDone(page, 1);
    await ask(page, "2番目の詳細は？");
    await turnsDone(page, 2);
    await ask(page, "大阪府なら？");
    await turnsDone(page, 3);
    expect(api.requests.map((r) => r.body)).toEqual([
      { message: "東京都でIT導入に使える補助金" },
      { message: "2番目の詳細は？", threadId: "web:thread-1" },
      { message: "大阪府なら？", threadId: "web:thread-1" },
    ]);
    expect(await page.locator(".msg.bot").nth(2).locator(".progress li").first().textContent()).toContain(
      "（大阪府）",
    );

    expect(await page.evaluate("sessionStorage.getItem('subsidy-concierge.threadId')")).toBe("web:thread-1");
    await page.getByRole("button", { name: "新しい会話" }).click();
    expect(await page.locator(".msg").count()).toBe(0);
    expect(await page.locator("#welcome").isVisible()).toBe(true);
    expect(await page.evaluate("sessionStorage.getItem('subsidy-concierge.threadId')")).toBeNull();
    await screenshot(page, "web-chat-welcome.png");
    await page.getByRole("button", { name: "締切が近い創業支援" }).click();
    await turnsDone(page, 1);
    expect(api.requests[3]?.body).toEqual({ message: "締切が近い創業支援" });
  });
});
