/** loading.ts: the animation is started at once and re-issued before it ends, until stopped. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLineApi } from "../../../adapters/line/client.ts";
import { keepLoading } from "../../../adapters/line/loading.ts";
import { silentLogger } from "../../../src/logger.ts";
import { type FakeLineApi, startFakeLineApi } from "../../fakes/fake-line-api.ts";

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
