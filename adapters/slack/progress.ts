/**
 * Throttled status updates: progress lines arrive as fast as the agent produces them, but the status
 * message is edited at most once per interval (Slack allows about one chat.update a second per channel),
 * always with the newest line, one call at a time.
 */

export interface StatusUpdater {
  /** Offers a new status line; identical lines and lines after close() are dropped. */
  push(text: string): void;
  /** Stops updating: a pending line is discarded, an update in flight is awaited. */
  close(): Promise<void>;
}

/** Creates an updater; `update` does the chat.update, `onError` hears its failures (never thrown). */
export function createStatusUpdater(options: {
  initial: string;
  intervalMs: number;
  update: (text: string) => Promise<void>;
  onError: (error: unknown) => void;
}): StatusUpdater {
  let shown = options.initial;
  let pending: string | null = null;
  let lastAt = Date.now();
  let timer: NodeJS.Timeout | undefined;
  let closed = false;
  let chain: Promise<void> = Promise.resolve();

  const flush = () => {
    timer = undefined;
    if (closed || pending === null) return;
    const text = pending;
    pending = null;
    shown = text;
    lastAt = Date.now();
    chain = chain.then(() => options.update(text)).catch(options.onError);
  };

  return {
    push(text) {
      if (closed || text === shown) return;
      pending = text;
      if (timer) return;
      timer = setTimeout(flush, Math.max(0, lastAt + options.intervalMs - Date.now()));
    },
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      timer = undefined;
      await chain;
    },
  };
}
