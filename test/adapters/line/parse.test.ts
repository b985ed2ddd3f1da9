/** parse.ts: which events become turns, with which thread keys and texts. */
import { describe, expect, it } from "vitest";
import {
  classifyEvent,
  parseEvent,
  postbackQuestion,
  stripSelfMentions,
} from "../../../adapters/line/parse.ts";
import { askItem } from "../../../adapters/line/render.ts";
import { followEvent, groupSource, postbackEvent, stickerEvent, textEvent, userSource } from "./helpers.ts";

const options = { groupPrefix: "補助金" };

describe("parseEvent", () => {
  it("makes every 1:1 text a turn with a per-user thread key", () => {
    const event = textEvent("IT導入 🇯🇵 東京");
    expect(parseEvent(event, options)).toMatchObject({
      threadKey: "line:user:U1234567890abcdef",
      platform: "line",
      userId: "U1234567890abcdef",
      text: "IT導入 🇯🇵 東京",
      eventId: event.webhookEventId,
      receivedAt: new Date(event.timestamp).toISOString(),
    });
  });

  it("in groups needs a self mention or the prefix; other people's mentions do not count", () => {
    const other = { mentionees: [{ index: 0, length: 3, type: "user", userId: "Ux", isSelf: false }] };
    expect(parseEvent(textEvent("@太郎 補助金ある？", groupSource(), other), options)).toBeNull();
    expect(parseEvent(textEvent("補助金ある？", groupSource()), options)?.threadKey).toBe(
      "line:group:C0000group",
    );
    const self = { mentionees: [{ index: 0, length: 4, type: "user", isSelf: true }] };
    expect(parseEvent(textEvent("@bot 創業", groupSource(), self), options)?.text).toBe("創業");
  });

  it("strips self mentions by UTF-16 index, and by code point when LINE counted those", () => {
    const utf16 = { mentionees: [{ index: 5, length: 4, type: "user", isSelf: true }] };
    expect(stripSelfMentions("🎉🎉 @bot 設備", utf16)).toEqual({ text: "🎉🎉 設備", mentioned: true });
    const points = { mentionees: [{ index: 3, length: 4, type: "user", isSelf: true }] };
    expect(stripSelfMentions("🎉🎉 @bot 設備", points).text).toBe("🎉🎉 設備");
  });

  it("maps postbacks to follow-up questions and ignores unknown data", () => {
    expect(postbackQuestion("action=detail&id=a0WJ200000CD0002MAX&n=2")).toBe(
      "この補助金の詳細: a0WJ200000CD0002MAX",
    );
    expect(postbackQuestion("action=detail&n=2")).toBe("2番目の詳細は？");
    expect(postbackQuestion(`action=ask&q=${encodeURIComponent("締切が近い順にして")}`)).toBe(
      "締切が近い順にして",
    );
    expect(postbackQuestion("richmenu=1")).toBeNull();
    expect(parseEvent(postbackEvent("action=detail&n=1", groupSource()), options)?.threadKey).toBe(
      "line:group:C0000group",
    );
  });

  it("classifies follow, stickers, malformed and standby events", () => {
    expect(classifyEvent(followEvent(), options).type).toBe("follow");
    expect(classifyEvent(stickerEvent(), options)).toMatchObject({
      type: "unsupported",
      messageType: "sticker",
    });
    expect(classifyEvent(stickerEvent(groupSource()), options).type).toBe("ignore");
    expect(classifyEvent(null, options).type).toBe("ignore");
    expect(classifyEvent({ type: "message", source: { type: "user" } }, options).type).toBe("ignore");
    expect(classifyEvent({ ...textEvent("x"), mode: "standby" }, options).type).toBe("ignore");
    expect(parseEvent(textEvent("   ", userSource()), options)).toBeNull();
  });

  it("applies the allowlists", () => {
    const allow = { ...options, allowedUsers: ["Uok"], allowedGroups: ["Cok"] };
    expect(parseEvent(textEvent("補助金", userSource("Uok")), allow)).not.toBeNull();
    expect(parseEvent(textEvent("補助金", userSource("Uno")), allow)).toBeNull();
    expect(parseEvent(textEvent("補助金", groupSource("Cok", "Uno")), allow)).not.toBeNull();
    expect(parseEvent(textEvent("補助金", groupSource("Cno", "Uok")), allow)).toBeNull();
  });
});

describe("quick reply round trip", () => {
  it("a quick reply's postback data comes back as the same question, even with & and =", () => {
    for (const q of ["締切が近い順にして", "上限額=1000万円 & 東京都 100%", "😀".repeat(200)]) {
      const action = askItem("ラベル", q).action as { data: string };
      expect(action.data.length).toBeLessThanOrEqual(300);
      expect(postbackQuestion(action.data)).toEqual(q.length > 250 ? expect.stringMatching(/…$/) : q);
    }
  });
});
