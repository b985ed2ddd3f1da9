/**
 * Builds what the host needs per configured server: a ServerConnection that opens sessions with the
 * server's config, and a one-off probe that connects, lists the tools and closes (the admin "test").
 */
import type { LiveCatalog } from "../catalog/sync/types.ts";
import type { Config } from "../config.ts";
import type { Logger } from "../logger.ts";
import type { ToolInfo } from "../types.ts";
import { createBuiltinServer } from "./builtins.ts";
import { type ConnectionTiming, fetchTools } from "./keepalive.ts";
import type { McpServerConfig } from "./mcp-config.ts";
import { openSession, type SessionDeps } from "./mcp-session.ts";
import { ServerConnection } from "./server-connection.ts";
import { isToolAllowed, toToolInfo } from "./tool-catalog.ts";

export interface ConnectionContext {
  config: Config["mcp"];
  jgrants: Config["jgrants"];
  logger: Logger;
  timing: Omit<ConnectionTiming, "heartbeatMs" | "recycleMs" | "idleDisconnectMs"> & {
    connectTimeoutMs: number;
  };
  onToolsChanged: () => void;
  /** The live jGrants catalog handed to the built-in jGrants server. */
  catalog?: LiveCatalog;
}

function sessionDeps(context: ConnectionContext): SessionDeps {
  const { config, jgrants, logger, timing, catalog } = context;
  return {
    logger,
    connectTimeoutMs: timing.connectTimeoutMs,
    createBuiltin: (s) => createBuiltinServer(s, { jgrants, env: config.substitutionEnv, logger, catalog }),
  };
}

/** A lazy connection to `server`; nothing connects until it is used. */
export function createConnection(server: McpServerConfig, context: ConnectionContext): ServerConnection {
  const { config, logger, timing } = context;
  const deps = sessionDeps(context);
  let preferSse = false;
  return new ServerConnection({
    name: server.name,
    logger,
    onToolsChanged: context.onToolsChanged,
    timing: {
      ...timing,
      heartbeatMs: config.heartbeatMs,
      recycleMs: config.recycleMs,
      idleDisconnectMs: config.idleDisconnectMs,
    },
    open: async (hooks) => {
      const session = await openSession(server, deps, hooks, preferSse);
      preferSse = session.transport === "sse";
      return session;
    },
  });
}

/** Connects to `server` once, lists its (allowed) tools and closes; throws when it cannot connect. */
export async function probeServer(server: McpServerConfig, context: ConnectionContext): Promise<ToolInfo[]> {
  const hooks = { onClose() {}, onToolsChanged() {} };
  const session = await openSession(server, sessionDeps(context), hooks);
  try {
    const tools = await fetchTools(session, context.timing.listTimeoutMs);
    return tools.filter((tool) => isToolAllowed(server, tool.name)).map((tool) => toToolInfo(server, tool));
  } finally {
    await session.close().catch(() => undefined);
  }
}
