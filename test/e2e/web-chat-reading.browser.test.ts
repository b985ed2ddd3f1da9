/**
 * The web chat as a person reads it, in headless Chromium against the REAL app, on a desktop and a
 * 360 px phone: after a follow-up the answer's first card is in view (not under the input box), the
 * tool panel is closed, details show their fields, nothing overflows sideways, and the placeholder fits.
 * Screenshots of a list and a details answer go to the test artefacts (and the README's on request).
 */
import type { Locator, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import type { Reply } from "../../src/types.ts";
import { chromiumAvailable } from "../adapters/web/chromium.ts";
import { ask, turnsDone } from "../adapters/web/harness.ts";
import { keepScreenshot } from "./support/artefacts.ts";
import { useRealChat } from "./support/real-chat.ts";

/** True when the element's top edge lies between the sticky header and the sticky composer. */
async function inView(page: Page, target: Locator): Promise<boolean> {
  const box = await target.boundingBox();
  const header = await page.locator("header.top").boundingBox();
  const composer = await page.locator("#composer").boundingBox();
  if (!box || !header || !composer) return false;
  return box.y >= header.y + header.height - 1 && box.y + 40 <= composer.y;
}

/** No element makes the page wider than the viewport. */
const sideways = (page: Page) =>
  page.evaluate<number>("document.documentElement.scrollWidth - document.documentElement.clientWidth");

async function listThenDetails(page: Page, replies: Reply[], size: "desktop" | "phone") {
  const before = replies.length;
  await ask(page, "東京都でIT導入に使える補助金は？");
  await turnsDone(page, 1);
  const list = replies[before]!;
  expect(list.subsidies.length).toBeGreaterThan(1);
  const firstBot = page.locator(".msg.bot").nth(0);
  await expect.poll(() => inView(page, firstBot.locator(".card").first()), { timeout: 8000 }).toBe(true);
  expect(await firstBot.locator("details.tools").getAttribute("open")).toBeNull();
  expect(await firstBot.locator(".progress li:visible").allTextContents()).toEqual([
    expect.stringMatching(/^✓ \d+件(から\d+件)?を表示（(\d+\.\d秒|0\.1秒未満)）$/),
  ]);
  // List cards are for scanning: summaries are short (a details card shows them whole).
  const summaries = await firstBot.locator(".card-summary").allTextContents();
  expect(summaries.every((t) => Array.from(t).length <= 90)).toBe(true);
  expect(await sideways(page)).toBe(0);
  await keepScreenshot(page, `web-list-${size}.png`);

  await ask(page, "2番目の詳細は？");
  await turnsDone(page, 2);
  const details = replies[before + 1]!;
  expect(details.view).toBe("details");
  const target = details.subsidies[0]!;
  expect(target.id).toBe(list.subsidies[1]!.id);
  const bot = page.locator(".msg.bot").nth(1);
  const card = bot.locator(".card").first();
  // The follow-up's first card is in view, not under the input box.
  await expect.poll(() => inView(page, card), { timeout: 8000 }).toBe(true);
  expect(await bot.locator("details.tools").getAttribute("open")).toBeNull();
  // Labelled as details: no number, no count; the fuller fields and the portal link are there.
  expect(await card.locator(".card-kind").textContent()).toBe("補助金の詳細");
  expect(await card.locator(".card-index").count()).toBe(0);
  expect(await bot.textContent()).not.toMatch(/件見つかりました/);
  const field = (label: string) => card.locator(".fact", { hasText: label }).locator("dd").textContent();
  if (target.start) expect(await field("受付開始")).toBe(target.start.jst);
  if (target.purpose) expect(await field("利用目的")).toBe(target.purpose);
  if (target.employees) expect(await field("従業員規模")).toBe(target.employees);
  expect(await card.locator("a.portal").getAttribute("href")).toBe(target.url);
  for (const file of target.attachments ?? []) expect(await card.textContent()).toContain(file.name);
  expect(await sideways(page)).toBe(0);
  await keepScreenshot(page, `web-details-${size}.png`);
}

describe.skipIf(!chromiumAvailable())("web chat as a person reads it (real app)", () => {
  const { replies, openChat } = useRealChat();

  it("desktop: a list, then the details of the 2nd, each starting in view", async () => {
    const page = await openChat();
    await listThenDetails(page, replies, "desktop");
  });

  it("phone (360 px): the same, with no sideways overflow and a placeholder that fits", async () => {
    const page = await openChat();
    await page.setViewportSize({ width: 360, height: 740 });
    // The placeholder, typed in as text, fits the box without scrolling (so it is not cut off).
    const fits = await page.evaluate<boolean>(`(() => {
      const box = document.getElementById("message");
      box.value = box.placeholder;
      const ok = box.scrollHeight <= box.clientHeight + 1 && box.scrollWidth <= box.clientWidth + 1;
      box.value = "";
      return ok;
    })()`);
    expect(fits).toBe(true);
    expect(await sideways(page)).toBe(0);
    await listThenDetails(page, replies, "phone");
  });
});
