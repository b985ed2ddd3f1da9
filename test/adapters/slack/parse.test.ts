/** parse.ts: which Slack events become turns, with which thread key and text. */
import { describe, expect, it } from "vitest";
import { cleanSlackText, parseSlackEvent } from "../../../adapters/slack/parse.ts";
import { BOT_ID, BOT_USER, envelope, mentionEvent, messageEvent, TEAM } from "./harness.ts";

const identity = { botUserId: BOT_USER, botId: BOT_ID };

describe("parseSlackEvent", () => {
  it("strips the mention and keys a new thread by the message ts", () => {
    const event = mentionEvent("  東京都の  IT導入 ");
    const inbound = parseSlackEvent(envelope(event, "Ev1"), identity);
    expect(inbound).toMatchObject({
      reason: "mention",
      threadTs: event.ts,
      turn: {
        text: "東京都の IT導入",
        threadKey: `slack:${TEAM}:C0CHAN001:${event.ts}`,
        eventId: "Ev1",
        userId: "U0USER001",
      },
    });
  });

  it("treats a message event that mentions the bot as a mention", () => {
    const inbound = parseSlackEvent(envelope(messageEvent(`<@${BOT_USER}|bot> 省エネ`)), identity);
    expect(inbound?.reason).toBe("mention");
    expect(inbound?.turn.text).toBe("省エネ");
  });

  it("classifies DMs, thread follow-ups, and ignores top-level channel chatter", () => {
    expect(
      parseSlackEvent(envelope(messageEvent("こんにちは", { channel: "D1", channelType: "im" })), identity)
        ?.reason,
    ).toBe("dm");
    expect(parseSlackEvent(envelope(messageEvent("続き", { threadTs: "1.0" })), identity)?.reason).toBe(
      "follow-up",
    );
    expect(parseSlackEvent(envelope(messageEvent("雑談")), identity)).toBeNull();
    expect(parseSlackEvent(envelope(messageEvent("", { threadTs: "1.0" })), identity)).toBeNull();
  });

  it("accepts thread broadcasts but no other subtype", () => {
    const broadcast = messageEvent(`<@${BOT_USER}> 共有`, {
      threadTs: "1.0",
      extra: { subtype: "thread_broadcast" },
    });
    expect(parseSlackEvent(envelope(broadcast), identity)?.turn.text).toBe("共有");
    const share = messageEvent(`<@${BOT_USER}> ファイル`, { extra: { subtype: "file_share" } });
    expect(parseSlackEvent(envelope(share), identity)).toBeNull();
  });

  it("rejects malformed input without throwing", () => {
    expect(parseSlackEvent(null, identity)).toBeNull();
    expect(parseSlackEvent({ event: { type: "message" } }, identity)).toBeNull();
    expect(parseSlackEvent({ event: "x" }, identity)).toBeNull();
  });
});

describe("cleanSlackText", () => {
  it("makes links, channels and entities readable", () => {
    expect(cleanSlackText("<https://a.jp|サイト> と <#C1|general> &amp; &lt;x&gt; <@U9>", BOT_USER)).toBe(
      "サイト (https://a.jp) と #general & <x> @U9",
    );
  });
});
