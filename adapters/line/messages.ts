/** The adapter's own fixed messages (welcome, guidance, apologies), rendered as LINE messages. */
import type { messagingApi } from "@line/bot-sdk";
import { EXAMPLE_QUESTIONS } from "./examples.ts";
import { askItem, textMessage } from "./render.ts";

export { EXAMPLE_QUESTIONS } from "./examples.ts";

type Message = messagingApi.Message;

/** The welcome message sent when a user adds the bot as a friend. */
export function welcomeMessages(): Message[] {
  return [
    textMessage(
      [
        "友だち追加ありがとうございます！",
        "補助金・助成金を、普段の言葉で探せます（データはJグランツ）。",
        "地域・業種・やりたいことを送ってください。例えば下のボタンからどうぞ。",
        "「履歴を消して」で会話の記録を消せます。",
      ].join("\n"),
      EXAMPLE_QUESTIONS.map((q) => askItem(q, q)),
    ),
  ];
}

/** The message sent when the bot joins a group or room. */
export function joinMessages(prefix: string): Message[] {
  return [
    textMessage(
      [
        "招待ありがとうございます！補助金・助成金探しをお手伝いします。",
        `グループでは、私にメンションするか「${prefix}」で始めて質問してください。`,
        `例: 「${prefix} 東京都のIT導入」`,
      ].join("\n"),
    ),
  ];
}

/** The short guidance for stickers, images and other non-text messages. */
export function guidanceMessages(): Message[] {
  return [
    textMessage(
      "ごめんなさい、文字のメッセージだけ読めます。探したい補助金を文章で送ってください（例: 東京都のIT導入補助金）。",
      EXAMPLE_QUESTIONS.slice(0, 3).map((q) => askItem(q, q)),
    ),
  ];
}

/** Said when the previous answer could not be delivered (push quota exhausted or LINE errors). */
export function apologyMessage(): Message {
  return textMessage(
    "申し訳ありません。前回のご質問への回答を、送信数の上限などによりお届けできませんでした。必要でしたら、もう一度お送りください。",
  );
}

/** Said when the agent failed outright. */
export function failureMessages(): Message[] {
  return [
    textMessage(
      "申し訳ありません、回答の作成中にエラーが発生しました。少し時間をおいてもう一度お試しください。",
    ),
  ];
}
