/** Fixed replies that need no planning: help, cleared history, busy thread, and failures. */
import type { Reply, ReplyMeta, ThreadKey } from "../types.ts";

export const EXAMPLE_QUESTIONS = [
  "東京都でIT導入に使える補助金は？",
  "従業員20人の製造業が使える省エネ設備の補助金",
  "締切が近い創業支援の補助金を教えて",
];

const CLEAR_PATTERN =
  /^(?:\/?(?:clear|reset|forget)|履歴(?:を)?(?:消して|削除|消去|クリア|リセット)(?:して)?(?:ください)?|会話(?:を)?(?:リセット|忘れて)(?:ください)?)[。.!！\s]*$/i;

/** True when the user asks to forget this thread ("履歴を消して", "/clear"). */
export function isClearCommand(text: string): boolean {
  return CLEAR_PATTERN.test(text.trim());
}

function emptyMeta(mode: ReplyMeta["mode"], model: string | null, durationMs = 0): ReplyMeta {
  return { mode, model, rounds: 0, llmCalls: 0, toolCalls: 0, promptBytes: 0, durationMs };
}

function fixedReply(threadKey: ThreadKey, kind: Reply["kind"], text: string, meta: ReplyMeta): Reply {
  return {
    threadKey,
    text,
    subsidies: [],
    totalCount: 0,
    conditions: null,
    plan: [],
    toolResults: [],
    meta,
    kind,
    notes: [],
  };
}

/** A short help with example questions, for an empty message. */
export function helpReply(
  threadKey: ThreadKey,
  mode: ReplyMeta["mode"],
  model: string | null,
  lead = "補助金・助成金を日本語でお探しします。",
): Reply {
  const text = [
    `${lead}たとえば次のように聞いてください。`,
    ...EXAMPLE_QUESTIONS.map((q) => `- ${q}`),
    "",
    "続けて「2番目の詳細は？」「大阪府なら？」のように聞き返せます。「履歴を消して」で会話を忘れます。",
    "検索のあとに「この条件をウォッチ」と送ると、新しく条件に合う補助金をお知らせします。",
  ].join("\n");
  return fixedReply(threadKey, "help", text, emptyMeta(mode, model));
}

/** Confirms that the thread's history was deleted. */
export function clearedReply(threadKey: ThreadKey, mode: ReplyMeta["mode"], model: string | null): Reply {
  return fixedReply(
    threadKey,
    "cleared",
    "このスレッドの会話履歴を削除しました。新しい質問からまたお探しします。",
    emptyMeta(mode, model),
  );
}

/** The answer to a watch command (save, list, stop, 新着は？). */
export function watchReply(
  threadKey: ThreadKey,
  text: string,
  mode: ReplyMeta["mode"],
  model: string | null,
): Reply {
  return fixedReply(threadKey, "watch", text, emptyMeta(mode, model));
}

/** A failure reply: says what happened and what still works. */
export function errorReply(
  threadKey: ThreadKey,
  message: string,
  mode: ReplyMeta["mode"],
  model: string | null,
  durationMs = 0,
): Reply {
  return fixedReply(threadKey, "error", message, emptyMeta(mode, model, durationMs));
}
