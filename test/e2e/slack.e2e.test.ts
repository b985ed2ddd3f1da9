/**
 * Slack end to end through the real app: startApp(loadConfig(env)) with the offline agent, the bundled
 * jGrants MCP server and a SQLite file; signed Events API deliveries to /slack/events; the fake Slack Web
 * API records what the thread shows. Facts in the blocks are checked against POST /chat for the same
 * question and against the snapshot records. The app is then restarted on the same SQLite file.
 */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { whenSlackIdle } from "../../adapters/slack/index.ts";
import type { RunningApp } from "../../src/main.ts";
import { type FakeLineApi, startFakeLineApi } from "../fakes/fake-line-api.ts";
import { type FakeSlackApi, startFakeSlackApi } from "../fakes/fake-slack-api.ts";
import type { Json } from "../helpers/json.ts";
import {
  adapterOf,
  chatReply,
  gatedCoreTools,
  jstDate,
  type PlatformKeys,
  snapshotDate,
  snapshotRecord,
  startE2eApp,
  tempDir,
} from "./helpers/app.ts";
import {
  BOT_ID,
  BOT_USER,
  blocksText,
  deliverSlack,
  envelope,
  mentionEvent,
  messageEvent,
  SIGNING_SECRET,
  subsidySections,
  TEAM,
  waitForAnswer,
} from "./helpers/slack.ts";

const QUESTION = "事業承継に使える補助金を教えて";
const CHANNEL = "C0CHAN001";
const dir = tempDir();
const sqlitePath = join(dir.path, "threads.sqlite");
let slack: FakeSlackApi;
let line: FakeLineApi;
let keys: PlatformKeys;
let app: RunningApp;
let reference: Json;
const mention = mentionEvent(QUESTION, { channel: CHANNEL });
const first = envelope(mention);

beforeAll(async () => {
  slack = await startFakeSlackApi({ botUserId: BOT_USER, botId: BOT_ID, teamId: TEAM });
  line = await startFakeLineApi();
  keys = {
    slackSigningSecret: SIGNING_SECRET,
    slackApiUrl: slack.url,
    lineChannelSecret: "e2e-line-secret",
    lineAccessToken: line.token,
    lineApiUrl: line.url,
  };
});
afterAll(async () => {
  await app?.stop();
  await Promise.allSettled([slack?.close(), line?.close()]);
  dir.remove();
});

/** Fields a user acts on, as the n-th section must show them for a subsidy of the reference reply. */
function expectSectionShows(section: { text: string; fields: Record<string, string> }, s: Json, n: number) {
  expect(section.text).toContain(`*${n}. <${s.url}|${s.title}>*`);
  expect(section.fields.上限額).toBe(s.maxAmountText);
  expect(section.fields.締切).toContain(jstDate(s.end.iso));
  expect(section.fields.締切).toContain(`あと${s.daysLeft}日`);
  // The snapshot's date is said once: beside the first card's status.
  expect(section.fields.受付状況).toBe(n === 1 ? `${snapshotDate()}時点: ${s.status}` : s.status);
  // A city's programme shows its city after the prefecture (長野県茅野市).
  expect(section.fields.対象地域).toBe(s.city ? `${s.area}${s.city}` : s.area);
}

describe("Slack through the real app", () => {
  it("answers a channel mention in its thread: status, progress, then blocks with the snapshot's facts", async () => {
    const gate = gatedCoreTools(sqlitePath, keys);
    app = await startE2eApp(sqlitePath, keys, { tools: gate.host });
    expect(slack.accepted("auth.test")).toHaveLength(1);
    reference = await chatReply(app, QUESTION, "e2e-slack-reference");
    expect(reference.subsidies.length).toBeGreaterThan(1);
    for (const s of reference.subsidies) {
      const record = snapshotRecord(s.id);
      expect(s.title).toBe(record.title);
      expect(s.url).toBe(record.front_subsidy_detail_page_url);
      expect(s.maxAmountYen).toBe(record.subsidy_max_limit);
      expect(s.end.iso).toBe(record.acceptance_end_datetime);
    }

    // The search is held until the status line has been edited once (edits come at most once a second).
    const release = gate.hold();
    const from = slack.calls.length;
    expect(await deliverSlack(app.url, first)).toBe(200);
    await slack.waitFor((calls) => calls.slice(from).some((c) => c.method === "chat.update"));
    release();
    const answer = await waitForAnswer(slack, from, CHANNEL, mention.ts);

    expect(answer.status.params.text).toBe("🔍 補助金を検索しています…");
    const progress = answer.updates.map((u) => String(u.params.text));
    expect(progress[0]).toBe("🔍「事業承継」で検索中");
    expect(progress.join("\n")).not.toMatch(/search_subsidies|get_subsidy_detail|jgrants|\{/);
    expect(answer.answers.length).toBeGreaterThan(0);
    expect(answer.answers.every((c) => c.params.thread_ts === mention.ts)).toBe(true);

    const sections = subsidySections(answer.answers);
    expect(sections).toHaveLength(reference.subsidies.length);
    reference.subsidies.forEach((s: Json, i: number) => {
      expectSectionShows(sections[i]!, s, i + 1);
      expect(sections[i]!.fields.上限額).toBe(`${snapshotRecord(s.id).subsidy_max_limit! / 10_000}万円`);
    });
    const text = answer.answers.map(blocksText).join("\n");
    expect(text).toContain("「事業承継」");
    expect(text).toContain("出典: <https://www.jgrants-portal.go.jp/|Jグランツ>");
    expect(snapshotDate()).toBe("2026-08-22");
    expect(text.split(snapshotDate())).toHaveLength(2);
    expect(text.match(/\d+件/g)?.filter((t) => t === `${reference.totalCount}件`)).toHaveLength(1);
    // The fallback text reaches each subsidy without blocks.
    for (const s of reference.subsidies) expect(String(answer.answers[0]!.params.text)).toContain(s.url);
  });

  it("answers a thread reply without a mention with the 2nd subsidy's details", async () => {
    const from = slack.calls.length;
    const followUp = messageEvent("2番目の詳細は？", { channel: CHANNEL, threadTs: mention.ts });
    expect(await deliverSlack(app.url, envelope(followUp))).toBe(200);
    const answer = await waitForAnswer(slack, from, CHANNEL, mention.ts);

    const second = reference.subsidies[1];
    // The detail record's facts as the agent gives them for the same follow-up.
    const viaChat = await chatReply(app, "2番目の詳細は？", "e2e-slack-reference");
    expect(viaChat.subsidies.map((s: Json) => s.id)).toEqual([second.id]);
    const detail = viaChat.subsidies[0];
    const fields = Object.assign({}, ...subsidySections(answer.answers).map((s) => s.fields));
    expect(fields).toMatchObject({
      上限額: detail.maxAmountText,
      補助率: detail.rate,
      従業員規模: detail.employees,
      受付開始: detail.start.jst,
      利用目的: detail.purpose,
    });
    const text = answer.answers.map(blocksText).join("\n");
    // Labelled as details: the title without a number, no count, no conditions, and the portal link.
    expect(text).toContain(`*<${second.url}|${second.title}>*`);
    expect(text).not.toMatch(/見つかりました|検索条件|\*1\. /);
    const buttons = answer.answers.flatMap((c) =>
      (c.params.blocks as Json[]).flatMap((b) => b.elements ?? []),
    );
    expect(buttons.map((b: Json) => b.url)).toContain(second.url);
    if (detail.multipleApplications !== null) expect(fields.複数回申請).toMatch(/^(可|不可)/);
  });

  it("drops Slack's retry of the first event: no second answer", async () => {
    const from = slack.calls.length;
    expect(await deliverSlack(app.url, first, { retryNum: 1 })).toBe(200);
    await whenSlackIdle(adapterOf(app, "slack"));
    expect(slack.calls.slice(from).filter((c) => c.method === "chat.postMessage")).toEqual([]);
  });

  it("rejects bad and missing signatures with 401 and answers nothing", async () => {
    const from = slack.calls.length;
    const forged = envelope(mentionEvent("補助金を教えて", { channel: CHANNEL }));
    expect(await deliverSlack(app.url, forged, { signature: "bad" })).toBe(401);
    expect(await deliverSlack(app.url, forged, { signature: "missing" })).toBe(401);
    await whenSlackIdle(adapterOf(app, "slack"));
    expect(slack.calls.slice(from)).toEqual([]);
  });

  it("after a restart on the same SQLite file, 大阪府なら？ in the thread searches 大阪府 with the first keyword", async () => {
    await app.stop();
    const gate = gatedCoreTools(sqlitePath, keys);
    app = await startE2eApp(sqlitePath, keys, { tools: gate.host });
    const viaChat = await chatReply(app, "大阪府なら？", "e2e-slack-reference");
    expect(viaChat.plan[0].tool).toBe("find_subsidies");
    expect(viaChat.plan[0].args.query).toContain("事業承継");
    expect(viaChat.plan[0].args.area).toBe("大阪府");

    const release = gate.hold();
    const from = slack.calls.length;
    const followUp = messageEvent("大阪府なら？", { channel: CHANNEL, threadTs: mention.ts });
    expect(await deliverSlack(app.url, envelope(followUp))).toBe(200);
    await slack.waitFor((calls) => calls.slice(from).some((c) => c.method === "chat.update"));
    release();
    const answer = await waitForAnswer(slack, from, CHANNEL, mention.ts);

    // The thread's status line shows the first search: the first question's keyword, now in 大阪府.
    expect(answer.updates[0]?.params.text).toMatch(/^🔍「事業承継.*」で検索中（大阪府）$/);
    // The Slack answer says what /chat says: the thread's need, now searched in 大阪府.
    const summary = blocksText(answer.answers[0]!);
    expect(summary).toContain("大阪府");
    expect(summary).toContain("事業承継");
    const titles = subsidySections(answer.answers).map((s) => s.text.split("\n")[0]);
    expect(titles).toEqual(
      viaChat.subsidies.map((s: Json, i: number) => `*${i + 1}. <${s.url}|${s.title}>*`),
    );

    // The delivery marks survived the restart too: a late retry of the first event is still dropped.
    const late = slack.calls.length;
    expect(await deliverSlack(app.url, first, { retryNum: 2 })).toBe(200);
    await whenSlackIdle(adapterOf(app, "slack"));
    expect(slack.calls.slice(late).filter((c) => c.method === "chat.postMessage")).toEqual([]);
  });
});
