/** One headless Chromium for a browser test file: the system binary, a fresh profile, no network extras. */
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type BrowserContext, chromium } from "playwright-core";

export const CHROMIUM_PATH = "/usr/bin/chromium";

export const CHROMIUM_ARGS = [
  "--headless=new",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/**
 * Whether browser tests can run. Without the binary they are skipped locally, with a message,
 * but in CI a missing browser is a failure, never a silent skip.
 */
export function chromiumAvailable(): boolean {
  if (existsSync(CHROMIUM_PATH)) return true;
  if (process.env.CI)
    throw new Error(`${CHROMIUM_PATH} is missing: the web chat browser tests cannot run in CI`);
  console.warn(`[web chat] ${CHROMIUM_PATH} not found: skipping the headless-Chromium tests`);
  return false;
}

export interface Browser {
  context: BrowserContext;
  close(): Promise<void>;
}

/** Launches Chromium with a temporary user-data dir that is removed on close. */
export async function launchChromium(): Promise<Browser> {
  const userDataDir = await mkdtemp(join(tmpdir(), "web-chat-chromium-"));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width: 1100, height: 900 },
    locale: "ja-JP",
    timezoneId: "Asia/Tokyo",
  });
  // The page must never reach beyond loopback.
  await context.route(/^(?!http:\/\/127\.0\.0\.1[:/]).*/, (route) => route.abort());
  return {
    context,
    async close() {
      await context.close().catch(() => undefined);
      await rm(userDataDir, { recursive: true, force: true });
    },
  };
}
