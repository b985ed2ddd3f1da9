/**
 * The LINE side of the watch conversation: pushes cost the channel's quota, so a chat opts in with
 * 「通知をオン」 and gets at most a few digests a month; the confirmation of a watch says so.
 */
import type { PushGate } from "./push-gate.ts";

/** True for a LINE chat's thread key. */
export const isLine = (threadKey: string) => threadKey.startsWith("line:");

/** The line a LINE watch confirmation ends with: whether digests are pushed here, and the monthly cap. */
export async function lineNotice(push: PushGate | undefined, threadKey: string): Promise<string> {
  const cap = push?.monthlyCap ?? 0;
  if (push && (await push.optedIn(threadKey))) {
    return `LINEへのお知らせ: オン（月${cap}回まで。「通知をオフ」で止められます）。`;
  }
  return `LINEでは送れるお知らせの数に限りがあるため、届けるのは「通知をオン」と送ったトークだけです（月${cap}回まで）。それまでは「新着は？」で確認できます。`;
}

/** 「通知をオン」 / 「通知をオフ」: only LINE chats have pushes to turn on or off. */
export async function pushCommand(
  push: PushGate | undefined,
  threadKey: string,
  on: boolean,
): Promise<string> {
  if (!isLine(threadKey) || !push) {
    return "通知のオン・オフはLINEのトークで使えます。Slackではウォッチの新着をスレッドにお知らせし、Webチャットでは「新着は？」で確認できます。";
  }
  await push.setOptIn(threadKey, on);
  return on
    ? `このトークにウォッチのお知らせを送ります（月${push.monthlyCap}回まで。超えた分は「新着は？」で確認できます）。「通知をオフ」で止められます。`
    : "このトークへのお知らせを止めました。新着は「新着は？」で確認できます。";
}
