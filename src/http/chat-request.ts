/** Validation of the /chat request body, with clear Japanese-first error messages. */
import { randomUUID } from "node:crypto";
import { AppError } from "../errors.ts";

export const MAX_MESSAGE_CHARS = 4000;
export const MAX_BODY_BYTES = 64 * 1024;

export interface ChatRequest {
  message: string;
  threadId: string;
}

/** An HTTP error with its status; the message is shown to the client as `{error}`. */
export class HttpError extends AppError {
  readonly status: number;
  constructor(status: number, message: string) {
    super(`HTTP_${status}`, message, { userMessage: message });
    this.status = status;
  }
}

/** The number of Unicode code points of a string, without building an array for short strings. */
function codePoints(text: string): number {
  if (text.length <= MAX_MESSAGE_CHARS) return text.length;
  let n = 0;
  for (const _ of text) n += 1;
  return n;
}

const THREAD_ID = /^[A-Za-z0-9_.:-]{1,128}$/;

/** Parses `{threadId}` of a thread the page opens again (POST /chat/open). */
export function parseOpenRequest(body: unknown): string {
  const threadId = (body as Record<string, unknown> | null)?.threadId;
  if (typeof threadId !== "string" || !THREAD_ID.test(threadId)) {
    throw new HttpError(400, "threadId は英数字と _ . : - からなる128文字以内の文字列で指定してください。");
  }
  return threadId;
}

/** Parses `{message, threadId?}`; throws HttpError(400/413) with a message that says what is wrong. */
export function parseChatRequest(body: unknown): ChatRequest {
  if (body === null || typeof body !== "object" || Array.isArray(body)) {
    throw new HttpError(
      400,
      'リクエスト本文は JSON オブジェクト {"message": "…"} で送ってください（the body must be a JSON object）。',
    );
  }
  const { message, threadId } = body as Record<string, unknown>;
  if (typeof message !== "string") {
    throw new HttpError(400, 'message（文字列）が必要です。例: {"message": "東京都のIT導入補助金"}');
  }
  if (message.trim() === "") throw new HttpError(400, "message が空です。質問を入力してください。");
  // Characters as people count them (code points): an emoji or a rare kanji is one, not two UTF-16 units.
  if (codePoints(message) > MAX_MESSAGE_CHARS) {
    throw new HttpError(413, `message が長すぎます（${MAX_MESSAGE_CHARS}文字まで）。`);
  }
  if (
    threadId !== undefined &&
    threadId !== null &&
    (typeof threadId !== "string" || !THREAD_ID.test(threadId))
  ) {
    parseOpenRequest(body);
  }
  return { message, threadId: typeof threadId === "string" ? threadId : randomUUID() };
}
