/**
 * The real bundled jGrants MCP server (snapshot, pinned clock) behind a ToolHost whose ranked search can
 * hide some subsidies: a catalog that changes between runs, as a live sync would make it.
 */
import { loadConfig } from "../../src/config.ts";
import { silentLogger } from "../../src/logger.ts";
import type { RunningApp } from "../../src/main.ts";
import { createMcpHost } from "../../src/tools/mcp-host.ts";
import type { SearchConditions, ToolCall, ToolHost } from "../../src/types.ts";
import type { Digest } from "../../src/watch/index.ts";
import { searchForWatch } from "../../src/watch/search.ts";

export const NOW = new Date("2026-08-22T12:00:00+09:00");

export const ENV = {
  JGRANTS_SOURCE: "snapshot",
  JGRANTS_NOW: NOW.toISOString(),
  MCP_HEARTBEAT_MS: "0",
};

export interface ChangingCatalog {
  host: ToolHost;
  /** Ids the ranked search leaves out until revealed. */
  hidden: Set<string>;
  calls: ToolCall[];
  /** Ids (best first) the real search returns for conditions, nothing hidden. */
  idsFor(conditions: SearchConditions): Promise<string[]>;
}

export function changingCatalog(): ChangingCatalog {
  const config = loadConfig(ENV);
  const real = createMcpHost({ config: config.mcp, jgrants: config.jgrants, logger: silentLogger });
  const hidden = new Set<string>();
  const calls: ToolCall[] = [];
  const host: ToolHost = {
    listTools: (signal) => real.listTools(signal),
    status: () => real.status(),
    close: () => real.close(),
    async callTool(call, options) {
      calls.push(call);
      const result = await real.callTool(call, options);
      if (call.tool !== "find_subsidies" || hidden.size === 0) return result;
      const data = result.data as { subsidies: Array<{ id: string }>; total_count: number };
      const subsidies = data.subsidies.filter((s) => !hidden.has(s.id));
      return { ...result, data: { ...data, subsidies, total_count: subsidies.length } };
    },
  };
  return {
    host,
    hidden,
    calls,
    async idsFor(conditions) {
      return (await searchForWatch(real, conditions, NOW)).subsidies.map((s) => s.id);
    },
  };
}

/** Conditions of a watch on an energy-saving need (a dozen fitting hits in the snapshot on its date). */
export const ENERGY: SearchConditions = {
  keywords: ["省エネ"],
  // A need the snapshot has a dozen fitting programmes for (the digest tests reveal them a few at a time).
  query: "省エネでCO2を減らしたい",
  acceptance: "1",
};

/** Runs the due watches of an app on the embedded scheduler (SQLite or memory store) now. */
export function runDue(app: RunningApp): Promise<Digest[]> {
  const scheduler = app.core.watching?.scheduler;
  if (scheduler?.kind !== "embedded") throw new Error("the app has no embedded watch scheduler");
  return scheduler.runDue();
}
