/**
 * The watch conversation through the real app (POST /chat, the bundled jGrants MCP server, the offline
 * planner, the memory store): save, schedule, reminder window, list, stop by number and all, the cap,
 * an unknown number and a thread with no search yet.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.ts";
import { silentLogger } from "../../src/logger.ts";
import { type RunningApp, startApp } from "../../src/main.ts";
import { type Json, readJson } from "../helpers/json.ts";

let app: RunningApp;
beforeAll(async () => {
  app = await startApp(
    loadConfig({
      PORT: "0",
      JGRANTS_SOURCE: "snapshot",
      JGRANTS_NOW: "2026-08-22T12:00:00+09:00",
      STORE_BACKEND: "memory",
      MCP_HEARTBEAT_MS: "0",
      WATCH_MAX_PER_THREAD: "2",
      WATCH_CHECK_SECONDS: "0",
    }),
    silentLogger,
  );
});
afterAll(async () => {
  await app?.stop();
});

async function chat(message: string, threadId: string): Promise<Json> {
  const res = await fetch(`${app.url}/chat`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ message, threadId }),
  });
  expect(res.status).toBe(200);
  return readJson(res);
}

describe("watch commands in a thread", () => {
  it("saves the last search, sets a weekly schedule and a reminder window, and says how to stop", async () => {
    const list = await chat("事業承継に使える補助金を教えて", "w-1");
    expect(list.kind).toBe("answer");
    expect(list.subsidies.length).toBeGreaterThan(0);

    const saved = await chat("この条件で新しいのが出たら教えて", "w-1");
    expect(saved.kind).toBe("watch");
    expect(saved.answer).toContain("ウォッチ1を保存しました");
    expect(saved.answer).toContain("事業承継");
    expect(saved.answer).toContain("毎日9時（日本時間）");
    expect(saved.answer).toContain("「ウォッチを止めて」");

    const weekly = await chat("毎週月曜に教えて", "w-1");
    expect(weekly.answer).toContain("ウォッチ1を更新しました");
    expect(weekly.answer).toContain("毎週月曜9時（日本時間）");

    const remind = await chat("締切の1週間前に知らせて", "w-1");
    expect(remind.answer).toContain("ウォッチ1を更新しました");
    expect(remind.answer).toContain("締切の7日前から");
    expect(remind.answer).toContain("毎週月曜9時");

    const listed = await chat("ウォッチ一覧", "w-1");
    expect(listed.answer).toContain("このスレッドのウォッチ（1件）");
    expect(listed.answer).toMatch(/1\. 「[^」]*事業承継[^」]*」.*毎週月曜9時.*締切7日前にお知らせ/);
  });

  it("keeps a watch command out of history: a follow-up still refers to the search", async () => {
    await chat("事業承継に使える補助金を教えて", "w-2");
    await chat("この条件をウォッチ", "w-2");
    const follow = await chat("2番目の詳細は？", "w-2");
    expect(follow.kind).toBe("answer");
    expect(follow.subsidies).toHaveLength(1);
  });

  it("refuses a watch without a previous search, with a way forward", async () => {
    const reply = await chat("この条件をウォッチ", "w-3");
    expect(reply.kind).toBe("watch");
    expect(reply.answer).toContain("ウォッチする検索条件がまだありません");
    expect((await chat("ウォッチ一覧", "w-3")).answer).toContain("このスレッドにウォッチはありません");
  });

  it("caps watches per thread, stops one by number, rejects an unknown number, stops all", async () => {
    await chat("事業承継に使える補助金を教えて", "w-4");
    expect((await chat("この条件をウォッチ", "w-4")).answer).toContain("ウォッチ1を保存しました");
    await chat("省エネ設備の補助金", "w-4");
    expect((await chat("この条件をウォッチ", "w-4")).answer).toContain("ウォッチ2を保存しました");
    await chat("創業支援の補助金", "w-4");
    const capped = await chat("この条件をウォッチ", "w-4");
    expect(capped.answer).toContain("ウォッチはこのスレッドで2件までです");

    const unknown = await chat("ウォッチ5を止めて", "w-4");
    expect(unknown.answer).toContain("ウォッチ5はありません");
    expect(unknown.answer).toContain("1〜2番");

    const one = await chat("ウォッチ１を止めて", "w-4");
    expect(one.answer).toContain("ウォッチ1");
    expect(one.answer).toContain("事業承継");
    const left = await chat("ウォッチ一覧", "w-4");
    expect(left.answer).toContain("（1件）");
    expect(left.answer).toContain("省エネ");
    expect(left.answer).not.toContain("事業承継");

    expect((await chat("ウォッチを止めて", "w-4")).answer).toContain("1件をすべて止めました");
    expect((await chat("ウォッチ一覧", "w-4")).answer).toContain("ウォッチはありません");
  });

  it("answers 「新着は？」 with nothing new right after saving (what matched then is the baseline)", async () => {
    await chat("事業承継に使える補助金を教えて", "w-5");
    await chat("この条件をウォッチ", "w-5");
    const news = await chat("新着は？", "w-5");
    expect(news.kind).toBe("watch");
    expect(news.answer).toBe("ウォッチの条件に合う新着はありません。");
  });
});
