/** Delivery rules through Bolt's real receiver: signatures, retries, the mention pair, ignored messages. */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createSlackAdapter } from "../../../adapters/slack/index.ts";
import { createFakeAgent } from "../../fakes/fake-agent.ts";
import { startFakeSlackApi } from "../../fakes/fake-slack-api.ts";
import { createMemoryStoreFake } from "../../fakes/memory-store.ts";
import {
  BOT_ID,
  BOT_USER,
  envelope,
  type Harness,
  mentionEvent,
  messageEvent,
  slackConfig,
  startHarness,
} from "./harness.ts";

const agent = createFakeAgent();
const store = createMemoryStoreFake();
let h: Harness;

beforeAll(async () => {
  h = await startHarness({ agent, store });
});
afterAll(async () => {
  await h.close();
});
beforeEach(() => {
  agent.turns.length = 0;
  h.fake.calls.length = 0;
});

describe("Slack delivery rules", () => {
  it.each(["bad", "missing", "stale"] as const)(
    "rejects a %s signature with 401 and never runs the handler",
    async (kind) => {
      expect(await h.deliver(envelope(mentionEvent("IT導入")), { signature: kind })).toBe(401);
      await h.idle();
      expect(agent.turns).toHaveLength(0);
      expect(h.fake.calls).toHaveLength(0);
    },
  );

  it("answers url_verification with the challenge", async () => {
    const body = JSON.stringify({ type: "url_verification", challenge: "abc123", token: "t" });
    const { signedHeaders } = await import("./harness.ts");
    const res = await fetch(h.url, {
      method: "POST",
      headers: { "content-type": "application/json", ...signedHeaders(body) },
      body,
    });
    expect(await res.json()).toEqual({ challenge: "abc123" });
  });

  it("drops a retry of an event already taken", async () => {
    const body = envelope(mentionEvent("IT導入"));
    expect(await h.deliver(body)).toBe(200);
    await h.idle();
    expect(await h.deliver(body, { retryNum: 1 })).toBe(200);
    expect(await h.deliver(body, { retryNum: 2 })).toBe(200);
    await h.idle();
    expect(agent.turns).toHaveLength(1);
    expect(h.fake.accepted("chat.postMessage")).toHaveLength(2);
  });

  it("answers, once, a retry of an event whose first delivery never got through", async () => {
    const body = envelope(mentionEvent("省エネ"));
    // The first delivery was lost before it reached us: the first thing we see is retry 1.
    expect(await h.deliver(body, { retryNum: 1 })).toBe(200);
    await h.idle();
    expect(await h.deliver(body, { retryNum: 2 })).toBe(200);
    await h.idle();
    expect(agent.turns.map((t) => t.text)).toEqual(["省エネ"]);
  });

  it("gives one answer when a message arrives as app_mention and as message", async () => {
    const mention = mentionEvent("創業の補助金");
    const message = messageEvent(mention.text, { ts: mention.ts, channel: mention.channel });
    await Promise.all([h.deliver(envelope(mention)), h.deliver(envelope(message))]);
    await h.idle();
    expect(agent.turns).toHaveLength(1);
    expect(agent.turns[0]?.text).toBe("創業の補助金");
  });

  it("ignores its own messages, other bots, edits, deletions and joins", async () => {
    const dm = { channel: "D0DM00001", channelType: "im" };
    const ignored = [
      messageEvent("自分の投稿", { ...dm, user: BOT_USER }),
      messageEvent("自分の投稿", {
        ...dm,
        user: BOT_USER,
        extra: { bot_id: BOT_ID, subtype: "bot_message" },
      }),
      messageEvent("他のボット", { ...dm, user: "U0OTHERBOT", extra: { bot_id: "B0OTHER01" } }),
      messageEvent("", { ...dm, extra: { subtype: "message_changed", message: { text: "編集後" } } }),
      messageEvent("", { ...dm, extra: { subtype: "message_deleted" } }),
      messageEvent(`<@U0USER001> が参加しました`, { extra: { subtype: "channel_join" } }),
      messageEvent(`<@${BOT_USER}> 編集`, { extra: { edited: { user: "U0USER001", ts: "1" } } }),
    ];
    for (const event of ignored) expect(await h.deliver(envelope(event))).toBe(200);
    await h.idle();
    expect(agent.turns).toHaveLength(0);
    expect(h.fake.calls.filter((c) => c.method !== "auth.test")).toHaveLength(0);
  });
});

describe("Slack start-up", () => {
  it("fails with a clear error when the token is rejected by auth.test", async () => {
    const fake = await startFakeSlackApi();
    fake.script("auth.test", { error: "invalid_auth" });
    const adapter = createSlackAdapter(slackConfig(fake.url, { botToken: "xoxb-wrong" }), {
      agent: createFakeAgent(),
      store: createMemoryStoreFake(),
    });
    try {
      await expect(adapter.start()).rejects.toThrow(/SLACK_BOT_TOKEN.*invalid_auth/);
    } finally {
      await adapter.stop();
      await fake.close();
    }
  });
});

describe("Slack allowlists", () => {
  it("ignores channels outside SLACK_ALLOWED_CHANNELS with a log line", async () => {
    const strictAgent = createFakeAgent();
    const strict = await startHarness(
      { agent: strictAgent, store: createMemoryStoreFake() },
      { allowedChannels: ["C0ALLOWED"] },
    );
    try {
      await strict.deliver(envelope(mentionEvent("IT導入", { channel: "C0OTHER01" })));
      await strict.deliver(envelope(mentionEvent("省エネ", { channel: "C0ALLOWED" })));
      await strict.idle();
      expect(strictAgent.turns.map((t) => t.text)).toEqual(["省エネ"]);
      expect(strict.logs.some((l) => l.includes("outside the allowlist") && l.includes("C0OTHER01"))).toBe(
        true,
      );
    } finally {
      await strict.close();
    }
  });
});
