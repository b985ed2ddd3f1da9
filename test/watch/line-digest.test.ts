/**
 * A watch on LINE through the real app: signed webhooks save a watch; digests are pushed only after the
 * chat opted in (「通知をオン」), at most WATCH_LINE_PUSHES_PER_MONTH a month, each push with a retry key
 * and the quota said in the message; the others wait for 「新着は？」.
 */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.ts";
import { silentLogger } from "../../src/logger.ts";
import { type RunningApp, startApp } from "../../src/main.ts";
import { appEnv, tempDir } from "../e2e/helpers/app.ts";
import {
  delivered,
  postbackEvent,
  postLine,
  SECRET,
  textEvent,
  textsOf,
  userSource,
} from "../e2e/helpers/line.ts";
import { type FakeLineApi, type LineCall, startFakeLineApi } from "../fakes/fake-line-api.ts";
import { changingCatalog, ENERGY, NOW, runDue } from "./changing-catalog.ts";

const USER = "U0watch000000000000000000000001";
const dir = tempDir("sc-watch-line-");
const catalog = changingCatalog();
let line: FakeLineApi;
let app: RunningApp;
let now = NOW;

beforeAll(async () => {
  line = await startFakeLineApi();
  const env = appEnv(join(dir.path, "threads.sqlite"), {
    slackSigningSecret: "unused-signing-secret",
    slackApiUrl: "http://127.0.0.1:9/api/",
    lineChannelSecret: SECRET,
    lineAccessToken: line.token,
    lineApiUrl: line.url,
  });
  delete env.SLACK_BOT_TOKEN;
  const config = loadConfig({ ...env, WATCH_LINE_PUSHES_PER_MONTH: "1", WATCH_CHECK_SECONDS: "0" });
  app = await startApp(config, silentLogger, { tools: catalog.host, clock: () => now });
});
afterAll(async () => {
  await app?.stop();
  await line?.close();
  dir.remove();
});

/** Sends an event and returns the reply it gets. */
async function send(event: unknown): Promise<LineCall> {
  const before = delivered(line.calls).length;
  expect(await postLine(app.url, [event])).toBe(200);
  await line.waitFor((calls) => delivered(calls).some((c, i) => i >= before && c.kind === "reply"), 20_000);
  return delivered(line.calls)
    .slice(before)
    .find((c) => c.kind === "reply")!;
}

/** Sends a message and returns the text of the reply it gets. */
const say = async (text: string, user = USER): Promise<string> =>
  textsOf(await send(textEvent(text, userSource(user))));

const pushes = (): LineCall[] => delivered(line.calls).filter((c) => c.kind === "push");

describe("a watch in a LINE chat", () => {
  it("pushes only after opt-in, within the monthly cap, and keeps the rest for 「新着は？」", async () => {
    const ids = await catalog.idsFor(ENERGY);
    for (const id of ids.slice(5)) catalog.hidden.add(id);
    await say("省エネでCO2を減らしたい");
    const saved = await say("この条件で新しいのが出たら教えて");
    expect(saved).toContain("ウォッチ1を保存しました");
    expect(saved).toContain("「通知をオン」と送ったトークだけです（月1回まで）");

    // Not opted in: the digest waits for the user to ask.
    catalog.hidden.delete(ids[5]!);
    now = new Date("2026-08-23T09:00:00+09:00");
    expect(await runDue(app)).toHaveLength(1);
    expect(pushes()).toEqual([]);
    expect(await say("新着は？")).toContain("新しく条件に合う補助金が1件あります");

    // Opted in: the next digest is pushed, with a retry key and the quota in words.
    expect(await say("通知をオン")).toContain("月1回まで");
    catalog.hidden.delete(ids[6]!);
    now = new Date("2026-08-24T09:00:00+09:00");
    await runDue(app);
    expect(pushes()).toHaveLength(1);
    const [push] = pushes();
    expect(push!.body.to).toBe(USER);
    expect(push!.headers["x-line-retry-key"]).toMatch(/^[0-9a-f-]{36}$/);
    expect(textsOf(push!)).toContain("新しく条件に合う補助金が1件あります");
    expect(textsOf(push!)).toContain("LINEのお知らせは月1回まで。今月はあと0回です");

    // The month's one push is used: the next digest is kept, not pushed.
    catalog.hidden.delete(ids[7]!);
    now = new Date("2026-08-25T09:00:00+09:00");
    await runDue(app);
    expect(pushes()).toHaveLength(1);
    expect(await say("新着は？")).toContain("新しく条件に合う補助金が1件あります");

    // A new month (JST) allows a push again.
    catalog.hidden.delete(ids[8]!);
    now = new Date("2026-09-01T09:00:00+09:00");
    await runDue(app);
    expect(pushes()).toHaveLength(2);
  });

  it("saves the watch from the 「この条件をウォッチ」 quick reply with the typed request's confirmation", async () => {
    const user = "U0watch000000000000000000000002";
    const answer = await send(textEvent("省エネでCO2を減らしたい", userSource(user)));
    const messages = answer.body.messages as Array<{
      quickReply?: { items: Array<{ action: { label: string; data: string } }> };
    }>;
    const item = messages
      .flatMap((m) => m.quickReply?.items ?? [])
      .find((i) => i.action.label === "🔔 この条件をウォッチ");
    expect(item).toBeDefined();
    // A tap sends the item's postback (signed like every webhook).
    const saved = textsOf(await send(postbackEvent(item!.action.data, userSource(user))));
    expect(saved).toContain("ウォッチ1を保存しました");
    expect(saved).toContain("省エネ");
    expect(saved).toContain("毎日9時（日本時間）");
    expect(saved).toContain("「ウォッチを止めて」");
    expect(saved).toContain("「通知をオン」と送ったトークだけです（月1回まで）");
    expect(await say("ウォッチ一覧", user)).toContain("このスレッドのウォッチ（1件）");
  });
});
