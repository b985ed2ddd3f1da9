/**
 * Browser-test setup against the REAL app: startApp in-process (bundled snapshot, SQLite in a temp dir)
 * and one headless Chromium per file. Every Reply the agent returns is recorded, so a test can compare
 * what the page shows with the data it was sent.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, expect } from "vitest";
import { loadConfig } from "../../../src/config.ts";
import { silentLogger } from "../../../src/logger.ts";
import { type RunningApp, startApp } from "../../../src/main.ts";
import type { Reply } from "../../../src/types.ts";
import { type Browser, launchChromium } from "../../adapters/web/chromium.ts";

export interface RealChat {
  /** The replies of every turn, in order of completion. */
  replies: Reply[];
  app(): RunningApp;
  /** Opens the chat in a new tab once its script is wired. */
  openChat(): Promise<Page>;
}

/** Registers the hooks; call inside a describe. Page errors fail the test that caused them. */
export function useRealChat(): RealChat {
  const dir = mkdtempSync(join(tmpdir(), "sc-web-real-"));
  const replies: Reply[] = [];
  const pageErrors: string[] = [];
  const pages: Page[] = [];
  let running: RunningApp | undefined;
  let browser: Browser | undefined;

  beforeAll(async () => {
    const config = loadConfig({
      PORT: "0",
      JGRANTS_SOURCE: "snapshot",
      JGRANTS_NOW: "2026-08-22T12:00:00+09:00",
      SQLITE_PATH: join(dir, "threads.sqlite"),
      MCP_HEARTBEAT_MS: "0",
    });
    running = await startApp(config, silentLogger);
    // The HTTP routes call agent.handle at request time: wrap it to record each reply.
    const agent = running.core.agent;
    const handle = agent.handle.bind(agent);
    agent.handle = async (turn, options) => {
      const reply = await handle(turn, options);
      replies.push(reply);
      return reply;
    };
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await running?.stop();
    rmSync(dir, { recursive: true, force: true });
  });
  afterEach(async () => {
    for (const page of pages.splice(0)) await page.close();
    expect(pageErrors.splice(0)).toEqual([]);
  });

  return {
    replies,
    app() {
      if (!running) throw new Error("app not started");
      return running;
    },
    async openChat() {
      if (!browser || !running) throw new Error("not started");
      const page = await browser.context.newPage();
      pages.push(page);
      page.on("pageerror", (error) => pageErrors.push(error.message));
      await page.goto(`${running.url}/`);
      await page.locator("html[data-ready='true']").waitFor();
      return page;
    },
  };
}
