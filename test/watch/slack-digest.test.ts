/**
 * A watch on Slack through the real app: signed Events API deliveries save a watch in a channel thread,
 * the catalog gains a subsidy, and the scheduler's run posts the digest into that same thread through the
 * fake Slack Web API (chat.postMessage with thread_ts), once.
 */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { whenSlackIdle } from "../../adapters/slack/index.ts";
import { WATCH_ACTION_ID } from "../../adapters/slack/render.ts";
import type { RunningApp } from "../../src/main.ts";
import { buttonClick } from "../adapters/slack/harness.ts";
import { adapterOf, startE2eApp, tempDir } from "../e2e/helpers/app.ts";
import {
  BOT_ID,
  BOT_USER,
  blocksText,
  deliverSlack,
  envelope,
  mentionEvent,
  messageEvent,
  SIGNING_SECRET,
  TEAM,
} from "../e2e/helpers/slack.ts";
import { type FakeLineApi, startFakeLineApi } from "../fakes/fake-line-api.ts";
import { type FakeSlackApi, type RecordedCall, startFakeSlackApi } from "../fakes/fake-slack-api.ts";
import { changingCatalog, NOW, runDue } from "./changing-catalog.ts";

const CHANNEL = "C0WATCH01";
const QUESTION = "省エネでCO2を減らしたい";
const dir = tempDir("sc-watch-slack-");
const catalog = changingCatalog();
let slack: FakeSlackApi;
let line: FakeLineApi;
let app: RunningApp;
let now = NOW;

beforeAll(async () => {
  slack = await startFakeSlackApi({ botUserId: BOT_USER, botId: BOT_ID, teamId: TEAM });
  line = await startFakeLineApi();
  const keys = {
    slackSigningSecret: SIGNING_SECRET,
    slackApiUrl: slack.url,
    lineChannelSecret: "watch-line-secret",
    lineAccessToken: line.token,
    lineApiUrl: line.url,
  };
  app = await startE2eApp(join(dir.path, "threads.sqlite"), keys, { tools: catalog.host, clock: () => now });
});
afterAll(async () => {
  await app?.stop();
  await Promise.allSettled([slack?.close(), line?.close()]);
  dir.remove();
});

const postsIn = (threadTs: string) => (calls: RecordedCall[]) =>
  calls.filter(
    (c) =>
      c.method === "chat.postMessage" &&
      c.outcome === "ok" &&
      c.params.channel === CHANNEL &&
      c.params.thread_ts === threadTs,
  );

describe("a watch in a Slack thread", () => {
  it("confirms the watch in the thread and later posts the digest of a new subsidy there", async () => {
    const ids = await catalog.idsFor({ keywords: [], query: QUESTION, acceptance: "1" });
    const [, , newcomer] = ids;
    expect(newcomer).toBeDefined();
    // The third one is not in the catalog yet.
    catalog.hidden.add(newcomer!);
    const mention = mentionEvent(QUESTION, { channel: CHANNEL });
    expect(await deliverSlack(app.url, envelope(mention))).toBe(200);
    await whenSlackIdle(adapterOf(app, "slack"));

    const watch = messageEvent("この条件で新しいのが出たら教えて", {
      channel: CHANNEL,
      threadTs: mention.ts,
    });
    expect(await deliverSlack(app.url, envelope(watch))).toBe(200);
    await whenSlackIdle(adapterOf(app, "slack"));
    const confirmed = postsIn(mention.ts)(slack.calls).map(blocksText).join("\n");
    expect(confirmed).toContain("ウォッチ1を保存しました");
    expect(confirmed).toContain("毎日9時（日本時間）");

    // Next morning the catalog has it; the scheduler's run posts into the thread.
    catalog.hidden.clear();
    now = new Date("2026-08-23T09:00:00+09:00");
    const before = postsIn(mention.ts)(slack.calls).length;
    const sent = await runDue(app);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.newIds).toEqual([newcomer]);
    const digest = postsIn(mention.ts)(slack.calls).slice(before);
    expect(digest.length).toBeGreaterThan(0);
    const shown = digest.map(blocksText).join("\n");
    expect(shown).toContain("ウォッチ1");
    expect(shown).toContain("新しく条件に合う補助金が1件あります");
    expect(shown).toContain("Jグランツで見る");

    // A second run at the same moment posts nothing more.
    expect(await runDue(app)).toEqual([]);
    expect(postsIn(mention.ts)(slack.calls).length).toBe(before + digest.length);
  });

  it("saves the watch from the 「この条件をウォッチ」 button and confirms it in the thread", async () => {
    const mention = mentionEvent(QUESTION, { channel: CHANNEL });
    expect(await deliverSlack(app.url, envelope(mention))).toBe(200);
    await whenSlackIdle(adapterOf(app, "slack"));
    // The list answer carries the button; a click is a signed block_actions payload from that message.
    const answer = postsIn(mention.ts)(slack.calls).find((c) =>
      JSON.stringify(c.params.blocks ?? []).includes(WATCH_ACTION_ID),
    );
    expect(answer).toBeDefined();
    const button = (answer!.params.blocks as Array<{ elements?: Array<Record<string, unknown>> }>)
      .flatMap((b) => b.elements ?? [])
      .find((e) => e.action_id === WATCH_ACTION_ID)!;
    expect(button.text).toMatchObject({ text: "🔔 この条件をウォッチ" });
    const before = postsIn(mention.ts)(slack.calls).length;
    const click = buttonClick({
      userId: "U0WATCH02",
      channel: CHANNEL,
      messageTs: String(answer!.response?.ts),
      threadTs: mention.ts,
      actionId: String(button.action_id),
      value: String(button.value),
    });
    expect(await deliverSlack(app.url, click, { form: true })).toBe(200);
    await whenSlackIdle(adapterOf(app, "slack"));
    const confirmed = postsIn(mention.ts)(slack.calls).slice(before).map(blocksText).join("\n");
    // The same confirmation as the typed request: conditions in words, schedule, how to stop.
    expect(confirmed).toContain("ウォッチ1を保存しました");
    expect(confirmed).toContain("省エネ");
    expect(confirmed).toContain("毎日9時（日本時間）");
    expect(confirmed).toContain("「ウォッチを止めて」");
    const threadKey = `slack:${TEAM}:${CHANNEL}:${mention.ts}`;
    expect(await app.core.watching!.store.list(threadKey)).toHaveLength(1);
  });
});
