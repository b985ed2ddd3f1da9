/**
 * Screenshots the browser tests keep: always under test-results/screenshots/ (the test artefacts, not in
 * git), and also under docs/screenshots/ (the README's pictures) when UPDATE_SCREENSHOTS=1.
 */
import { copyFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Page } from "playwright-core";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
export const ARTEFACTS_DIR = join(ROOT, "test-results", "screenshots");
export const README_DIR = join(ROOT, "docs", "screenshots");

/** Saves what the viewport shows now; returns the artefact's path. */
export async function keepScreenshot(page: Page, name: string): Promise<string> {
  mkdirSync(ARTEFACTS_DIR, { recursive: true });
  const path = join(ARTEFACTS_DIR, name);
  await page.screenshot({ path });
  if (process.env.UPDATE_SCREENSHOTS === "1") {
    mkdirSync(README_DIR, { recursive: true });
    copyFileSync(path, join(README_DIR, name));
  }
  return path;
}
