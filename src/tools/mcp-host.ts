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
import { type ConnectionContext, createConnection, probeServer } from "./connection-factory.ts";
import { isAbort, isTimeout } from "./failure.ts";
import type { McpServerConfig, McpServersConfig } from "./mcp-config.ts";
import type { ConnectionTiming, EnsureMode } from "./server-connection.ts";
import { resolveServers } from "./server-list.ts";
import { type ServerChanges, ServerSet } from "./server-set.ts";
import { ArgumentValidator, isToolAllowed, toToolInfo } from "./tool-catalog.ts";
import { errorResult, toToolResult } from "./tool-result.ts";

/** Timers that tests shorten; the config keys (heartbeat, recycle, idle) come from Config["mcp"]. */
export interface McpHostTiming
  extends Omit<ConnectionTiming, "heartbeatMs" | "recycleMs" | "idleDisconnectMs"> {
  connectTimeoutMs: number;
  /** How long a removed server stays callable for turns that started before the removal. */
  retireGraceMs: number;
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
  /** The servers it runs now (after defaults and JGRANTS_MCP_URL, then runtime changes). */
  readonly servers: McpServersConfig;
  /**
   * Runs `next` from now on: new servers connect lazily, removed or disabled ones stop being listed,
   * changed ones get a fresh connection. Calls already running finish on the connection they started on,
   * and a removed server stays callable for `retireGraceMs`, so turns in flight keep their tools.
   */
  applyServers(next: McpServersConfig): ServerChanges;
  /** Connects to a server that is not (necessarily) configured, lists its tools and disconnects. */
  probe(server: McpServerConfig): Promise<ToolInfo[]>;
  /** Drops the server's session and connects again now; rejects when the attempt fails. */
  reconnect(name: string): Promise<void>;
}

const DEFAULT_TIMING: McpHostTiming = {
  connectTimeoutMs: 15_000,
  pingTimeoutMs: 10_000,
  listTimeoutMs: 15_000,
  backoffInitialMs: 1_000,
  backoffMaxMs: 60_000,
  demandRetryMs: 500,
  retireGraceMs: 300_000,
  random: Math.random,
};

/** Creates the host; nothing connects until the first use (or warmUp). Throws only on an invalid mcp.json. */
export function createMcpHost(options: McpHostOptions): McpHost {
  const logger = options.logger ?? silentLogger;
  const initial = resolveServers(options);
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
  const context: ConnectionContext = { ...options, logger, timing, onToolsChanged: notify };
  const set = new ServerSet(initial, (server) => createConnection(server, context), {
    graceMs: timing.retireGraceMs,
    logger,
  });
  async function toolsOf(name: string, signal?: AbortSignal, mode: EnsureMode = "list"): Promise<Tool[]> {
    const { connection, server } = set.resolve(name)!;
    const tools = (await connection.listTools(signal, mode)).filter((tool) =>
      isToolAllowed(server, tool.name),
    );
    toolCounts.set(name, tools.length);
    return tools;
  }

  async function listTools(signal?: AbortSignal): Promise<ToolInfo[]> {
    const lists = await Promise.all(
      set.liveNames().map((name) =>
        toolsOf(name, signal).then(
          (tools) => tools.map((tool) => toToolInfo(set.servers[name]!, tool)),
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
    const alias = !set.resolve(call.server) ? qualified.get(call.tool) : undefined;
    const serverName = alias?.server ?? call.server;
    const toolName = alias?.tool ?? call.tool;
    const found = set.resolve(serverName);
    if (!found) {
      const known = Object.keys(set.servers).join(", ");
      const why = set.servers[serverName] ? "is disabled" : `is unknown (servers: ${known})`;
      return errorResult(call, `server "${call.server}" ${why}`, elapsed());
    }
    const { server, connection } = found;
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
      let tools = await toolsOf(serverName, signal, "call");
      if (!tools.some((t) => t.name === toolName)) {
        connection.invalidateTools();
        tools = await toolsOf(serverName, signal, "call");
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
    return Object.values(set.servers).map((server) => {
      const connection = set.live(server.name);
      if (!connection) return { name: server.name, state: "disabled", toolCount: 0 };
      return connection.status(toolCounts.get(server.name) ?? 0);
    });
  }

  return {
    get servers() {
      return set.servers;
    },
    applyServers(next) {
      const changes = set.apply(next);
      for (const name of [...changes.removed, ...changes.changed]) toolCounts.delete(name);
      if (changes.added.length + changes.removed.length + changes.changed.length > 0) notify();
      return changes;
    },
    probe: (server) => probeServer(server, context),
    async reconnect(name) {
      const connection = set.live(name);
      if (!connection) throw new Error(`server "${name}" is not enabled`);
      await connection.reconnect();
      // The tool count is part of what the admin page shows right after a (re)connect.
      await toolsOf(name, undefined, "call");
    },
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
      await set.close();
    },
  };
}
