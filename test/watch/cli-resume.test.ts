/**
 * A watch from the terminal: `ask --thread` as a real process saves a watch on a SQLite file; the
 * scheduler's run keeps the digest (a terminal cannot be posted to); the next `ask --thread` shows it
 * before its answer, and 「2番目の詳細は？」 there means the digest's second entry. Shown once.
 */
import { once } from "node:events";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.ts";
import { silentLogger } from "../../src/logger.ts";
import { createThreadStore } from "../../src/store/index.ts";
import { createWatching } from "../../src/watch/index.ts";
import { tempDir } from "../e2e/helpers/app.ts";
import { spawnTsx } from "../e2e/support/app-process.ts";
import { changingCatalog, ENV } from "./changing-catalog.ts";

const dir = tempDir("sc-watch-cli-");
const sqlite = join(dir.path, "threads.sqlite");
const env = { ...ENV, SQLITE_PATH: sqlite, LOG_LEVEL: "error" };
const catalog = changingCatalog();
afterAll(async () => {
  await catalog.host.close();
  dir.remove();
});

async function ask(...args: string[]): Promise<{ code: number | null; stdout: string }> {
  const child = spawnTsx("adapters/cli/ask.ts", args, env);
  child.stdin.end();
  let stdout = "";
  child.stdout.on("data", (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr.resume();
  const [code] = await once(child, "close");
  return { code: code as number | null, stdout };
}

describe("a watch in a CLI thread", () => {
  it("shows the kept digest when the thread is resumed, and a follow-up refers to it", async () => {
    expect((await ask("--thread", "shop", "省エネでCO2を減らしたい")).code).toBe(0);
    const saved = await ask("--thread", "shop", "この条件をウォッチ");
    expect(saved.stdout).toContain("ウォッチ1を保存しました");
    expect(saved.stdout).toContain("毎日9時（日本時間）");

    // Two of the subsidies known at saving count as new (a live sync would bring such), and the next
    // morning's run keeps the digest for the thread.
    const config = loadConfig(env);
    const store = await createThreadStore(config.store);
    const watching = createWatching(config.watch, {
      records: store.records,
      history: store,
      tools: catalog.host,
      clock: () => new Date("2026-08-23T09:00:00+09:00"),
      logger: silentLogger,
    });
    const [watch] = await watching.store.list("cli:shop");
    const fresh = watch!.seen.slice(1, 3);
    await watching.store.save("cli:shop", [
      { ...watch!, seen: watch!.seen.filter((id) => !fresh.includes(id)) },
    ]);
    if (watching.scheduler.kind !== "embedded") throw new Error("expected the embedded scheduler");
    const [digest] = await watching.scheduler.runDue();
    await store.close();
    expect(digest?.listed.map((s) => s.id)).toEqual(fresh);

    // Resumed: the digest comes first, then the answer, which reads the digest's list.
    const resumed = await ask("--thread", "shop", "2番目の詳細は？");
    expect(resumed.code).toBe(0);
    const [shown, answer] = resumed.stdout.split("\n\n────────\n\n");
    expect(shown).toContain("🔔 ウォッチ1:");
    expect(shown).toContain("新しく条件に合う補助金が2件あります。");
    expect(answer).toContain(digest!.listed[1]!.title);
    expect(answer).not.toContain(digest!.listed[0]!.title);

    // Shown once: the next resume has no digest.
    const again = await ask("--thread", "shop", "ウォッチ一覧");
    expect(again.stdout).not.toContain("🔔");
    expect(again.stdout).toContain("このスレッドのウォッチ（1件）");
  }, 60_000);
});
