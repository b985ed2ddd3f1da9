/** The LINE adapter runs the shared adapter contract. */
import type { messagingApi } from "@line/bot-sdk";
import { checkLineMessage } from "../../../adapters/line/limits.ts";
import { parseEvent } from "../../../adapters/line/parse.ts";
import { renderReply } from "../../../adapters/line/render.ts";
import { startFakeLineApi } from "../../fakes/fake-line-api.ts";
import { runAdapterContract } from "../contract.ts";
import { groupSource, postbackEvent, SECRET, sign, startHarness, textEvent, userSource } from "./helpers.ts";

const BOT = "Ubot000000000000000000000000000";
const options = { groupPrefix: "補助金", botUserId: BOT };
const self = (at: number) => ({ mentionees: [{ index: at, length: 4, type: "user", isSelf: true }] });

runAdapterContract<object, messagingApi.Message>("line", async () => {
  const api = await startFakeLineApi();
  const harness = await startHarness(api);
  return {
    parse: (fixture) => parseEvent(fixture, options),
    ownMessageFixtures: [
      textEvent("回答です", userSource(BOT)),
      textEvent("補助金の回答です", groupSource("C1", BOT)),
      textEvent("@bot 自分宛て", groupSource("C1", BOT), self(0)),
    ],
    sameThreadFixtures: [
      [textEvent("IT導入の補助金"), textEvent("2番目の詳細は？"), postbackEvent("action=detail&n=2")],
      [
        textEvent("@bot 創業", groupSource("C1", "Ua"), self(0)),
        textEvent("補助金 大阪府なら？", groupSource("C1", "Ub")),
      ],
      [textEvent("補助金 省エネ", { type: "room", roomId: "R1", userId: "Ua" })],
      [textEvent("省エネ", userSource("Uother"))],
    ],
    render: (reply) => renderReply(reply),
    checkLimits: checkLineMessage,
    async signedRequest(signature) {
      const raw = JSON.stringify({ destination: BOT, events: [textEvent("契約テスト 😀")] });
      const header = signature === "good" ? sign(raw) : signature === "bad" ? sign(raw, `${SECRET}x`) : null;
      return (await harness.post([], { raw, signature: header })).status;
    },
    async close() {
      await harness.close();
      await api.close();
    },
  };
});
