/** The LINE webhook end to end: signed bodies through the SDK middleware, the fake Messaging API records. */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createLineAdapter, lineAdapterUrl } from "../../../adapters/line/index.ts";
import { silentLogger } from "../../../src/logger.ts";
import { createFakeAgent } from "../../fakes/fake-agent.ts";
import { type FakeLineApi, startFakeLineApi } from "../../fakes/fake-line-api.ts";
import { createMemoryStoreFake } from "../../fakes/memory-store.ts";
import { sampleReply } from "../../fakes/sample-subsidies.ts";
import {
  followEvent,
  groupSource,
  type Harness,
  lineConfig,
  postbackEvent,
  sign,
  startHarness,
  stickerEvent,
  textEvent,
  unfollowEvent,
  userSource,
} from "./helpers.ts";

let api: FakeLineApi;
let h: Harness;

beforeAll(async () => {
  api = await startFakeLineApi();
});
afterAll(async () => {
  await api.close();
});
afterEach(async () => {
  await h?.close();
  api.reset();
});

describe("LINE webhook", () => {
  it("answers a 1:1 question: loading animation, then a reply with summary and carousel", async () => {
    h = await startHarness(api);
    const event = textEvent("東京都でIT導入に使える補助金は？🙏👨‍👩‍👧");
    const res = await h.post([event]);
    expect(res.status).toBe(200);
    await api.waitFor((calls) => calls.some((c) => c.kind === "reply"));
    const loading = api.ok("loading");
    expect(loading[0]?.body).toMatchObject({ chatId: "U1234567890abcdef" });
    expect(loading[0]!.body.loadingSeconds).toBeLessThanOrEqual(60);
    expect(api.calls.findIndex((c) => c.kind === "loading")).toBeLessThan(
      api.calls.findIndex((c) => c.kind === "reply"),
    );
    const [reply] = api.ok("reply");
    expect(reply?.body.replyToken).toBe(event.replyToken);
    const messages = reply!.body.messages;
    expect(messages[0].type).toBe("text");
    expect(messages[0].text).toContain("10件見つかりました");
    expect(messages[0].text).toContain("他に7件");
    expect(messages[1]).toMatchObject({ type: "flex", contents: { type: "carousel" } });
    expect(messages[1].altText).toBeTruthy();
    expect(messages.at(-1).quickReply.items.length).toBeGreaterThan(0);
    expect(api.ok("push")).toHaveLength(0);
    expect(h.agent.turns[0]).toMatchObject({
      threadKey: "line:user:U1234567890abcdef",
      platform: "line",
      text: "東京都でIT導入に使える補助金は？🙏👨‍👩‍👧",
      eventId: event.webhookEventId,
    });
  });

  it("rejects a bad or missing signature with 401 and never runs the handler", async () => {
    h = await startHarness(api);
    const raw = JSON.stringify({ destination: "U", events: [textEvent("補助金")] });
    expect((await h.post([], { raw, signature: sign(`${raw} `) })).status).toBe(401);
    expect((await h.post([], { raw, signature: null })).status).toBe(401);
    expect((await h.post([], { raw, signature: sign(raw, "other-secret") })).status).toBe(401);
    expect((await h.post([], { raw: "{broken", signature: sign("{broken") })).status).toBe(400);
    expect(h.agent.turns).toHaveLength(0);
    expect(api.calls).toHaveLength(0);
  });

  it("ignores a group message without a mention and answers one with a mention (quietly, no loading)", async () => {
    h = await startHarness(api);
    await h.post([textEvent("今日のランチどうする？", groupSource())]);
    const mention = { mentionees: [{ index: 3, length: 7, type: "user", userId: "Ubot", isSelf: true }] };
    const mentioned = textEvent("😀😀 @補助金ボット 製造業の設備投資", groupSource(), mention);
    await h.post([mentioned]);
    await api.waitFor((calls) => calls.some((c) => c.kind === "reply"));
    expect(h.agent.turns).toHaveLength(1);
    expect(h.agent.turns[0]).toMatchObject({
      threadKey: "line:group:C0000group",
      text: "😀😀 製造業の設備投資",
    });
    expect(api.calls.filter((c) => c.kind === "loading")).toHaveLength(0);
    expect(api.ok("reply")[0]?.body.replyToken).toBe(mentioned.replyToken);
  });

  it("ignores the bot's own messages (source user is the webhook destination)", async () => {
    h = await startHarness(api);
    const raw = JSON.stringify({
      destination: "Ubot",
      events: [textEvent("補助金の回答", groupSource("C1", "Ubot"))],
    });
    await h.post([], { raw });
    await h.post([textEvent("補助金 IT", groupSource("C1", "Uhuman"))]);
    await api.waitFor((calls) => calls.some((c) => c.kind === "reply"));
    expect(h.agent.turns.map((t) => t.userId)).toEqual(["Uhuman"]);
  });

  it("answers a group message that starts with the prefix", async () => {
    h = await startHarness(api);
    await h.post([textEvent("補助金 大阪府の創業支援", { type: "room", roomId: "R1", userId: "U2" })]);
    await api.waitFor((calls) => calls.some((c) => c.kind === "reply"));
    expect(h.agent.turns[0]).toMatchObject({ threadKey: "line:room:R1", text: "補助金 大阪府の創業支援" });
  });

  it("welcomes a follower with example questions as quick replies; logs an unfollow", async () => {
    h = await startHarness(api);
    await h.post([followEvent(), unfollowEvent(userSource("Ugone"))]);
    await api.waitFor((calls) => calls.some((c) => c.kind === "reply"));
    const message = api.ok("reply")[0]!.body.messages[0];
    expect(message.text).toContain("友だち追加ありがとうございます");
    expect(message.quickReply.items.length).toBeGreaterThanOrEqual(3);
    expect(h.agent.turns).toHaveLength(0);
    expect(h.logs.join("")).toContain("unfollowed");
  });

  it("answers a sticker with short guidance, not the agent", async () => {
    h = await startHarness(api);
    await h.post([stickerEvent()]);
    await api.waitFor((calls) => calls.some((c) => c.kind === "reply"));
    expect(api.ok("reply")[0]!.body.messages[0].text).toContain("文字のメッセージ");
    expect(h.agent.turns).toHaveLength(0);
  });

  it("turns a card's 詳しく postback into a follow-up in the same chat, with its history", async () => {
    h = await startHarness(api, {
      agent: {
        reply: async (turn) => {
          const history = await h.store.load(turn.threadKey);
          const reply = sampleReply(3, { text: `履歴${history.length}件` });
          await h.store.append(turn.threadKey, {
            question: turn.text,
            answer: reply.text,
            subsidies: reply.subsidies.map((s) => ({ id: s.id, title: s.title })),
            conditions: reply.conditions,
            at: new Date(0).toISOString(),
          });
          return reply;
        },
      },
    });
    await h.post([textEvent("IT導入の補助金")]);
    await api.waitFor((calls) => calls.filter((c) => c.kind === "reply").length === 1);
    const card = api.ok("reply")[0]!.body.messages[1].contents.contents[1];
    const detail = card.footer.contents.find(
      (b: { action: { type: string } }) => b.action.type === "postback",
    ).action;
    expect(detail.label).toBe("詳しく");
    await h.post([postbackEvent(detail.data)]);
    await api.waitFor((calls) => calls.filter((c) => c.kind === "reply").length === 2);
    expect(h.agent.turns[1]).toMatchObject({
      threadKey: "line:user:U1234567890abcdef",
      text: "この補助金の詳細: a0WJ200000CD0002MAX",
    });
    expect(api.ok("reply")[1]!.body.messages.at(-1).text).toContain("履歴1件");
  });

  it("answers a redelivered event at most once", async () => {
    h = await startHarness(api);
    const event = textEvent("補助金を探して");
    await h.post([event]);
    await h.post([{ ...event, deliveryContext: { isRedelivery: true } }]);
    await api.waitFor((calls) => calls.some((c) => c.kind === "reply"));
    await h.adapter.stop();
    expect(h.agent.turns).toHaveLength(1);
    expect(api.calls.filter((c) => c.kind === "reply" || c.kind === "push")).toHaveLength(1);
  });

  it("passes 履歴を消して to the agent and renders the cleared reply as text", async () => {
    h = await startHarness(api, {
      agent: {
        reply: () =>
          sampleReply(0, { kind: "cleared", text: "この会話の履歴を消去しました。", totalCount: 0 }),
      },
    });
    await h.post([textEvent("履歴を消して")]);
    await api.waitFor((calls) => calls.some((c) => c.kind === "reply"));
    expect(h.agent.turns[0]?.text).toBe("履歴を消して");
    expect(api.ok("reply")[0]!.body.messages).toEqual([
      expect.objectContaining({ type: "text", text: "この会話の履歴を消去しました。" }),
    ]);
  });

  it("respects the allowlists", async () => {
    h = await startHarness(api, { config: { allowedUsers: ["Uallowed"], allowedGroups: ["Cok"] } });
    await h.post([
      textEvent("補助金", userSource("Ustranger")),
      textEvent("補助金 IT", groupSource("Cother")),
    ]);
    await h.post([textEvent("補助金", userSource("Uallowed")), textEvent("補助金 IT", groupSource("Cok"))]);
    await api.waitFor((calls) => calls.filter((c) => c.kind === "reply").length === 2);
    expect(h.agent.turns.map((t) => t.threadKey).sort()).toEqual(["line:group:Cok", "line:user:Uallowed"]);
  });

  it("listens on its own loopback server when no app is given", async () => {
    const agent = createFakeAgent();
    const adapter = createLineAdapter(lineConfig(api), {
      agent,
      store: createMemoryStoreFake(),
      logger: silentLogger,
    });
    await adapter.start();
    try {
      const url = lineAdapterUrl(adapter);
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const raw = JSON.stringify({ destination: "U", events: [textEvent("小規模事業者の販路開拓")] });
      const res = await fetch(`${url}/line/webhook`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-line-signature": sign(raw) },
        body: raw,
      });
      expect(res.status).toBe(200);
      await api.waitFor((calls) => calls.some((c) => c.kind === "reply"));
      expect(agent.turns[0]?.text).toBe("小規模事業者の販路開拓");
    } finally {
      await adapter.stop();
    }
    expect(lineAdapterUrl(adapter)).toBeUndefined();
  });
});
