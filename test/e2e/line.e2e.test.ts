/**
 * LINE end to end through the real app: startApp(loadConfig(env)) with the offline agent, the bundled
 * jGrants MCP server and a SQLite file; signed webhooks to /line/webhook; the fake Messaging API records
 * the loading animation and the replies. Bubbles are checked against POST /chat for the same question
 * and against the snapshot records. Last, the SQLite path is broken and the user is still answered.
 */

import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningApp } from "../../src/main.ts";
import { areaLabel } from "../../src/subsidies/present.ts";
import { type FakeLineApi, startFakeLineApi } from "../fakes/fake-line-api.ts";
import { type FakeSlackApi, startFakeSlackApi } from "../fakes/fake-slack-api.ts";
import { type Json, readJson } from "../helpers/json.ts";
import { chatReply, type PlatformKeys, snapshotRecord, startE2eApp, tempDir } from "./helpers/app.ts";
import {
  bubblesOf,
  delivered,
  postbackEvent,
  postLine,
  readBubble,
  SECRET,
  textEvent,
  textsOf,
  userSource,
} from "./helpers/line.ts";

const USER = "U0e2e0000000000000000000000line1";
const QUESTION = "省エネ設備の補助金を探して";
const NOT_SAVED = "この回答は会話履歴に保存できませんでした";
const dir = tempDir();
const sqlitePath = join(dir.path, "threads.sqlite");
let line: FakeLineApi;
let slack: FakeSlackApi;
let keys: PlatformKeys;
let app: RunningApp;
let reference: Json;
const first = textEvent(QUESTION, userSource(USER));

beforeAll(async () => {
  line = await startFakeLineApi("e2e-line-access-token");
  slack = await startFakeSlackApi();
  keys = {
    slackSigningSecret: "e2e-slack-signing-secret",
    slackApiUrl: slack.url,
    lineChannelSecret: SECRET,
    lineAccessToken: line.token,
    lineApiUrl: line.url,
  };
  app = await startE2eApp(sqlitePath, keys);
  reference = await chatReply(app, QUESTION, "e2e-line-reference");
});
afterAll(async () => {
  await app?.stop();
  await Promise.allSettled([line?.close(), slack?.close()]);
  dir.remove();
});

/** Posts events and waits for the delivery they cause (the n-th reply or push overall). */
async function ask(events: unknown[]): Promise<Json> {
  const before = delivered(line.calls).length;
  expect(await postLine(app.url, events)).toBe(200);
  await line.waitFor((calls) => delivered(calls).length > before, 20_000);
  return delivered(line.calls)[before];
}

/** The bubble must show the reference reply's subsidy, whose facts are the snapshot record's. */
function expectBubbleShows(bubble: ReturnType<typeof readBubble>, s: Json, dated = false) {
  const record = snapshotRecord(s.id);
  expect(bubble.title).toBe(record.title);
  expect(bubble.uri).toBe(record.front_subsidy_detail_page_url);
  expect(bubble.rows.上限額).toBe(s.maxAmountText);
  if (!record.subsidy_max_limit) expect(bubble.rows.上限額).toBe("公募要領を確認");
  expect(bubble.rows.締切).toBe(`${s.end.jst}（あと${s.daysLeft}日）`);
  expect(s.end.iso).toBe(record.acceptance_end_datetime);
  // The snapshot's date is said once: beside the first bubble's status.
  expect(bubble.rows.受付状況).toBe(dated ? `2026-08-22時点: ${s.status}` : s.status);
  // The area as the renderers shorten it (a city programme shows its city; long lists say 「ほかN地域」).
  expect(bubble.rows.対象地域).toBe(areaLabel(s, "—"));
}

describe("LINE through the real app", () => {
  it("answers a 1:1 question: loading animation, then a reply with the summary and a Flex carousel", async () => {
    const reply = await ask([first]);
    const loading = line.calls.findIndex((c) => c.kind === "loading");
    expect(loading).toBeGreaterThanOrEqual(0);
    expect(line.calls[loading]!.body.chatId).toBe(USER);
    expect(loading).toBeLessThan(line.calls.indexOf(reply));
    expect(reply.kind).toBe("reply");
    expect(reply.body.replyToken).toBe(first.replyToken);

    const summary = reply.body.messages[0];
    expect(summary.type).toBe("text");
    expect(summary.text).toContain(`📋 ${reference.totalCount}件見つかりました。`);
    expect(JSON.stringify(reply.body.messages).match(/2026-08-22/g)).toHaveLength(1);
    const bubbles = bubblesOf(reply).map(readBubble);
    expect(bubbles).toHaveLength(reference.subsidies.length);
    reference.subsidies.forEach((s: Json, i: number) => {
      expectBubbleShows(bubbles[i]!, s, i === 0);
    });
    // No message repeats the cards: the facts are in the bubbles only.
    const plain = reply.body.messages.filter((m: Json) => m.type === "text").map((m: Json) => m.text);
    expect(plain.join("\n")).not.toContain("上限額");
    expect(plain.join("\n").match(/件見つかりました/g)).toHaveLength(1);
    expect(line.ok("push")).toEqual([]);
  });

  it("answers the 詳しく postback of the second bubble with that subsidy's details", async () => {
    const firstReply = delivered(line.calls)[0]!;
    const button = readBubble(bubblesOf(firstReply)[1]).postback;
    expect(button?.label).toBe("詳しく");
    const reply = await ask([postbackEvent(button!.data, userSource(USER))]);

    const second = reference.subsidies[1];
    const bubbles = bubblesOf(reply).map(readBubble);
    expect(bubbles).toHaveLength(1);
    const viaChat = await chatReply(app, "2番目の詳細は？", "e2e-line-reference");
    expect(viaChat.subsidies.map((s: Json) => s.id)).toEqual([second.id]);
    const detail = viaChat.subsidies[0];
    expectBubbleShows(bubbles[0]!, detail, true);
    expect(bubbles[0]!.rows.補助率).toBe(detail.rate ?? "公募要領を確認");
    expect(bubbles[0]!.rows.従業員規模).toBe(detail.employees);
    if (detail.start) expect(bubbles[0]!.rows.受付開始).toBe(detail.start.jst);
    if (detail.purpose) expect(bubbles[0]!.rows.利用目的).toBe(detail.purpose);
    expect(bubbles[0]!.title).toBe(second.title);
    // Labelled as details, with no 詳しく button and no count.
    expect(bubbles[0]!.postback).toBeUndefined();
    expect(textsOf(reply)).not.toMatch(/件見つかりました/);
  });

  it("answers a redelivered event at most once, then forgets the chat on 履歴を消して", async () => {
    const before = delivered(line.calls).length;
    const redelivery = { ...first, deliveryContext: { isRedelivery: true } };
    expect(await postLine(app.url, [redelivery])).toBe(200);
    // Events of one chat are worked in order: once the next one is answered, the redelivery was handled.
    const cleared = await ask([textEvent("履歴を消して", userSource(USER))]);
    expect(delivered(line.calls).slice(before)).toEqual([cleared]);
    expect(textsOf(cleared)).toContain("会話履歴を削除しました");

    const after = await ask([textEvent("2番目の詳細は？", userSource(USER))]);
    expect(textsOf(after)).toContain("どの補助金のことか分かりませんでした");
    expect(bubblesOf(after)).toEqual([]);
  });

  it("rejects a webhook signed with another secret (401) and answers nothing", async () => {
    const before = line.calls.length;
    const forged = textEvent("補助金を教えて", userSource(USER));
    expect(await postLine(app.url, [forged], { secret: "not-the-channel-secret" })).toBe(401);
    // A correctly signed event afterwards is answered, and it is the only delivery since.
    const next = await ask([textEvent("履歴を消して", userSource(USER))]);
    expect(line.calls.slice(before).filter((c) => c.kind === "reply" || c.kind === "push")).toEqual([next]);
    expect(next.body.replyToken).not.toBe(forged.replyToken);
  });

  it("still answers, with a note, when the SQLite store is broken (its path is now a directory)", async () => {
    await app.stop();
    for (const suffix of ["", "-wal", "-shm"]) rmSync(`${sqlitePath}${suffix}`, { force: true });
    mkdirSync(sqlitePath);
    app = await startE2eApp(sqlitePath, keys);
    const health = await readJson(await fetch(`${app.url}/healthz`));
    expect(health.components.store.ok).toBe(false);

    const reply = await ask([textEvent(QUESTION, userSource(USER))]);
    expect(reply.kind).toBe("reply");
    expect(textsOf(reply)).toContain(NOT_SAVED);
    const bubbles = bubblesOf(reply).map(readBubble);
    expect(bubbles.map((b) => b.title)).toEqual(reference.subsidies.map((s: Json) => s.title));
  });
});
