/**
 * The Messaging API calls the adapter makes, over the SDK client, with LINE's failures classified into
 * what delivery needs to decide: invalid reply token, quota exhausted, retryable, already accepted.
 */
import { HTTPFetchError, messagingApi } from "@line/bot-sdk";
import { AppError } from "../../src/errors.ts";

type Message = messagingApi.Message;

export type LineFailure =
  | "invalid-reply-token"
  | "quota-exhausted"
  | "rate-limited"
  | "already-accepted"
  | "server"
  | "network"
  | "rejected";

/** A classified Messaging API failure; `message` carries LINE's own error text, never the token. */
export class LineApiError extends AppError {
  readonly failure: LineFailure;
  readonly status: number | null;

  constructor(failure: LineFailure, status: number | null, message: string, cause?: unknown) {
    super(`LINE_${failure.toUpperCase().replace(/-/g, "_")}`, message, { cause });
    this.name = "LineApiError";
    this.failure = failure;
    this.status = status;
  }

  /** True when sending the same request again may succeed. */
  get retryable(): boolean {
    return this.failure === "rate-limited" || this.failure === "server" || this.failure === "network";
  }
}

function lineMessage(body: string): string {
  try {
    const parsed = JSON.parse(body) as { message?: unknown };
    return typeof parsed.message === "string" ? parsed.message : body.slice(0, 200);
  } catch {
    return body.slice(0, 200);
  }
}

/** Maps any thrown value of an API call to a LineApiError. */
export function classify(error: unknown): LineApiError {
  if (error instanceof LineApiError) return error;
  if (error instanceof HTTPFetchError) {
    const text = lineMessage(error.body);
    const status = error.status;
    if (status === 400 && /reply token/i.test(text))
      return new LineApiError("invalid-reply-token", status, text);
    if (status === 429 && /monthly limit/i.test(text))
      return new LineApiError("quota-exhausted", status, text);
    if (status === 429) return new LineApiError("rate-limited", status, text);
    if (status === 409) return new LineApiError("already-accepted", status, text);
    if (status >= 500) return new LineApiError("server", status, text);
    return new LineApiError("rejected", status, `${status}: ${text}`);
  }
  const message = error instanceof Error ? error.message : String(error);
  return new LineApiError("network", null, message, error);
}

/** The few Messaging API operations the adapter uses. */
export interface LineApi {
  reply(replyToken: string, messages: Message[]): Promise<void>;
  /** Pushes with an X-Line-Retry-Key, so a retried push is delivered at most once. */
  push(to: string, messages: Message[], retryKey: string): Promise<void>;
  /** Shows the loading animation in a 1:1 chat for `seconds` (5–60, a multiple of 5). */
  showLoading(chatId: string, seconds: number): Promise<void>;
  /** The monthly push limit and usage, for logs when the quota runs out. */
  quota(): Promise<{ limit: number | null; used: number | null }>;
}

/** How long one Messaging API call may take before it counts as a network failure (the SDK sets none). */
export const LINE_CALL_TIMEOUT_MS = 15_000;

/** Creates the LineApi over the SDK client; `baseURL` points it at a proxy or a test server. */
export function createLineApi(options: {
  channelAccessToken: string;
  baseURL?: string;
  timeoutMs?: number;
}): LineApi {
  const client = new messagingApi.MessagingApiClient({
    channelAccessToken: options.channelAccessToken,
    ...(options.baseURL ? { baseURL: options.baseURL } : {}),
  });
  const timeoutMs = options.timeoutMs ?? LINE_CALL_TIMEOUT_MS;
  const call = async <T>(fn: () => Promise<T>): Promise<T> => {
    let timer: NodeJS.Timeout | undefined;
    // A hung call must not hold the chat's queue: it fails as "network", which delivery already handles
    // (a push is retried under the same retry key; a reply whose token is then spent counts as delivered).
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new LineApiError("network", null, `LINE API call timed out after ${timeoutMs} ms`)),
        timeoutMs,
      );
    });
    try {
      return await Promise.race([fn(), timeout]);
    } catch (error) {
      throw classify(error);
    } finally {
      clearTimeout(timer);
    }
  };
  return {
    async reply(replyToken, messages) {
      await call(() => client.replyMessage({ replyToken, messages }));
    },
    async push(to, messages, retryKey) {
      await call(() => client.pushMessage({ to, messages }, retryKey));
    },
    async showLoading(chatId, seconds) {
      const loadingSeconds = Math.min(60, Math.max(5, Math.round(seconds / 5) * 5));
      await call(() => client.showLoadingAnimation({ chatId, loadingSeconds }));
    },
    async quota() {
      const [quota, usage] = await Promise.all([
        call(() => client.getMessageQuota()),
        call(() => client.getMessageQuotaConsumption()),
      ]);
      return {
        limit: quota.type === "limited" ? (quota.value ?? null) : null,
        used: typeof usage.totalUsage === "number" ? usage.totalUsage : null,
      };
    },
  };
}
