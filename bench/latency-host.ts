/** Wraps a ToolHost so every call takes at least `latencyMs` (the benchmark's stand-in for jGrants' latency). */
import type { ToolHost } from "../src/types.ts";

export function withLatency(host: ToolHost, latencyMs: number): ToolHost & { calls: number } {
  const wrapped = {
    calls: 0,
    listTools: host.listTools.bind(host),
    status: host.status.bind(host),
    close: host.close.bind(host),
    async callTool(...args: Parameters<ToolHost["callTool"]>) {
      wrapped.calls += 1;
      const [result] = await Promise.all([
        host.callTool(...args),
        new Promise((r) => setTimeout(r, latencyMs)),
      ]);
      return result;
    },
  };
  return wrapped;
}
