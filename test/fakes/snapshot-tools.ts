/**
 * A ToolHost over the bundled snapshot records for agent-loop unit tests: search_subsidies matches the
 * keyword in titles, get_subsidy_detail returns a record. The real server is tested in its own suite;
 * here the loop is the unit under test, so the host answers in the real result shapes and counts calls.
 */
import { toListItem } from "../../src/mcp-servers/jgrants/records.ts";
import type { JgrantsRecord } from "../../src/mcp-servers/jgrants/types.ts";
import type { ToolCall, ToolHost, ToolInfo, ToolResult } from "../../src/types.ts";
import { SNAPSHOT_AS_OF, SNAPSHOT_RECORDS } from "./snapshot-records.ts";

const snapshot = { as_of: SNAPSHOT_AS_OF, records: SNAPSHOT_RECORDS };

export interface SnapshotToolsOptions {
  /** Return an error for these tools. */
  failTools?: string[];
  /** Delay per call, in ms. */
  delayMs?: number;
}

export function createSnapshotTools(options: SnapshotToolsOptions = {}): ToolHost & {
  calls: ToolCall[];
  maxInFlight: number;
} {
  const calls: ToolCall[] = [];
  let inFlight = 0;
  const tools: ToolInfo[] = ["search_subsidies", "get_subsidy_detail"].map((name) => ({
    server: "jgrants",
    name,
    qualifiedName: `jgrants__${name}`,
    description: name,
    inputSchema: { type: "object" },
    readOnly: true,
  }));
  const dataSource = { mode: "snapshot", as_of: snapshot.as_of };
  const host = {
    calls,
    maxInFlight: 0,
    async listTools() {
      return tools;
    },
    async callTool(call: ToolCall): Promise<ToolResult> {
      calls.push(call);
      inFlight += 1;
      host.maxInFlight = Math.max(host.maxInFlight, inFlight);
      try {
        if (options.delayMs) await new Promise((r) => setTimeout(r, options.delayMs));
        const data = answer(call);
        if (options.failTools?.includes(call.tool)) {
          return { call, isError: true, text: "HTTPエラー: 503", error: "HTTPエラー: 503", durationMs: 1 };
        }
        return { call, isError: false, data, text: JSON.stringify(data).slice(0, 2000), durationMs: 1 };
      } finally {
        inFlight -= 1;
      }
    },
    status() {
      return [{ name: "jgrants", state: "connected" as const, toolCount: 2 }];
    },
    async close() {},
  };
  function answer(call: ToolCall): unknown {
    if (call.tool === "search_subsidies") {
      const keyword = String(call.args.keyword ?? "");
      const area = call.args.target_area_search as string | undefined;
      const hits = snapshot.records.filter(
        (r) =>
          keyword.length >= 2 &&
          r.title.includes(keyword) &&
          (!area || String(r.target_area_search ?? "").includes(area)),
      );
      return {
        total_count: hits.length,
        subsidies: hits.map((r) => toListItem(r as unknown as JgrantsRecord)),
        search_conditions: { keyword, sort: "acceptance_end_datetime", order: "ASC", acceptance: "0" },
        data_source: dataSource,
      };
    }
    const record = snapshot.records.find((r) => r.id === call.args.subsidy_id);
    if (!record) return { error: `補助金ID '${String(call.args.subsidy_id)}' が見つかりません` };
    return { ...record, description: record.detail, data_source: dataSource };
  }
  return host;
}
