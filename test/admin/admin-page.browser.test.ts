/**
 * The admin page in headless Chromium against the real app (SQLite store) and a real remote MCP server on
 * loopback: the token asked once per tab, a validation error shown on its field, a connection test, a
 * server added that connects and whose tools appear, then disabled and deleted after a confirmation.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { silentLogger } from "../../src/logger.ts";
import type { RunningApp } from "../../src/main.ts";
import { type Browser, chromiumAvailable, launchChromium } from "../adapters/web/chromium.ts";
import { type FakeMcpHttp, startFakeMcpHttp } from "../fakes/fake-mcp-http.ts";
import { ADMIN_TOKEN, type AdminClient, adminClient, startAdminApp } from "./helpers.ts";

/** Where the screenshot goes; the README's copy is docs/admin-page.png. */
export const SCREENSHOT = join(tmpdir(), "admin-page.png");

describe.skipIf(!chromiumAvailable())("the admin page in Chromium", () => {
  const dir = mkdtempSync(join(tmpdir(), "sc-admin-page-"));
  let app: RunningApp;
  let api: AdminClient;
  let remote: FakeMcpHttp;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    remote = await startFakeMcpHttp({ mode: "stateful", name: "docs" });
    app = await startAdminApp({ SQLITE_PATH: join(dir, "store.sqlite") }, silentLogger);
    api = adminClient(app);
    browser = await launchChromium();
    page = await browser.context.newPage();
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await remote?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** The table refreshes every 2 s. */
  const LIVE = { timeout: 6_000 };
  const row = (name: string) => page.locator(`#servers tbody tr[data-name="${name}"]`);

  it("asks for the token once per tab and lists the configured servers", async () => {
    await page.goto(`${app.url}/admin`);
    await page.getByLabel("トークン（ADMIN_TOKEN）").fill(ADMIN_TOKEN);
    await page.getByLabel("トークン（ADMIN_TOKEN）").press("Enter");
    await expect.poll(() => row("jgrants").locator(".state").textContent(), LIVE).toBe("接続中");
    await expect
      .poll(() => row("time").locator("td").nth(1).textContent(), LIVE)
      .toBe("mcp.json（読み取り専用）");
    // A reload in the same tab keeps the token.
    await page.reload();
    await expect.poll(() => page.locator("#panel").isVisible(), LIVE).toBe(true);
    expect(await page.locator("#login").isVisible()).toBe(false);
  });

  it("labels every control of the form", async () => {
    await page.getByRole("button", { name: "サーバーを追加" }).click();
    const unlabelled = await page.evaluate(
      `[...document.querySelectorAll("#server-form input, #server-form select, #server-form textarea")]
        .filter((el) => !el.labels || el.labels.length === 0).map((el) => el.name)`,
    );
    expect(unlabelled).toEqual([]);
    expect(await page.evaluate("document.activeElement.id")).toBe("f-name");
  });

  it("shows a validation error next to the field it concerns, then adds the server after a test", async () => {
    await page.getByLabel("名前", { exact: true }).fill("docs");
    await page.getByLabel("URL", { exact: true }).fill("ftp://example.com/mcp");
    await page.getByRole("button", { name: "保存" }).click();
    const urlError = page.locator("#f-url-error");
    await expect.poll(() => urlError.textContent(), LIVE).toContain("http(s)");
    expect(await page.locator("#f-url").getAttribute("aria-invalid")).toBe("true");
    expect(await page.evaluate("document.activeElement.id")).toBe("f-url");
    expect(await api.server("docs")).toBeUndefined();

    await page.getByLabel("URL", { exact: true }).fill(remote.url);
    await page.getByRole("button", { name: "接続テスト" }).click();
    await expect
      .poll(() => page.locator(".found-tools li").allTextContents(), LIVE)
      .toContainEqual(expect.stringContaining("echo"));
    expect(await api.server("docs")).toBeUndefined();

    await page.getByRole("button", { name: "保存" }).click();
    await expect.poll(() => row("docs").locator(".state").textContent(), LIVE).toBe("接続中");
    await expect
      .poll(async () => Number(await row("docs").locator(".tools").textContent()), LIVE)
      .toBeGreaterThan(0);
    expect(await page.locator("#announce").textContent()).toContain("「docs」を追加しました");
    expect(await api.tools()).toContain("docs__echo");
    await page.screenshot({ path: SCREENSHOT, fullPage: true });
    console.info(`[admin page] screenshot: ${SCREENSHOT}`);
  });

  it("disables the server from the keyboard: its tools leave /tools", async () => {
    await row("docs").getByRole("button", { name: "無効にする（docs）" }).focus();
    await page.keyboard.press("Enter");
    await expect.poll(() => row("docs").locator(".state").textContent(), LIVE).toBe("無効");
    expect(await api.tools()).not.toContain("docs__echo");
  });

  it("deletes the server only after the confirmation", async () => {
    await row("docs").getByRole("button", { name: "削除（docs）" }).click();
    await page.getByRole("button", { name: "キャンセル" }).last().click();
    expect(await api.server("docs")).toBeDefined();
    await row("docs").getByRole("button", { name: "削除（docs）" }).click();
    expect(await page.locator("#confirm-text").textContent()).toContain("docs");
    await page.getByRole("button", { name: "削除する" }).click();
    await expect.poll(() => row("docs").count(), LIVE).toBe(0);
    expect(await api.server("docs")).toBeUndefined();
  });
});
