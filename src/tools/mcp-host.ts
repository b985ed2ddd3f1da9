/**
 * The MCP host: the ToolHost every agent call goes through. It owns one ServerConnection per configured
 * server and turns every failure of a call into an `isError` result the planner can read.
 */
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { scopedSignal } from "../abort.ts";
import type { LiveCatalog } from "../catalog/sync/types.ts";
import type { Config } from "../config.ts";
import { describeError } from "../errors.ts";
import { type Logger, silentLogger } from "../logger.ts";
import type { ServerStatus, ToolCall, ToolHost, ToolInfo, ToolResult } from "../types.ts";
import { createBuiltinServer } from "./builtins.ts";
import { isAbort, isTimeout } from "./failure.ts";
import type { McpServerConfig, McpServersConfig } from "./mcp-config.ts";
import { openSession } from "./mcp-session.ts";
import { type ConnectionTiming, ServerConnection } from "./server-connection.ts";
import { resolveServers } from "./server-list.ts";
import { ArgumentValidator, isToolAllowed, toToolInfo } from "./tool-catalog.ts";
import { errorResult, toToolResult } from "./tool-result.ts";

/** Timers that tests shorten; the config keys (heartbeat, recycle, idle) come from Config["mcp"]. */
export interface McpHostTiming
  extends Omit<ConnectionTiming, "heartbeatMs" | "recycleMs" | "idleDisconnectMs"> {
  connectTimeoutMs: number;
}

export interface McpHostOptions {
  config: Config["mcp"];
  jgrants: Config["jgrants"];
  logger?: Logger;
  /** Servers to run instead of mcp.json / the defaults. */
  servers?: McpServersConfig;
  timing?: Partial<McpHostTiming>;
  /** The live jGrants catalog handed to the built-in jGrants server. */
  catalog?: LiveCatalog;
}

/** The ToolHost plus what the HTTP server and main.ts use. */
export interface McpHost extends ToolHost {
  /** Called when any server's tool list may have changed (list_changed, lost or new connection). */
  onToolsChanged(listener: () => void): () => void;
  /** Connects every enabled server in the background; never throws. */
  warmUp(): Promise<void>;
  /** The configured servers (after defaults and JGRANTS_MCP_URL). */
  readonly servers: McpServersConfig;
}

const DEFAULT_TIMING: McpHostTiming = {
  connectTimeoutMs: 15_000,
  pingTimeoutMs: 10_000,
  listTimeoutMs: 15_000,
  backoffInitialMs: 1_000,
  backoffMaxMs: 60_000,
  random: Math.random,
};

/** Creates the host; nothing connects until the first use (or warmUp). Throws only on an invalid mcp.json. */
export function createMcpHost(options: McpHostOptions): McpHost {
  const logger = options.logger ?? silentLogger;
  const servers = resolveServers(options);
  const { config } = options;
  const timing = { ...DEFAULT_TIMING, ...options.timing };
  const listeners = new Set<() => void>();
  const notify = () => {
    for (const listener of listeners) {
      try {
        listener();
      } catch (error) {
        logger.warn({ err: error }, "tools-changed listener failed");
      }
    }
  };
  const validator = new ArgumentValidator();
  const toolCounts = new Map<string, number>();
  const qualified = new Map<string, { server: string; tool: string }>();
  const connections = new Map<string, ServerConnection>();
  for (const server of Object.values(servers)) {
    if (!server.enabled) continue;
    let preferSse = false;
    const connection = new ServerConnection({
      name: server.name,
      logger,
      onToolsChanged: notify,
      timing: {
        ...timing,
        heartbeatMs: config.heartbeatMs,
        recycleMs: config.recycleMs,
        idleDisconnectMs: config.idleDisconnectMs,
      },
      open: async (hooks) => {
        const deps = {
          logger,
          connectTimeoutMs: timing.connectTimeoutMs,
          createBuiltin: (s: Extract<McpServerConfig, { kind: "builtin" }>) =>
            createBuiltinServer(s, {
              jgrants: options.jgrants,
              env: config.substitutionEnv,
              logger,
              catalog: options.catalog,
            }),
        };
        const session = await openSession(server, deps, hooks, preferSse);
        preferSse = session.transport === "sse";
        return session;
      },
    });
    connections.set(server.name, connection);
  }

  async function toolsOf(name: string, signal?: AbortSignal, force = false): Promise<Tool[]> {
    const connection = connections.get(name)!;
    const server = servers[name]!;
    const tools = (await connection.listTools(signal, force)).filter((tool) =>
      isToolAllowed(server, tool.name),
    );
    toolCounts.set(name, tools.length);
    return tools;
  }

  async function listTools(signal?: AbortSignal): Promise<ToolInfo[]> {
    const lists = await Promise.all(
      [...connections.keys()].map((name) =>
        toolsOf(name, signal).then(
          (tools) => tools.map((tool) => toToolInfo(servers[name]!, tool)),
          (error) => {
            toolCounts.set(name, 0);
            logger.debug({ server: name, err: error }, "mcp server tools unavailable");
            return [] as ToolInfo[];
          },
        ),
      ),
    );
    const all = lists.flat();
    for (const info of all) qualified.set(info.qualifiedName, { server: info.server, tool: info.name });
    return all;
  }

  async function callTool(
    call: ToolCall,
    callOptions: { signal?: AbortSignal; timeoutMs?: number } = {},
  ): Promise<ToolResult> {
    const started = Date.now();
    const elapsed = () => Date.now() - started;
    const alias = !servers[call.server] ? qualified.get(call.tool) : undefined;
    const serverName = alias?.server ?? call.server;
    const toolName = alias?.tool ?? call.tool;
    const server = servers[serverName];
    const connection = connections.get(serverName);
    if (!server || !connection) {
      const known = Object.keys(servers).join(", ");
      const why = server ? "is disabled" : `is unknown (servers: ${known})`;
      return errorResult(call, `server "${call.server}" ${why}`, elapsed());
    }
    if (!isToolAllowed(server, toolName)) {
      return errorResult(
        call,
        `tool "${toolName}" of server "${serverName}" is not allowed by configuration`,
        elapsed(),
      );
    }
    const timeoutMs = callOptions.timeoutMs ?? server.timeoutMs ?? config.callTimeoutMs;
    // One signal per call, released in `finally`: nothing the SDK hangs on it outlives the call.
    const scope = scopedSignal({ follow: [callOptions.signal], timeoutMs });
    const { signal } = scope;
    const label = `${serverName}/${toolName}`;
    try {
      let tools = await toolsOf(serverName, signal, true);
      if (!tools.some((t) => t.name === toolName)) {
        connection.invalidateTools();
        tools = await toolsOf(serverName, signal, true);
      }
      const tool = tools.find((t) => t.name === toolName);
      if (!tool) {
        const names = tools.map((t) => t.name).join(", ");
        return errorResult(
          call,
          `unknown tool "${toolName}" on server "${serverName}" (tools: ${names})`,
          elapsed(),
        );
      }
      const invalid = validator.check(tool, call.args ?? {});
      if (invalid) return errorResult(call, invalid, elapsed());
      const safe = toToolInfo(server, tool).readOnly;
      if (!safe && server.allowWrite !== true) {
        return errorResult(
          call,
          `tool "${toolName}" of server "${serverName}" may write, and this bot only runs read-only tools ` +
            `(set "allowWrite": true for the server in mcp.json to allow it)`,
          elapsed(),
        );
      }
      const result = await connection.callTool(toolName, call.args ?? {}, { signal, timeoutMs, safe });
      return toToolResult(call, result, config.resultMaxChars, elapsed());
    } catch (error) {
      // The SDK reports an abort as a timeout error, so the caller's signal is checked first.
      if (callOptions.signal?.aborted) return errorResult(call, `${label} was aborted`, elapsed());
      if (scope.timedOut() || isTimeout(error)) {
        return errorResult(call, `${label} timed out after ${timeoutMs} ms`, elapsed());
      }
      if (isAbort(error)) return errorResult(call, `${label} was aborted`, elapsed());
      return errorResult(call, `${label} failed: ${describeError(error)}`, elapsed());
    } finally {
      scope.dispose();
    }
  }

  function status(): ServerStatus[] {
    return Object.values(servers).map((server) => {
      const connection = connections.get(server.name);
      if (!connection) return { name: server.name, state: "disabled", toolCount: 0 };
      return connection.status(toolCounts.get(server.name) ?? 0);
    });
  }

  return {
    servers,
    listTools,
    callTool,
    status,
    onToolsChanged(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async warmUp() {
      await listTools().catch(() => undefined);
    },
    async close() {
      listeners.clear();
      await Promise.all([...connections.values()].map((c) => c.close().catch(() => undefined)));
    },
  };
}
