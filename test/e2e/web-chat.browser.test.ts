/**
 * The web chat in headless Chromium against the REAL app (startApp in-process: bundled jGrants snapshot,
 * MCP host, offline planner, template answerer, SQLite store): progress and tool rows stream in, cards
 * show exactly the reply's data, and a follow-up continues the same thread.
 */
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import type { Subsidy } from "../../src/types.ts";
import { chromiumAvailable } from "../adapters/web/chromium.ts";
import { ask, screenshot, turnsDone } from "../adapters/web/harness.ts";
import { useRealChat } from "./support/real-chat.ts";

/** What a card must show for a subsidy, derived from the record the page was sent. */
function expectedFacts(s: Subsidy, dated = false) {
  const left =
    s.daysLeft === null || s.daysLeft < 0 ? "" : s.daysLeft === 0 ? "本日締切" : `あと${s.daysLeft}日`;
  const end = s.end?.jst ?? "公募要領を確認";
  return {
    title: s.title,
    href: s.url,
    amount: s.maxAmountText,
    rate: s.rate || "公募要領を確認",
    deadline: left ? `${end}（${left}）` : end,
    // The snapshot's date is said once: beside the first card's status.
    status: dated ? `2026-08-22時点: ${s.status}` : s.status,
  };
}

async function cardFacts(page: Page, turn: number) {
  const cards = page.locator(".msg.bot").nth(turn).locator(".card");
  const out = [];
  for (let i = 0; i < (await cards.count()); i++) {
    const card = cards.nth(i);
    const dd = (cls: string) => card.locator(`.fact.${cls} dd`).textContent();
    out.push({
      title: await card.locator(".card-title a").textContent(),
      href: await card.locator(".card-title a").getAttribute("href"),
      amount: await dd("amount"),
      rate: await dd("rate"),
      deadline: await dd("deadline"),
      status: await dd("status"),
    });
  }
  return out;
}

describe.skipIf(!chromiumAvailable())("web chat against the real app", () => {
  const { replies, app, openChat } = useRealChat();

  it("streams progress and tool calls, shows the reply's data as cards, and continues the thread", async () => {
    const page = await openChat();
    await ask(page, "東京都でIT導入に使える補助金は？");
    await turnsDone(page, 1);
    expect(replies).toHaveLength(1);
    const first = replies[0]!;
    expect(first.kind).toBe("answer");
    expect(first.subsidies.length).toBeGreaterThan(1);

    const bot = page.locator(".msg.bot").nth(0);
    const progress = await bot.locator(".progress li").allTextContents();
    expect(progress.some((line) => line.includes("で検索中（東京都）"))).toBe(true);
    expect(progress.some((line) => /\d+件見つかりました/.test(line))).toBe(true);
    // The count is said before composing starts, and the composing line repeats it.
    expect(progress.some((line) => /^📋 \d+件見つかりました。✍️ 回答をまとめています…$/.test(line))).toBe(
      true,
    );
    expect(progress.join("\n")).not.toMatch(/zero-hits|[a-z]+-[a-z]+/);
    // The facts are in the cards, not repeated in the answer text.
    const prose = (await bot.locator(".answer").textContent()) ?? "";
    expect(prose).not.toContain("上限額:");
    // Every card's text stays inside its card.
    const overflowing = await page.evaluate<number>(
      "[...document.querySelectorAll('.card *')].filter((e) => e.scrollWidth > e.clientWidth + 1).length",
    );
    expect(overflowing).toBe(0);

    // One tool row per call the agent made, each finished.
    const rows = bot.locator(".tool-row");
    expect(await rows.count()).toBe(first.plan.length);
    const firstRow = (await rows.nth(0).textContent()) ?? "";
    expect(firstRow).toContain(`${first.plan[0]!.server} / ${first.plan[0]!.tool}`);
    expect(firstRow).toContain(`query: "${String(first.plan[0]!.args.query)}"`);
    expect(await bot.locator(".tool-row.pending").count()).toBe(0);

    expect(await cardFacts(page, 0)).toEqual(first.subsidies.map((s, i) => expectedFacts(s, i === 0)));
    const footer = (await bot.locator(".source").textContent()) ?? "";
    expect(footer).toContain("出典: Jグランツ");
    expect((await bot.textContent())?.split("2026-08-22")).toHaveLength(2);

    await ask(page, "2番目の詳細は？");
    await turnsDone(page, 2);
    expect(replies).toHaveLength(2);
    const second = replies[1]!;
    const target = first.subsidies[1]!;
    expect(second.threadKey).toBe(first.threadKey);
    expect(second.subsidies.map((s) => s.id)).toEqual([target.id]);
    expect(await cardFacts(page, 1)).toEqual([expectedFacts(second.subsidies[0]!, true)]);
    expect(await page.locator(".msg.bot").nth(1).locator(".card").textContent()).toContain(target.title);

    // The thread lives in the app's store: both turns, with what each showed.
    const history = await app().core.store.load(first.threadKey);
    expect(history.map((t) => t.question)).toEqual(["東京都でIT導入に使える補助金は？", "2番目の詳細は？"]);
    expect(history[1]?.subsidies.map((s) => s.id)).toEqual([target.id]);

    expect(await screenshot(page, "web-chat-real.png")).toMatch(/web-chat-real\.png$/);
  });
});
