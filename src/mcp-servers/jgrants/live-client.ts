/**
 * The HTTP side of the live source: timeouts, backoff on 429/5xx only (never on other 4xx), polite spacing
 * of detail calls, and the official error strings. Bodies (which hold megabytes of base64) are never logged.
 */
import type { Logger } from "../../logger.ts";

export type FetchOutcome =
  | { ok: true; data: unknown }
  | { ok: false; error: string; status?: number; unreachable: boolean };

export interface LiveClientOptions {
  /** API base, e.g. https://api.jgrants-portal.go.jp/exp (the /v1/public paths are appended). */
  baseUrl: string;
  timeoutMs: number;
  /** Minimum gap between the starts of two detail calls. */
  detailIntervalMs: number;
  /** Delays before each retry of a 429/5xx answer; its length is the number of retries. */
  retryDelaysMs: number[];
  /** Longest Retry-After we honour. */
  maxRetryAfterMs: number;
  fetch: typeof fetch;
  sleep: (ms: number) => Promise<void>;
  /** The clock of the spacing (default performance.now); tests pass the clock their sleep moves. */
  now?: () => number;
  logger?: Logger;
}

/** Resolves after `ms` milliseconds. */
export const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A small GET-JSON client for the jGrants public API. */
export class LiveClient {
  private gate: Promise<void> = Promise.resolve();
  private lastDetailStart = Number.NEGATIVE_INFINITY;

  constructor(private readonly options: LiveClientOptions) {}

  /** GET {baseUrl}/v1/public{path}; detail calls wait for their polite slot first. */
  async getJson(path: string, query?: Record<string, string>, detail = false): Promise<FetchOutcome> {
    if (detail) await this.politeSlot();
    const url = new URL(`${this.options.baseUrl.replace(/\/+$/, "")}/v1/public${path}`);
    for (const [key, value] of Object.entries(query ?? {})) url.searchParams.set(key, value);
    const delays = this.options.retryDelaysMs;
    const started = performance.now();
    for (let attempt = 0; ; attempt++) {
      const outcome = await this.once(url);
      const retryable =
        !outcome.ok && outcome.status !== undefined && (outcome.status === 429 || outcome.status >= 500);
      if (!retryable || attempt >= delays.length) return outcome;
      const delay = delays[attempt]!;
      const wait =
        outcome.retryAfterMs === undefined
          ? delay
          : Math.min(outcome.retryAfterMs, this.options.maxRetryAfterMs);
      // Retries stay within one timeout in all, so a caller (and auto's snapshot fallback) is not kept waiting.
      if (performance.now() - started + wait >= this.options.timeoutMs) return outcome;
      this.options.logger?.warn(
        { path: url.pathname, status: outcome.status, attempt: attempt + 1, wait },
        "jgrants retry",
      );
      await this.options.sleep(wait);
    }
  }

  private async politeSlot(): Promise<void> {
    const turn = this.gate.then(async () => {
      const now = this.options.now ?? (() => performance.now());
      const wait = this.lastDetailStart + this.options.detailIntervalMs - now();
      if (wait > 0) await this.options.sleep(wait);
      this.lastDetailStart = now();
    });
    this.gate = turn.catch(() => undefined);
    await turn;
  }

  private async once(url: URL): Promise<FetchOutcome & { retryAfterMs?: number }> {
    const { timeoutMs, logger } = this.options;
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(new Error("timeout")), timeoutMs);
    const started = performance.now();
    try {
      const response = await this.options.fetch(url, {
        headers: { accept: "application/json", "user-agent": "subsidy-concierge-jgrants-mcp/1.0" },
        signal: controller.signal,
      });
      const body = await response.text();
      logger?.debug(
        {
          path: url.pathname,
          status: response.status,
          bytes: body.length,
          ms: Math.round(performance.now() - started),
        },
        "jgrants api",
      );
      if (!response.ok) {
        const retryAfter = Number(response.headers.get("retry-after"));
        return {
          ok: false,
          error: `HTTPエラー: ${response.status}`,
          status: response.status,
          unreachable: response.status === 429 || response.status >= 500,
          retryAfterMs: Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1000 : undefined,
        };
      }
      try {
        return { ok: true, data: JSON.parse(body) };
      } catch {
        return { ok: false, error: "エラーが発生しました: APIの応答がJSONではありません", unreachable: true };
      }
    } catch (error) {
      if (controller.signal.aborted) {
        return { ok: false, error: `リクエストがタイムアウトしました: ${timeoutMs}ms`, unreachable: true };
      }
      const cause =
        error instanceof Error && error.cause instanceof Error ? error.cause.message : String(error);
      logger?.warn({ path: url.pathname, cause }, "jgrants api unreachable");
      return { ok: false, error: `APIサーバーへの接続に失敗しました: ${cause}`, unreachable: true };
    } finally {
      clearTimeout(timer);
    }
  }
}
