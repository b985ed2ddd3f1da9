/** Errors of the thread store: a backend that is down, and a thread that stays busy too long. */
import { AppError } from "../errors.ts";

/** The store backend failed (down, unreachable, unwritable): callers must not read this as "no history". */
export class StoreError extends AppError {
  constructor(message: string, cause?: unknown) {
    super("STORE_UNAVAILABLE", message, {
      cause,
      userMessage: "会話履歴を保存・参照できませんでした。",
    });
    this.name = "StoreError";
  }
}

/** A turn waited longer than lockWaitMs for its thread: the caller replies "busy" instead of dropping it. */
export class ThreadBusyError extends AppError {
  readonly threadKey: string;
  readonly waitedMs: number;

  constructor(threadKey: string, waitedMs: number) {
    super("THREAD_BUSY", `thread ${threadKey} stayed busy for ${waitedMs} ms`, {
      userMessage: "前のご質問に回答中です。少し待ってからもう一度送ってください。",
    });
    this.name = "ThreadBusyError";
    this.threadKey = threadKey;
    this.waitedMs = waitedMs;
  }
}

/** A thread key or event id that cannot be stored (empty, too long, not a string). */
export class StoreKeyError extends AppError {
  constructor(message: string) {
    super("STORE_INVALID_KEY", message);
    this.name = "StoreKeyError";
  }
}
