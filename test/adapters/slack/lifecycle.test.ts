/**
 * Deliveries that never got through: before start() (auth.test not done) and after stop() the endpoint
 * answers 503, so Slack retries; the retry is answered once, here or by the next instance on the same store.
 */
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { afterEach, describe, expect, it } from "vitest";
import { createSlackAdapter, whenSlackIdle } from "../../../adapters/slack/index.ts";
import { createFakeAgent } from "../../fakes/fake-agent.ts";
import { type FakeSlackApi, startFakeSlackApi } from "../../fakes/fake-slack-api.ts";
import { createMemoryStoreFake } from "../../fakes/memory-store.ts";
import { BOT_ID, BOT_USER, envelope, mentionEvent, signedHeaders, slackConfig, TEAM } from "./harness.ts";

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const configFor = (fake: FakeSlackApi) => slackConfig(fake.url);

/** Listens with an Express app on loopback; returns the events URL (closed after the test). */
async function serve(app: express.Application): Promise<string> {
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, "127.0.0.1", () => resolve(s));
  });
  cleanups.push(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/slack/events`;
}

/** Sends a signed delivery as Slack would (a retry carries X-Slack-Retry-Num); returns the status. */
async function send(url: string, body: object, retryNum?: number): Promise<number> {
  const raw = JSON.stringify(body);
  const headers: Record<string, string> = { "content-type": "application/json", ...signedHeaders(raw) };
  if (retryNum !== undefined) headers["x-slack-retry-num"] = String(retryNum);
  const res = await fetch(url, { method: "POST", headers, body: raw });
  await res.text();
  return res.status;
}

describe("Slack deliveries that never got through", () => {
  it("answers 503 before start(), then answers Slack's retry once", async () => {
    const fake = await startFakeSlackApi({ botUserId: BOT_USER, botId: BOT_ID, teamId: TEAM });
    cleanups.push(() => fake.close());
    const app = express();
    const agent = createFakeAgent();
    const adapter = createSlackAdapter(configFor(fake), { agent, store: createMemoryStoreFake(), app });
    cleanups.push(() => adapter.stop());
    const url = await serve(app);
    const early = envelope(mentionEvent("起動中の質問"));
    expect(await send(url, early)).toBe(503);
    await adapter.start();
    expect(await send(url, early, 1)).toBe(200);
    expect(await send(url, early, 2)).toBe(200);
    await whenSlackIdle(adapter);
    expect(agent.turns.map((t) => t.text)).toEqual(["起動中の質問"]);
    expect(fake.accepted("chat.postMessage")).toHaveLength(2);
  });

  it("answers 503 after stop(); the retry is answered once by the next instance on the same store", async () => {
    const fake = await startFakeSlackApi({ botUserId: BOT_USER, botId: BOT_ID, teamId: TEAM });
    cleanups.push(() => fake.close());
    const store = createMemoryStoreFake();
    const app = express();
    const old = createFakeAgent();
    const adapter = createSlackAdapter(configFor(fake), { agent: old, store, app });
    cleanups.push(() => adapter.stop());
    const url = await serve(app);
    await adapter.start();
    await adapter.stop();
    const late = envelope(mentionEvent("停止中の質問"));
    expect(await send(url, late)).toBe(503);

    // The next instance builds its own Express app (no deps.app).
    const agent = createFakeAgent();
    const next = createSlackAdapter(configFor(fake), { agent, store });
    cleanups.push(() => next.stop());
    await next.start();
    const nextUrl = await serve((next.receiver as { app: express.Application }).app);
    expect(await send(nextUrl, late, 1)).toBe(200);
    expect(await send(nextUrl, late, 2)).toBe(200);
    await whenSlackIdle(next);
    expect(agent.turns.map((t) => t.text)).toEqual(["停止中の質問"]);
    expect(old.turns).toHaveLength(0);
  });
});

describe("Slack shutdown", () => {
  it("lets an answer in progress finish on stop() instead of apologising for it", async () => {
    const fake = await startFakeSlackApi({ botUserId: BOT_USER, botId: BOT_ID, teamId: TEAM });
    cleanups.push(() => fake.close());
    const app = express();
    const agent = createFakeAgent({ stepMs: 40 });
    const adapter = createSlackAdapter(configFor(fake), { agent, store: createMemoryStoreFake(), app });
    cleanups.push(() => adapter.stop());
    const url = await serve(app);
    await adapter.start();
    expect(await send(url, envelope(mentionEvent("停止直前の質問")))).toBe(200);
    await fake.waitFor((calls) => calls.some((c) => c.method === "chat.postMessage"));
    await adapter.stop();
    const texts = fake.accepted("chat.postMessage").map((c) => String(c.params.text));
    expect(texts).toHaveLength(2);
    expect(texts.join("\n")).not.toContain("申し訳ありません");
    expect(fake.accepted("chat.delete")).toHaveLength(1);
  });
});
