/** End to end through Bolt's real ExpressReceiver: mentions, thread follow-ups, DMs, help, buttons. */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { checkSlackMessage } from "../../../adapters/slack/limits.ts";
import type { HandleOptions, HistoryTurn, Turn } from "../../../src/types.ts";
import { createFakeAgent, type FakeAgent } from "../../fakes/fake-agent.ts";
import { createMemoryStoreFake } from "../../fakes/memory-store.ts";
import { sampleReply } from "../../fakes/sample-subsidies.ts";
import {
  buttonClick,
  envelope,
  type Harness,
  mentionEvent,
  messageEvent,
  nextTs,
  startHarness,
  TEAM,
} from "./harness.ts";

let replyFor: (turn: Turn) => ReturnType<typeof sampleReply> = () => sampleReply(3);
/** Progress spaced wider than the 1 s throttle, so every line is shown; used by the first test only. */
const slowAgent: FakeAgent = createFakeAgent({
  progress: [
    { type: "searching", keywords: ["IT導入", "DX"], filters: { area: "東京都" } },
    { type: "found", count: 12, shown: 5 },
  ],
  stepMs: 1100,
  reply: (turn) => replyFor(turn),
});
const fastAgent: FakeAgent = createFakeAgent({ reply: (turn) => replyFor(turn) });
let active = fastAgent;
const agent = {
  get turns(): Turn[] {
    return active.turns;
  },
  handle: (turn: Turn, options?: HandleOptions) => active.handle(turn, options),
};
const store = createMemoryStoreFake();
let h: Harness;

beforeAll(async () => {
  h = await startHarness({ agent, store });
});
afterAll(async () => {
  await h.close();
});
beforeEach(() => {
  slowAgent.turns.length = 0;
  fastAgent.turns.length = 0;
  active = fastAgent;
  h.fake.calls.length = 0;
  replyFor = () => sampleReply(3);
});

const posts = () => h.fake.accepted("chat.postMessage");

describe("Slack adapter, end to end", () => {
  it("answers a mention in its thread: status, throttled updates, final blocks, status removed", async () => {
    active = slowAgent;
    const event = mentionEvent("東京都のIT導入補助金は？");
    expect(await h.deliver(envelope(event))).toBe(200);
    await h.idle();

    expect(agent.turns).toHaveLength(1);
    expect(agent.turns[0]?.text).toBe("東京都のIT導入補助金は？");
    expect(agent.turns[0]?.threadKey).toBe(`slack:${TEAM}:${event.channel}:${event.ts}`);

    const [status, final] = posts();
    expect(status?.params).toMatchObject({
      channel: event.channel,
      thread_ts: event.ts,
      text: "🔍 補助金を検索しています…",
    });
    const updates = h.fake.accepted("chat.update").map((c) => c.params.text);
    expect(updates).toHaveLength(2);
    expect(updates[0]).toMatch(/^🔍 ?「IT導入」「DX」で検索中（東京都）$/);
    expect(updates[1]).toBe("📋 12件見つかりました。上位5件の詳細を確認します…");
    expect(final?.params.thread_ts).toBe(event.ts);
    const blocks = final?.params.blocks as Array<{ type: string; text?: { text: string } }>;
    expect(blocks.some((b) => b.text?.text.includes("<https://www.jgrants-portal.go.jp/subsidy/"))).toBe(
      true,
    );
    expect(JSON.stringify(blocks)).toContain("出典: <https://www.jgrants-portal.go.jp/|Jグランツ>");
    const deleted = h.fake.accepted("chat.delete").map((c) => c.params.ts);
    expect(deleted).toEqual([status?.response?.ts]);
    expect(h.fake.calls.at(-1)?.method).toBe("chat.delete");
    expect(h.fake.accepted("chat.update").every((c) => c.params.ts === status?.response?.ts)).toBe(true);
  });

  it("acks at once while the agent is still working", async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const slow = createFakeAgent({
      progress: [],
      reply: async () => {
        await gate;
        return sampleReply(1);
      },
    });
    const other = await startHarness({ agent: slow, store: createMemoryStoreFake() });
    try {
      const first = mentionEvent("省エネの補助金");
      expect(await other.deliver(envelope(first))).toBe(200);
      await other.fake.waitFor(() => other.fake.accepted("chat.postMessage").length === 1);
      expect(slow.turns).toHaveLength(1);
      // A follow-up sent while the first answer is still being made counts as part of the thread.
      await other.deliver(envelope(messageEvent("大阪府なら？", { threadTs: first.ts })));
      release();
      await other.idle();
      expect(slow.turns.map((t) => t.text)).toEqual(["省エネの補助金", "大阪府なら？"]);
      expect(other.fake.accepted("chat.postMessage")).toHaveLength(4);
    } finally {
      await other.close();
    }
  });

  it("answers a thread reply without a mention when the thread has history, and ignores other threads", async () => {
    const root = nextTs();
    const key = `slack:${TEAM}:C0CHAN001:${root}`;
    const past: HistoryTurn = {
      question: "IT導入",
      answer: "…",
      subsidies: [],
      conditions: null,
      at: new Date().toISOString(),
    };
    await store.append(key, past);
    await h.deliver(envelope(messageEvent("2番目の詳細は？", { threadTs: root })));
    await h.deliver(envelope(messageEvent("関係ない雑談", { threadTs: nextTs() })));
    await h.deliver(envelope(messageEvent("スレッド外の発言")));
    await h.idle();
    expect(agent.turns.map((t) => [t.threadKey, t.text])).toEqual([[key, "2番目の詳細は？"]]);
    expect(posts().every((c) => c.params.thread_ts === root)).toBe(true);
  });

  it("answers a DM in its thread and sets the assistant status (errors ignored)", async () => {
    h.fake.script("assistant.threads.setStatus", { error: "not_allowed_token_type" });
    const event = messageEvent("創業支援の補助金", { channel: "D0DM00001", channelType: "im" });
    await h.deliver(envelope(event));
    await h.idle();
    expect(agent.turns[0]?.threadKey).toBe(`slack:${TEAM}:D0DM00001:${event.ts}`);
    expect(h.fake.calls.some((c) => c.method === "assistant.threads.setStatus")).toBe(true);
    expect(posts()).toHaveLength(2);
  });

  it("answers an empty mention with help and example questions, without calling the agent", async () => {
    await h.deliver(envelope(mentionEvent("")));
    await h.idle();
    expect(agent.turns).toHaveLength(0);
    const [help] = posts();
    expect(JSON.stringify(help?.params.blocks)).toContain("東京都でIT導入に使える補助金は？");
  });

  it("passes 履歴を消して to the agent like any text", async () => {
    replyFor = (turn) => ({
      ...sampleReply(0),
      kind: "cleared",
      text: "履歴を削除しました。",
      threadKey: turn.threadKey,
    });
    await h.deliver(envelope(mentionEvent("履歴を消して")));
    await h.idle();
    expect(agent.turns[0]?.text).toBe("履歴を消して");
    expect(String(posts().at(-1)?.params.text)).toContain("履歴を削除しました");
  });

  it("keeps 30 subsidies within every Slack limit, split into several messages", async () => {
    replyFor = () => sampleReply(30);
    await h.deliver(envelope(mentionEvent("IT導入")));
    await h.idle();
    const finals = posts().slice(1);
    expect(finals.length).toBeGreaterThan(1);
    for (const call of finals) {
      expect(
        checkSlackMessage({ text: String(call.params.text), blocks: call.params.blocks as never }),
      ).toEqual([]);
    }
    const all = JSON.stringify(finals.map((c) => c.params.blocks));
    for (const subsidy of sampleReply(30).subsidies) expect(all).toContain(subsidy.id);
  });

  it.each([
    ["subsidy_detail_2", "2|a0WJ200000CD0002MAX", "2番目の詳細は？（ID: a0WJ200000CD0002MAX）"],
    ["suggest_1", "東京都の設備投資の補助金", "東京都の設備投資の補助金"],
  ])("turns a %s button into a follow-up turn in the same thread", async (actionId, value, text) => {
    const root = nextTs();
    const payload = buttonClick({
      userId: "U0USER002",
      channel: "C0CHAN001",
      messageTs: nextTs(),
      threadTs: root,
      actionId,
      value,
      responseUrl: `${h.fake.url}response`,
    });
    expect(await h.deliver(payload, { form: true })).toBe(200);
    await h.idle();
    expect(agent.turns[0]).toMatchObject({
      threadKey: `slack:${TEAM}:C0CHAN001:${root}`,
      userId: "U0USER002",
      text,
    });
  });
});
