/**
 * Slack's assistant view through Bolt's real receiver: a new assistant thread gets a greeting and the
 * suggested prompts (once, even when Slack retries), and a question in it is answered in that thread with
 * the assistant status set.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ASSISTANT_GREETING, SLACK_PROMPTS } from "../../../adapters/slack/assistant.ts";
import { createFakeAgent } from "../../fakes/fake-agent.ts";
import { createMemoryStoreFake } from "../../fakes/memory-store.ts";
import { envelope, type Harness, messageEvent, nextTs, startHarness, TEAM } from "./harness.ts";

const agent = createFakeAgent();
let h: Harness;

beforeAll(async () => {
  h = await startHarness({ agent, store: createMemoryStoreFake() }, { allowedUsers: ["U0USER001"] });
});
afterAll(async () => {
  await h.close();
});
beforeEach(() => {
  agent.turns.length = 0;
  h.fake.calls.length = 0;
});

/** The event Slack sends when a user opens a new assistant thread with the app. */
function threadStarted(user = "U0USER001") {
  const threadTs = nextTs();
  const event = {
    type: "assistant_thread_started",
    assistant_thread: {
      user_id: user,
      context: { channel_id: "C0CHAN001", team_id: TEAM },
      channel_id: "D0DM00001",
      thread_ts: threadTs,
    },
    event_ts: threadTs,
  };
  return { threadTs, body: envelope(event) };
}

describe("Slack assistant view", () => {
  it("greets a new assistant thread with the example questions as suggested prompts, once", async () => {
    const { threadTs, body } = threadStarted();
    expect(await h.deliver(body)).toBe(200);
    expect(await h.deliver(body, { retryNum: 1 })).toBe(200);
    await h.idle();
    const posts = h.fake.accepted("chat.postMessage");
    expect(posts.map((c) => [c.params.channel, c.params.thread_ts, c.params.text])).toEqual([
      ["D0DM00001", threadTs, ASSISTANT_GREETING],
    ]);
    const prompts = h.fake.accepted("assistant.threads.setSuggestedPrompts");
    expect(prompts).toHaveLength(1);
    expect(prompts[0]?.params).toMatchObject({ channel_id: "D0DM00001", thread_ts: threadTs });
    expect(prompts[0]?.params.prompts).toEqual(SLACK_PROMPTS.map((p) => ({ ...p })));
    expect(agent.turns).toHaveLength(0);
  });

  it("still greets when setting the prompts fails, and ignores users outside the allowlist", async () => {
    h.fake.script("assistant.threads.setSuggestedPrompts", { error: "not_allowed_token_type" });
    await h.deliver(threadStarted().body);
    await h.deliver(threadStarted("U0STRANGER").body);
    await h.idle();
    expect(h.fake.accepted("chat.postMessage")).toHaveLength(1);
    expect(h.fake.calls.filter((c) => c.method === "assistant.threads.setSuggestedPrompts")).toHaveLength(1);
    expect(h.logs.some((l) => l.includes("assistant thread outside the allowlist"))).toBe(true);
  });

  it("answers a question in the assistant thread there, with the assistant status", async () => {
    const { threadTs, body } = threadStarted();
    await h.deliver(body);
    await h.idle();
    const question = messageEvent(SLACK_PROMPTS[0]!.message, {
      channel: "D0DM00001",
      channelType: "im",
      threadTs,
    });
    await h.deliver(envelope(question));
    await h.idle();
    expect(agent.turns.map((t) => [t.threadKey, t.text])).toEqual([
      [`slack:${TEAM}:D0DM00001:${threadTs}`, SLACK_PROMPTS[0]!.message],
    ]);
    expect(h.fake.accepted("assistant.threads.setStatus")[0]?.params).toMatchObject({
      channel_id: "D0DM00001",
      thread_ts: threadTs,
    });
    const posts = h.fake.accepted("chat.postMessage");
    expect(posts.every((c) => c.params.thread_ts === threadTs)).toBe(true);
    expect(posts.length).toBeGreaterThanOrEqual(3);
  });
});
