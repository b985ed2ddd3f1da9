/**
 * A watch in the web chat, driven in headless Chromium against the real app (bundled jGrants MCP server
 * with some hits hidden, SQLite file): the 「この条件をウォッチ」 button under a list saves the watch with
 * the typed command's confirmation; a digest that arrives while the page is closed is shown when the
 * page opens the thread again (once); and 「2番目の詳細は？」 then means the digest's second entry.
 */
import { join } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.ts";
import { silentLogger } from "../../src/logger.ts";
import { type RunningApp, startApp } from "../../src/main.ts";
import { type Browser, chromiumAvailable, launchChromium } from "../adapters/web/chromium.ts";
import { ask, turnsDone } from "../adapters/web/harness.ts";
import { tempDir } from "../e2e/helpers/app.ts";
import { changingCatalog, ENV, NOW, runDue } from "./changing-catalog.ts";

const QUESTION = "省エネでCO2を減らしたい";
const dir = tempDir("sc-watch-web-");
const catalog = changingCatalog();
let app: RunningApp;
let browser: Browser;
let now = NOW;

describe.skipIf(!chromiumAvailable())("a watch in the web chat", () => {
  beforeAll(async () => {
    const config = loadConfig({ ...ENV, PORT: "0", SQLITE_PATH: join(dir.path, "threads.sqlite") });
    app = await startApp(config, silentLogger, { tools: catalog.host, clock: () => now });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await catalog.host.close();
    dir.remove();
  });

  const bot = (page: Page, n: number) => page.locator(".msg.bot").nth(n);

  it("saves with the button, shows a digest when the thread is opened again, and follows up on it", async () => {
    const ids = await catalog.idsFor({ keywords: [], query: QUESTION, acceptance: "1" });
    const [, , third, fourth] = ids;
    catalog.hidden.add(third!);
    catalog.hidden.add(fourth!);
    const page = await browser.context.newPage();
    await page.goto(`${app.url}/`);
    await page.locator("html[data-ready='true']").waitFor();
    await ask(page, QUESTION);
    await turnsDone(page, 1);

    // The button under the list sends the command; the confirmation is the typed one's.
    await bot(page, 0).locator("button.watch").click();
    await turnsDone(page, 2);
    expect(await page.locator(".msg.user").nth(1).textContent()).toContain("この条件をウォッチ");
    const saved = (await bot(page, 1).locator(".answer").textContent()) ?? "";
    expect(saved).toContain("ウォッチ1を保存しました");
    expect(saved).toContain("省エネ");
    expect(saved).toContain("毎日9時（日本時間）");
    expect(saved).toContain("「ウォッチを止めて」");
    // A confirmation is no list: it has no watch button of its own.
    expect(await bot(page, 1).locator("button.watch").count()).toBe(0);

    // Next morning two subsidies are new; the web chat cannot be posted to, so the digest waits.
    catalog.hidden.clear();
    now = new Date("2026-08-23T09:00:00+09:00");
    const [digest] = await runDue(app);
    expect(digest?.listed.map((s) => s.id)).toEqual([third, fourth]);

    // The page opens the thread again: the digest is shown first, before anything is asked.
    await page.reload();
    await page.locator("html[data-ready='true']").waitFor();
    const shown = (await bot(page, 0).textContent()) ?? "";
    expect(shown).toContain("🔔 ウォッチ1:");
    expect(shown).toContain("新しく条件に合う補助金が2件あります。");
    expect(shown).toContain(digest!.listed[1]!.title);
    expect(await page.locator("#status").textContent()).toBe("ウォッチの新着が1件あります。");

    // A follow-up refers to the digest's list.
    await ask(page, "2番目の詳細は？");
    await turnsDone(page, 2);
    expect(await bot(page, 1).locator(".card").count()).toBe(1);
    expect(await bot(page, 1).locator(".card").textContent()).toContain(digest!.listed[1]!.title);

    // Shown once: opening the thread again shows no digest.
    await page.reload();
    await page.locator("html[data-ready='true']").waitFor();
    expect(await page.locator(".msg.bot").count()).toBe(0);
    await page.close();
  });
});
