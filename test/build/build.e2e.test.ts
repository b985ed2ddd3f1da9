/**
 * The production build (issue 14): `npm run build` compiles to JavaScript that runs with plain `node`, so
 * SIGTERM reaches the app itself (under `npm start`, npm got it and the server kept serving). This test
 * compiles into a temporary directory, starts the compiled server, asks it a question, and stops it with
 * SIGTERM: it must exit 0 on its own.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { type AppProcess, REPO_ROOT, startAppProcess } from "../e2e/support/app-process.ts";
import { getJson, postChat } from "../e2e/support/chat.ts";

const out = mkdtempSync(join(tmpdir(), "sc-build-"));
let app: AppProcess | undefined;
afterAll(() => {
  app?.kill();
  rmSync(out, { recursive: true, force: true });
});

describe("the JavaScript build", () => {
  it("compiles, runs with node directly, answers, and exits 0 on SIGTERM", { timeout: 180_000 }, async () => {
    const tsc = join(REPO_ROOT, "node_modules/typescript/bin/tsc");
    execFileSync(process.execPath, [tsc, "-p", "tsconfig.build.json", "--outDir", out], { cwd: REPO_ROOT });
    execFileSync(process.execPath, ["scripts/copy-assets.mjs", out], { cwd: REPO_ROOT });
    // The packages, as the image has them next to dist/.
    symlinkSync(join(REPO_ROOT, "node_modules"), join(out, "node_modules"), "dir");
    const main = join(out, "src/main.js");
    expect(existsSync(main)).toBe(true);
    expect(existsSync(join(out, "adapters/web/public/index.html"))).toBe(true);

    app = await startAppProcess({ JGRANTS_SOURCE: "snapshot", STORE_BACKEND: "memory" }, 30_000, main);
    // The process is node running the compiled file, with no TypeScript loader in between.
    const health = await getJson(app.url, "/healthz");
    expect(health.status).toBe(200);
    const reply = await postChat(app.url, "東京都のIT導入補助金");
    expect(reply.subsidies.length).toBeGreaterThan(0);
    const page = await fetch(`${app.url}/`);
    expect(await page.text()).toContain("補助金コンシェルジュ");
    expect(await app.terminate(10_000)).toBe(0);
    expect(app.stdout()).toContain('"msg":"shutting down"');
  });
});
