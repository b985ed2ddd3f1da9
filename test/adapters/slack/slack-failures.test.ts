/** Failure paths end to end: Web API 429 then success, Web API errors and agent failures → an apology. */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Reply, Turn } from "../../../src/types.ts";
import { createFakeAgent } from "../../fakes/fake-agent.ts";
import { createMemoryStoreFake } from "../../fakes/memory-store.ts";
import { sampleReply } from "../../fakes/sample-subsidies.ts";
import { envelope, type Harness, mentionEvent, startHarness } from "./harness.ts";

let replyFor: (turn: Turn) => Reply = () => sampleReply(2);
const agent = createFakeAgent({ reply: (turn) => replyFor(turn) });
let h: Harness;

beforeAll(async () => {
  h = await startHarness({ agent, store: createMemoryStoreFake() });
});
afterAll(async () => {
  await h.close();
});
beforeEach(() => {
  agent.turns.length = 0;
  h.fake.calls.length = 0;
  replyFor = () => sampleReply(2);
});

const refIn = (text: unknown): string | undefined => /参照ID: ([0-9a-f]{8})/.exec(String(text))?.[1];

describe("Slack failures", () => {
  it("waits for Retry-After on 429 and then posts exactly once", async () => {
    h.fake.script("chat.postMessage", { status: 429, retryAfter: 1 });
    await h.deliver(envelope(mentionEvent("IT導入")));
    await h.idle();
    const postCalls = h.fake.calls.filter((c) => c.method === "chat.postMessage");
    expect(postCalls.map((c) => c.outcome)).toEqual(["http-429", "ok", "ok"]);
    expect(h.fake.accepted("chat.postMessage")[0]?.params.text).toBe("🔍 補助金を検索しています…");
    expect(h.fake.accepted("chat.delete")).toHaveLength(1);
  });

  it("does not repeat a post that failed with a server error (it may have been posted)", async () => {
    h.fake.script("chat.postMessage", { pass: true }, { status: 500 });
    await h.deliver(envelope(mentionEvent("IT導入")));
    await h.idle();
    const outcomes = h.fake.calls.filter((c) => c.method === "chat.postMessage").map((c) => c.outcome);
    expect(outcomes).toEqual(["ok", "http-500", "ok"]);
    expect(refIn(h.fake.accepted("chat.postMessage")[1]?.params.text)).toBeDefined();
  });

  it("apologises in the thread with a reference id that is also logged, when the Web API rejects the answer", async () => {
    h.fake.script("chat.postMessage", { pass: true }, { error: "invalid_blocks" });
    const event = mentionEvent("IT導入");
    await h.deliver(envelope(event));
    await h.idle();
    const apology = h.fake.accepted("chat.postMessage").at(-1);
    expect(apology?.params.thread_ts).toBe(event.ts);
    const ref = refIn(apology?.params.text);
    expect(ref).toBeDefined();
    expect(h.logs.some((l) => l.includes(`"ref":"${ref}"`) && l.includes("answering failed"))).toBe(true);
    expect(h.fake.accepted("chat.delete")).toHaveLength(1);
  });

  it("apologises when the agent fails, without showing its internals", async () => {
    replyFor = () => {
      throw new Error("planner exploded: SECRET_INTERNAL_TRACE");
    };
    const event = mentionEvent("IT導入");
    await h.deliver(envelope(event));
    await h.idle();
    const texts = h.fake.calls.map((c) => JSON.stringify(c.params));
    expect(texts.some((t) => t.includes("SECRET_INTERNAL_TRACE"))).toBe(false);
    const apology = h.fake.accepted("chat.postMessage").at(-1);
    expect(String(apology?.params.text)).toContain("申し訳ありません");
    const ref = refIn(apology?.params.text);
    expect(h.logs.some((l) => l.includes(`"ref":"${ref}"`))).toBe(true);
  });

  it("still answers a mention when the store is down, but not a retry of it", async () => {
    const store = createMemoryStoreFake();
    store.markDelivered = async () => {
      throw new Error("redis down");
    };
    const broken = await startHarness({ agent, store });
    try {
      const event = envelope(mentionEvent("IT導入"));
      await broken.deliver(event);
      await broken.idle();
      expect(agent.turns).toHaveLength(1);
      await broken.deliver(event, { retryNum: 1 });
      await broken.idle();
      expect(agent.turns).toHaveLength(1);
      const posted = broken.fake.accepted("chat.postMessage").map((c) => String(c.params.text));
      expect(posted.some((t) => t.includes("申し訳ありません"))).toBe(false);
    } finally {
      await broken.close();
    }
  });
});
