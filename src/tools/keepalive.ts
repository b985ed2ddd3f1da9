/** Keep-alive helpers of a connection: backoff with jitter, the heartbeat ping, paged tools/list. */
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import type { McpSession } from "./mcp-session.ts";

/** Timers of a connection; tests make them short. 0 turns heartbeat, recycle and idle disconnect off. */
export interface ConnectionTiming {
  heartbeatMs: number;
  recycleMs: number;
  idleDisconnectMs: number;
  backoffInitialMs: number;
  backoffMaxMs: number;
  pingTimeoutMs: number;
  /** A user request may start an attempt inside the backoff window once per this many ms. */
  demandRetryMs: number;
  /** Timeout of tools/list. */
  listTimeoutMs: number;
  /** Jitter source in [0, 1). */
  random: () => number;
}

/** Exponential backoff after `failures` failed attempts, with jitter in [50 %, 100 %] of the step. */
export function backoffDelay(failures: number, timing: ConnectionTiming): number {
  const { backoffInitialMs, backoffMaxMs, random } = timing;
  const base = Math.min(backoffMaxMs, backoffInitialMs * 2 ** Math.max(0, failures - 1));
  return Math.round(base * (0.5 + random() * 0.5));
}

/** A heartbeat tick: one ping at a time while the session is current; a failed ping calls onFail. */
export function heartbeat(
  session: McpSession,
  options: {
    timeoutMs: number;
    isCurrent: () => boolean;
    onOk: () => void;
    onFail: (error: unknown) => void;
  },
): () => void {
  let pinging = false;
  return () => {
    if (pinging || !options.isCurrent()) return;
    pinging = true;
    session.client
      .ping({ timeout: options.timeoutMs })
      .then(options.onOk, options.onFail)
      .finally(() => {
        pinging = false;
      });
  };
}

/** Timers by name that never keep the process alive; setting a name replaces its previous timer. */
export class NamedTimers<K extends string> {
  private readonly timers = new Map<K, NodeJS.Timeout>();

  /** Runs fn after ms (every ms when `repeat`). */
  set(name: K, ms: number, fn: () => void, repeat = false): void {
    this.clear(name);
    const timer = repeat
      ? setInterval(fn, ms)
      : setTimeout(() => {
          this.timers.delete(name);
          fn();
        }, ms);
    timer.unref();
    this.timers.set(name, timer);
  }

  /** True while the named timer is pending. */
  has(name: K): boolean {
    return this.timers.has(name);
  }

  /** Cancels the named timers. */
  clear(...names: K[]): void {
    for (const name of names) {
      clearTimeout(this.timers.get(name));
      this.timers.delete(name);
    }
  }
}

/** Every tool of the server, following pagination cursors. */
export async function fetchTools(session: McpSession, timeoutMs: number): Promise<Tool[]> {
  const tools: Tool[] = [];
  let cursor: string | undefined;
  do {
    const page = await session.client.listTools(cursor ? { cursor } : undefined, { timeout: timeoutMs });
    tools.push(...page.tools);
    cursor = page.nextCursor;
  } while (cursor && tools.length < 10_000);
  return tools;
}
