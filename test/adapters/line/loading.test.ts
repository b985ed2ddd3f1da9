/** loading.ts: the animation is started at once and re-issued before it ends, until stopped. */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createLineApi } from "../../../adapters/line/client.ts";
import { keepLoading } from "../../../adapters/line/loading.ts";
import { silentLogger } from "../../../src/logger.ts";
import { type FakeLineApi, startFakeLineApi } from "../../fakes/fake-line-api.ts";
import { groupSource, type Harness, startHarness, textEvent } from "./helpers.ts";

let fake: FakeLineApi;
beforeAll(async () => {
  fake = await startFakeLineApi();
});
afterAll(async () => {
  await fake.close();
});

describe("keepLoading", () => {
  it("re-issues the animation while working and stops when told", async () => {
    const api = createLineApi({ channelAccessToken: fake.token, baseURL: fake.url });
    const stop = keepLoading(api, "Uchat", { seconds: 20, refreshMs: 100, logger: silentLogger });
    await fake.waitFor((calls) => calls.filter((c) => c.kind === "loading").length >= 3);
    stop();
    const count = fake.calls.length;
    await new Promise((r) => setTimeout(r, 250));
    expect(fake.calls.length).toBe(count);
    for (const call of fake.calls) {
      expect(call.status).toBe(202);
      expect(call.body).toEqual({ chatId: "Uchat", loadingSeconds: 20 });
    }
  });

  it("keeps loadingSeconds within LINE's 5–60 in steps of 5, and survives API errors", async () => {
    fake.reset();
    const api = createLineApi({ channelAccessToken: fake.token, baseURL: fake.url });
    await api.showLoading("U", 999);
    await api.showLoading("U", 1);
    expect(fake.calls.map((c) => c.body.loadingSeconds)).toEqual([60, 5]);
    fake.failNext("loading", { status: 500, message: "boom" });
    const stop = keepLoading(api, "U", { logger: silentLogger });
    await fake.waitFor((calls) => calls.some((c) => c.status === 500));
    stop();
  });
});

describe("loading animation through the webhook (timing from the adapter's deps)", () => {
  let h: Harness | undefined;
  beforeEach(() => {
    fake.reset();
  });
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it("keeps the animation going in a 1:1 chat until the reply, and never after it", async () => {
    h = await startHarness(fake, {
      agent: { stepMs: 120 },
      tuning: { loading: { seconds: 5, refreshMs: 100 } },
    });
    await h.post([textEvent("ゆっくり考えて")]);
    await fake.waitFor((calls) => calls.some((c) => c.kind === "reply"));
    await h.adapter.stop();
    const kinds = fake.calls.map((c) => c.kind);
    const replyAt = kinds.indexOf("reply");
    expect(kinds.slice(0, replyAt).filter((k) => k === "loading").length).toBeGreaterThanOrEqual(3);
    expect(kinds.slice(replyAt + 1)).not.toContain("loading");
    for (const call of fake.calls.filter((c) => c.kind === "loading")) {
      expect(call.body).toEqual({ chatId: "U1234567890abcdef", loadingSeconds: 5 });
    }
  });

  it("shows no animation in a group, however long the agent takes", async () => {
    h = await startHarness(fake, {
      agent: { stepMs: 60 },
      tuning: { loading: { seconds: 5, refreshMs: 100 } },
    });
    await h.post([textEvent("補助金 設備投資", groupSource())]);
    await fake.waitFor((calls) => calls.some((c) => c.kind === "reply"));
    await h.adapter.stop();
    expect(fake.calls.map((c) => c.kind)).toEqual(["reply"]);
  });
});
