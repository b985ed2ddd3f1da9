/** Shared setup of the browser tests: one fake chat API and one Chromium per test file, a tab per test. */
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, beforeEach, expect } from "vitest";
import { createFakeChatApi, type FakeChatApi } from "../../fakes/fake-chat-api.ts";
import { type Browser, launchChromium } from "./chromium.ts";

export interface ChatHarness {
  api: FakeChatApi;
  /** Opens the chat in a new tab (fresh sessionStorage) once its script is wired. */
  openChat(path?: string): Promise<Page>;
}

/** Registers the hooks; call inside a describe. Page errors fail the test that caused them. */
export function useChatHarness(): ChatHarness {
  const api = createFakeChatApi();
  let server: { url: string; close: () => Promise<void> } | undefined;
  let browser: Browser | undefined;
  const pages: Page[] = [];
  const pageErrors: string[] = [];

  beforeAll(async () => {
    server = await api.start();
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });
  beforeEach(() => {
    api.reset();
    pageErrors.length = 0;
  });
  afterEach(async () => {
    for (const page of pages.splice(0)) await page.close();
    expect(pageErrors).toEqual([]);
  });

  return {
    api,
    async openChat(path = "/") {
      if (!browser || !server) throw new Error("harness not started");
      const page = await browser.context.newPage();
      pages.push(page);
      page.on("pageerror", (error) => pageErrors.push(error.message));
      await page.goto(`${server.url}${path}`);
      await page.locator("html[data-ready='true']").waitFor();
      return page;
    },
  };
}

/** Types a question and presses Enter. */
export async function ask(page: Page, text: string): Promise<void> {
  await page.locator("#message").fill(text);
  await page.locator("#message").press("Enter");
}

/** Waits until n assistant turns have finished (successfully or not). */
export async function turnsDone(page: Page, n: number): Promise<void> {
  await page
    .locator(".msg.bot:not([aria-busy])")
    .nth(n - 1)
    .waitFor({ state: "attached" });
}

/** Saves the whole page to a temp file (viewport grown to fit, so the sticky composer stays at the bottom). */
export async function screenshot(page: Page, name: string): Promise<string> {
  const width = page.viewportSize()?.width ?? 1100;
  const height = Number(await page.evaluate("document.documentElement.scrollHeight"));
  await page.setViewportSize({ width, height });
  const path = join(tmpdir(), name);
  await page.screenshot({ path });
  console.info(`[web chat] screenshot: ${path}`);
  return path;
}
