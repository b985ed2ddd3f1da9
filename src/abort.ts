/**
 * A per-operation abort signal that follows other signals and an optional deadline, and lets go of them
 * when the operation ends. `AbortSignal.any([...])` is not used for per-call signals on purpose: Node keeps
 * composite signals (and every listener libraries add to them) alive as long as a source signal lives, so
 * one per tool call or request grows the heap without bound on a long-lived server.
 */
export interface ScopedSignal {
  readonly signal: AbortSignal;
  /** True when the deadline, not a source signal, aborted it. */
  timedOut(): boolean;
  /** Aborts it now, with `reason`, and releases the sources. */
  abort(reason: unknown): void;
  /** Removes the listeners from the sources and clears the timer; call it when the operation ends. */
  dispose(): void;
}

export interface ScopedSignalOptions {
  /** Abort when any of these aborts (undefined entries are skipped). */
  follow?: (AbortSignal | undefined)[];
  /** Abort after this many milliseconds (none when undefined). */
  timeoutMs?: number;
}

/** Creates a signal that aborts with the first source (or the deadline); dispose() releases everything. */
export function scopedSignal(options: ScopedSignalOptions): ScopedSignal {
  const controller = new AbortController();
  const sources = (options.follow ?? []).filter((s): s is AbortSignal => s !== undefined);
  let timedOut = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const onAbort = (event: Event) => {
    dispose();
    controller.abort((event.target as AbortSignal).reason);
  };
  const dispose = () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    for (const source of sources) source.removeEventListener("abort", onAbort);
  };
  const already = sources.find((s) => s.aborted);
  if (already) {
    controller.abort(already.reason);
  } else {
    for (const source of sources) source.addEventListener("abort", onAbort, { once: true });
    if (options.timeoutMs !== undefined) {
      const ms = options.timeoutMs;
      timer = setTimeout(() => {
        timedOut = true;
        dispose();
        controller.abort(timeoutError(ms));
      }, ms);
    }
  }
  return {
    signal: controller.signal,
    timedOut: () => timedOut,
    abort(reason) {
      dispose();
      controller.abort(reason);
    },
    dispose,
  };
}

function timeoutError(ms: number): Error {
  const error = new Error(`timeout after ${ms} ms`);
  error.name = "TimeoutError";
  return error;
}
