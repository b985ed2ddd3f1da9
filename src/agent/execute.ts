/** Runs planned tool calls in parallel with a concurrency bound and a per-call timeout; never throws. */
import type { ToolCall, ToolHost, ToolResult } from "../types.ts";

/** A stable signature of a call, so an identical call is never made twice in one turn. */
export function callSignature(call: ToolCall): string {
  return `${call.server}\u0000${call.tool}\u0000${stableJson(call.args)}`;
}

function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined && v !== null)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

export interface ExecuteOptions {
  concurrency: number;
  timeoutMs: number;
  signal?: AbortSignal;
  /** Called as each call finishes (for streamed displays of tool calls). */
  onResult?: (result: ToolResult) => void;
}

/** Executes calls with at most `concurrency` in flight; results come back in the order of `calls`. */
export async function executeCalls(
  host: ToolHost,
  calls: ToolCall[],
  options: ExecuteOptions,
): Promise<ToolResult[]> {
  const results: ToolResult[] = new Array(calls.length);
  let next = 0;
  const worker = async () => {
    while (next < calls.length) {
      const index = next++;
      const call = calls[index]!;
      const started = Date.now();
      let result: ToolResult;
      try {
        result = await host.callTool(call, { signal: options.signal, timeoutMs: options.timeoutMs });
      } catch (error) {
        // The host throws only when it is unusable; the planner still sees an ordinary tool error.
        const message = error instanceof Error ? error.message : String(error);
        result = { call, isError: true, text: message, error: message, durationMs: Date.now() - started };
      }
      results[index] = result;
      options.onResult?.(result);
    }
  };
  const workers = Array.from({ length: Math.min(options.concurrency, calls.length) }, worker);
  await Promise.all(workers);
  return results;
}
