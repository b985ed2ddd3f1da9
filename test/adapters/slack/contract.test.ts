/** The Slack adapter runs the shared adapter contract. */
import { checkSlackMessage } from "../../../adapters/slack/limits.ts";
import { parseSlackEvent } from "../../../adapters/slack/parse.ts";
import { renderReply } from "../../../adapters/slack/render.ts";
import { createFakeAgent } from "../../fakes/fake-agent.ts";
import { createMemoryStoreFake } from "../../fakes/memory-store.ts";
import { runAdapterContract } from "../contract.ts";
import { BOT_ID, BOT_USER, envelope, mentionEvent, messageEvent, nextTs, startHarness } from "./harness.ts";

const identity = { botUserId: BOT_USER, botId: BOT_ID };

runAdapterContract("slack", async () => {
  const harness = await startHarness({ agent: createFakeAgent(), store: createMemoryStoreFake() });
  const root = mentionEvent("IT導入の補助金");
  const dm = messageEvent("省エネ", { channel: "D0DM00001", channelType: "im" });
  return {
    parse: (fixture: object) => parseSlackEvent(fixture, identity)?.turn ?? null,
    ownMessageFixtures: [
      envelope(messageEvent("回答です", { user: BOT_USER, threadTs: root.ts })),
      envelope(
        messageEvent("回答です", { user: BOT_USER, extra: { bot_id: BOT_ID, subtype: "bot_message" } }),
      ),
      envelope({ ...mentionEvent("自分宛て"), user: BOT_USER }),
    ],
    sameThreadFixtures: [
      [
        envelope(root),
        envelope(messageEvent("2番目の詳細は？", { threadTs: root.ts })),
        envelope(mentionEvent("大阪府なら？", { threadTs: root.ts })),
      ],
      [
        envelope(dm),
        envelope(messageEvent("続き", { channel: "D0DM00001", channelType: "im", threadTs: dm.ts })),
      ],
      [envelope(mentionEvent("創業", { ts: nextTs() }))],
    ],
    render: (reply) => renderReply(reply),
    checkLimits: checkSlackMessage,
    signedRequest: (signature) => harness.deliver(envelope(mentionEvent("契約テスト")), { signature }),
    close: () => harness.close(),
  };
});
