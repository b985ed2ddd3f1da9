/**
 * The built-in time server: now in Asia/Tokyo, days until a date, and the Japanese fiscal year (年度).
 * Planners need it for "今月締切" and "あと何日"; every answer is computed in JST, never in the host's zone.
 */
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { daysBetween, fiscalYearOf, jstParts, parseDateInput } from "./jst.ts";

export interface TimeServerOptions {
  /** The clock; tests and offline demos fix it. */
  now?: () => Date;
}

const readOnly = { readOnlyHint: true, openWorldHint: false } as const;

function reply(data: Record<string, unknown>) {
  return { content: [{ type: "text" as const, text: JSON.stringify(data) }], structuredContent: data };
}

function failure(message: string) {
  return { content: [{ type: "text" as const, text: message }], isError: true };
}

/** Creates the time MCP server (tools: now, days_until, fiscal_year). */
export function createTimeMcpServer(options: TimeServerOptions = {}): McpServer {
  const now = options.now ?? (() => new Date());
  const server = new McpServer({ name: "time", version: "0.1.0" });

  server.registerTool(
    "now",
    {
      title: "現在日時 (日本時間)",
      description:
        "The current date and time in Asia/Tokyo (JST), with the current month's first and last day " +
        "(for 今月締切) and the Japanese fiscal year (年度).",
      inputSchema: {},
      annotations: readOnly,
    },
    async () => {
      const at = now();
      const parts = jstParts(at);
      return reply({
        iso: at.toISOString(),
        timezone: "Asia/Tokyo",
        ...parts,
        fiscalYear: fiscalYearOf(parts.date).fiscalYear,
      });
    },
  );

  server.registerTool(
    "days_until",
    {
      title: "締切までの日数",
      description:
        "Whole days from today (JST) until a date. Accepts YYYY-MM-DD or an ISO datetime (converted to JST). " +
        "0 = today, negative = already past.",
      inputSchema: { date: z.string().min(8).max(40).describe("YYYY-MM-DD or ISO 8601 datetime") },
      annotations: readOnly,
    },
    async ({ date }) => {
      const target = parseDateInput(date);
      if (!target) return failure(`date must be YYYY-MM-DD or an ISO datetime (got ${JSON.stringify(date)})`);
      const today = jstParts(now()).date;
      const days = daysBetween(today, target);
      return reply({ today, date: target, daysLeft: days, past: days < 0 });
    },
  );

  server.registerTool(
    "fiscal_year",
    {
      title: "年度",
      description:
        "The Japanese fiscal year (年度, April to March) of a date, with its 令和 label. Defaults to today (JST).",
      inputSchema: { date: z.string().min(8).max(40).optional().describe("YYYY-MM-DD or ISO datetime") },
      annotations: readOnly,
    },
    async ({ date }) => {
      const target = date === undefined ? jstParts(now()).date : parseDateInput(date);
      if (!target) return failure(`date must be YYYY-MM-DD or an ISO datetime (got ${JSON.stringify(date)})`);
      return reply({ date: target, ...fiscalYearOf(target) });
    },
  );

  return server;
}
