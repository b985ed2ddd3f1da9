/**
 * The real product for platform end-to-end tests: `startApp(loadConfig(env), silentLogger)` with the
 * bundled jGrants snapshot, the offline planner and template answerer, a SQLite file in a temp dir, and
 * Slack and LINE pointed at the fake platform APIs. Also the facts the tests compare against: what the
 * agent answers over POST /chat, and the raw snapshot records.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { CoreOverrides } from "../../../src/compose.ts";
import { loadConfig } from "../../../src/config.ts";
import { silentLogger } from "../../../src/logger.ts";
import { type RunningApp, startApp } from "../../../src/main.ts";
import { createMcpHost } from "../../../src/tools/mcp-host.ts";
import type { PlatformAdapter } from "../../../src/types.ts";
import { type Json, readJson } from "../../helpers/json.ts";

/** The Slack and LINE secrets the app is configured with (the signing helpers sign with the same ones). */
export interface PlatformKeys {
  slackSigningSecret: string;
  slackApiUrl: string;
  lineChannelSecret: string;
  lineAccessToken: string;
  lineApiUrl: string;
}

/** A temp dir for the SQLite file; remove() deletes it. */
export function tempDir(prefix = "sc-e2e-platform-"): { path: string; remove(): void } {
  const path = mkdtempSync(join(tmpdir(), prefix));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

/** The environment record of the app under test (the way an operator would set it). */
export function appEnv(sqlitePath: string, keys: PlatformKeys): Record<string, string> {
  return {
    HOST: "127.0.0.1",
    PORT: "0",
    JGRANTS_SOURCE: "snapshot",
    JGRANTS_NOW: "2026-08-22T12:00:00+09:00",
    SQLITE_PATH: sqlitePath,
    MCP_HEARTBEAT_MS: "0",
    SLACK_BOT_TOKEN: "xoxb-e2e-bot-token",
    SLACK_SIGNING_SECRET: keys.slackSigningSecret,
    SLACK_API_URL: keys.slackApiUrl,
    LINE_CHANNEL_SECRET: keys.lineChannelSecret,
    LINE_CHANNEL_ACCESS_TOKEN: keys.lineAccessToken,
    LINE_API_URL: keys.lineApiUrl,
  };
}

/** Starts the real composition root; `overrides` only for a test that must control a seam. */
export function startE2eApp(
  sqlitePath: string,
  keys: PlatformKeys,
  overrides: CoreOverrides = {},
): Promise<RunningApp> {
  return startApp(loadConfig(appEnv(sqlitePath, keys)), silentLogger, overrides);
}

/**
 * The core's own tool host (the bundled jGrants MCP server), wrapped so a test can hold tool calls for
 * a moment: the Slack status line is edited at most once a second, so a progress edit is only certain
 * to happen when the search is still running at that point.
 */
export function gatedCoreTools(sqlitePath: string, keys: PlatformKeys) {
  const config = loadConfig(appEnv(sqlitePath, keys));
  // Built exactly as createCore builds it when no override is given.
  const tools = createMcpHost({ config: config.mcp, jgrants: config.jgrants, logger: silentLogger });
  let gate: Promise<void> | null = null;
  const host: NonNullable<CoreOverrides["tools"]> = {
    listTools: (signal) => tools.listTools(signal),
    status: () => tools.status(),
    close: () => tools.close(),
    async callTool(call, options) {
      if (gate) await gate;
      return tools.callTool(call, options);
    },
  };
  return {
    host,
    /** Holds every tool call until the returned function is called. */
    hold(): () => void {
      let release = () => {};
      gate = new Promise<void>((resolve) => {
        release = resolve;
      });
      return () => {
        gate = null;
        release();
      };
    },
  };
}

/** The app's adapter of a platform (throws when it was not enabled). */
export function adapterOf(app: RunningApp, name: "slack" | "line"): PlatformAdapter {
  const adapter = app.adapters.find((a) => a.name === name);
  if (!adapter) throw new Error(`the app did not enable the ${name} adapter`);
  return adapter;
}

/** What the agent answers over POST /chat (a fresh thread): the reference the platform output must match. */
export async function chatReply(app: RunningApp, message: string, threadId: string): Promise<Json> {
  const res = await fetch(`${app.url}/chat`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ message, threadId }),
  });
  if (res.status !== 200) throw new Error(`POST /chat answered ${res.status}`);
  return readJson(res);
}

export interface SnapshotRecord {
  id: string;
  title: string;
  subsidy_max_limit: number | null;
  acceptance_end_datetime: string | null;
  front_subsidy_detail_page_url: string | null;
}

const SNAPSHOT = new URL("../../../src/mcp-servers/jgrants/data/subsidies.json", import.meta.url);
let records: Map<string, SnapshotRecord> | undefined;

/** A record of the bundled snapshot, exactly as shipped. */
export function snapshotRecord(id: string): SnapshotRecord {
  records ??= new Map(
    (JSON.parse(readFileSync(SNAPSHOT, "utf8")) as { records: SnapshotRecord[] }).records.map((r) => [
      r.id,
      r,
    ]),
  );
  const record = records.get(id);
  if (!record) throw new Error(`no snapshot record ${id}`);
  return record;
}

/** The snapshot's own date ("as_of"), e.g. 2026-08-22. */
export function snapshotDate(): string {
  return String((JSON.parse(readFileSync(SNAPSHOT, "utf8")) as { as_of: string }).as_of).slice(0, 10);
}

/** "2026/09/16" in Asia/Tokyo for an ISO time (computed independently of the app's formatter). */
export function jstDate(iso: string): string {
  const parts = new Intl.DateTimeFormat("en-CA", {
    timeZone: "Asia/Tokyo",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
  }).formatToParts(new Date(iso));
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? "";
  return `${get("year")}/${get("month")}/${get("day")}`;
}
