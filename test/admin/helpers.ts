/**
 * Shared setup of the admin tests: the real app (startApp) on a free port with an admin token, a logger
 * whose lines the test can read, and a small client of /admin/mcp-servers.
 */
import { Writable } from "node:stream";
import { loadConfig } from "../../src/config.ts";
import { createLogger, type Logger } from "../../src/logger.ts";
import { type RunningApp, startApp } from "../../src/main.ts";
import { type Json, readJson } from "../helpers/json.ts";

export const ADMIN_TOKEN = "ops-token-0123456789abcdef";

/** A logger at trace level that keeps every line, so tests can check what was (not) logged. */
export function captureLogger(): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk, _encoding, callback) {
      lines.push(chunk.toString());
      callback();
    },
  });
  return { logger: createLogger({ level: "trace", destination }), lines };
}

/** Starts the whole app with the admin API on, over `env` (a SQLite or Redis store). */
export async function startAdminApp(env: Record<string, string>, logger: Logger): Promise<RunningApp> {
  return startApp(
    loadConfig({
      PORT: "0",
      JGRANTS_SOURCE: "snapshot",
      MCP_HEARTBEAT_MS: "0",
      ADMIN_TOKEN: `ops:${ADMIN_TOKEN}`,
      ...env,
    }),
    logger,
  );
}

export interface AdminClient {
  call(
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<{ status: number; body: Json }>;
  /** The qualified tool names /tools lists. */
  tools(): Promise<string[]>;
  server(name: string): Promise<Json | undefined>;
}

/** A client of the admin API of `app`, with the token. */
export function adminClient(app: RunningApp): AdminClient {
  const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(`${app.url}/admin/mcp-servers${path}`, {
      method,
      headers: {
        authorization: `Bearer ${ADMIN_TOKEN}`,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
        ...headers,
      },
      body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };
  return {
    call,
    async tools() {
      const list = await readJson(await fetch(`${app.url}/tools`));
      return list.tools.map((t: { qualifiedName: string }) => t.qualifiedName);
    },
    async server(name) {
      const { body } = await call("GET", "");
      return body.servers.find((s: { name: string }) => s.name === name);
    },
  };
}
