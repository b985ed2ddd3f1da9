/**
 * Regression: every tool call used to leave a composite AbortSignal (and the SDK's listener on it) alive
 * for as long as the caller's long-lived signal lived, about 20 KB a call, until the process died.
 */
import { getEventListeners } from "node:events";
import { afterAll, describe, expect, it } from "vitest";
import { createMcpHost } from "../../src/tools/mcp-host.ts";
import { heapGrowthPerOp } from "../helpers/heap.ts";
import { jgrantsConfig, mcpConfig } from "./helpers.ts";

describe("MCP host memory", () => {
  const host = createMcpHost({ config: mcpConfig(), jgrants: jgrantsConfig });
  const longLived = new AbortController();
  afterAll(() => host.close());

  it("keeps nothing of a finished call, whatever signal the caller passes", async () => {
    const call = async (i: number) => {
      const result = await host.callTool(
        { server: "time", tool: "now", args: {} },
        { signal: longLived.signal, timeoutMs: 5_000 + (i % 7) },
      );
      expect(result.isError).toBe(false);
    };
    const perCall = await heapGrowthPerOp(call, { warmup: 300, count: 3_000 });
    expect(perCall).toBeLessThan(1_000);
    expect(getEventListeners(longLived.signal, "abort")).toHaveLength(0);
  });

  it("still honours the caller's abort and the per-call timeout", async () => {
    const aborted = new AbortController();
    aborted.abort(new Error("user left"));
    const result = await host.callTool({ server: "time", tool: "now", args: {} }, { signal: aborted.signal });
    expect(result).toMatchObject({ isError: true, text: expect.stringContaining("aborted") });
  });
});
