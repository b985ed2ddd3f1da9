/** Reply-token-first delivery against the fake Messaging API: deadlines, invalid tokens, 429/500, quota. */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type FakeLineApi, startFakeLineApi } from "../../fakes/fake-line-api.ts";
import { sampleReply } from "../../fakes/sample-subsidies.ts";
import { type Harness, startHarness, textEvent } from "./helpers.ts";

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

const sent = (kind: "reply" | "push") => api.ok(kind).length;

describe("LINE delivery", () => {
  it("pushes a slow answer with a UUID retry key and never replies", async () => {
    h = await startHarness(api, { config: { replyDeadlineMs: 50 }, agent: { stepMs: 30 } });
    await h.post([textEvent("ゆっくり考えて")]);
    await api.waitFor((calls) => calls.some((c) => c.kind === "push"));
    await h.adapter.stop();
    const [push] = api.ok("push");
    expect(push?.headers["x-line-retry-key"]).toMatch(/^[0-9a-f-]{36}$/);
    expect(push?.body.to).toBe("U1234567890abcdef");
    expect(push?.body.messages[1].type).toBe("flex");
    expect(api.calls.filter((c) => c.kind === "reply")).toHaveLength(0);
  });

  it("falls back to exactly one push when the reply token is invalid", async () => {
    h = await startHarness(api);
    const event = textEvent("補助金");
    api.expireToken(event.replyToken);
    await h.post([event]);
    await api.waitFor((calls) => calls.some((c) => c.kind === "push"));
    await h.adapter.stop();
    expect(api.calls.filter((c) => c.kind === "reply").map((c) => c.status)).toEqual([400]);
    expect(api.calls.filter((c) => c.kind === "push")).toHaveLength(1);
    expect(sent("push")).toBe(1);
  });

  it("retries a push that got 500 after LINE accepted it: the retry key prevents a duplicate", async () => {
    h = await startHarness(api, { config: { replyDeadlineMs: 50 }, agent: { stepMs: 20 } });
    api.failNext("push", { status: 500, message: "Internal server error", acceptFirst: true });
    await h.post([textEvent("補助金")]);
    await api.waitFor((calls) => calls.filter((c) => c.kind === "push").length === 2);
    await h.adapter.stop();
    const pushes = api.calls.filter((c) => c.kind === "push");
    expect(pushes.map((c) => c.status)).toEqual([500, 409]);
    expect(pushes[0]?.headers["x-line-retry-key"]).toBe(pushes[1]?.headers["x-line-retry-key"]);
    expect(h.logs.join("")).not.toContain("LINE push failed");
  });

  it("retries a reply after 429 rate limiting and answers once", async () => {
    h = await startHarness(api);
    api.failNext("reply", { status: 429, message: "Too many requests" });
    await h.post([textEvent("補助金")]);
    await api.waitFor(() => sent("reply") === 1);
    await h.adapter.stop();
    expect(api.calls.filter((c) => c.kind === "reply").map((c) => c.status)).toEqual([429, 200]);
    expect(api.calls.filter((c) => c.kind === "push")).toHaveLength(0);
  });

  it("does not push after a reply whose 500 hid a delivery, so nothing is duplicated", async () => {
    h = await startHarness(api);
    const event = textEvent("補助金");
    api.failNext("reply", { status: 500, message: "Internal server error" });
    api.expireToken(event.replyToken); // the 500 consumed the token: LINE delivered it
    await h.post([event]);
    await api.waitFor((calls) => calls.filter((c) => c.kind === "reply").length === 2);
    await h.adapter.stop();
    expect(api.calls.filter((c) => c.kind === "push")).toHaveLength(0);
  });

  it("logs an exhausted push quota clearly and apologises by reply on the next message", async () => {
    h = await startHarness(api, {
      config: { replyDeadlineMs: 200 },
      agent: {
        // The first answer misses the reply deadline; the second is quick.
        reply: async (_turn, calls) => {
          if (calls.length === 1) await new Promise((r) => setTimeout(r, 400));
          return sampleReply(2);
        },
      },
    });
    api.quotaExhausted = true;
    await h.post([textEvent("補助金")]);
    await api.waitFor((calls) => calls.some((c) => c.kind === "quota-consumption"));
    await api.waitFor(() => h.logs.join("").includes("apology next time"));
    expect(h.logs.join("")).toContain("LINE push quota exhausted");
    expect(api.calls.filter((c) => c.kind === "push").map((c) => c.status)).toEqual([429]);

    await h.post([textEvent("もう一度")]);
    await api.waitFor(() => sent("reply") === 1);
    const messages = api.ok("reply")[0]!.body.messages;
    expect(messages[0].text).toContain("前回のご質問への回答");
    expect(messages.length).toBeLessThanOrEqual(5);
    expect(messages.some((m: { type: string }) => m.type === "flex")).toBe(true);
    expect(api.calls.filter((c) => c.kind === "push")).toHaveLength(1);
  });

  it("when the dedup store is down, answers a first delivery but not a redelivery", async () => {
    h = await startHarness(api);
    h.store.markDelivered = async () => {
      throw new Error("store down");
    };
    const first = textEvent("補助金");
    const again = { ...textEvent("補助金"), deliveryContext: { isRedelivery: true } };
    await h.post([first, again]);
    await api.waitFor(() => sent("reply") === 1);
    await h.adapter.stop();
    expect(h.agent.turns.map((t) => t.eventId)).toEqual([first.webhookEventId]);
    expect(h.logs.join("")).toContain("LINE dedup check failed");
  });

  it("answers with an apology text when the agent fails", async () => {
    h = await startHarness(api, {
      agent: {
        reply: () => {
          throw new Error("boom");
        },
      },
    });
    await h.post([textEvent("補助金")]);
    await api.waitFor(() => sent("reply") === 1);
    expect(api.ok("reply")[0]!.body.messages[0].text).toContain("エラーが発生しました");
  });
});
