/**
 * Opens one MCP client session to a configured server: a stdio child, a remote server (Streamable HTTP,
 * then legacy SSE), or an in-process built-in over a linked in-memory pair. The MCP client SDK is imported
 * only in src/tools.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import { getDefaultEnvironment, StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { ErrorCode, McpError, ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import type { Logger } from "../logger.ts";
import type { McpServerConfig } from "./mcp-config.ts";

/** A server object an in-process built-in hands us: McpServer and the low-level Server both fit. */
export interface ConnectableServer {
  connect(transport: Transport): Promise<void>;
  close(): Promise<void>;
}

/** One live client session. */
export interface McpSession {
  client: Client;
  transport: "stdio" | "streamable-http" | "sse" | "in-process";
  /** The child's pid for stdio servers. */
  pid?: number;
  close(): Promise<void>;
}

export interface SessionHooks {
  /** The transport closed by itself (child exited, stream ended, the server's event stream broke). */
  onClose(): void;
  /** The server sent notifications/tools/list_changed. */
  onToolsChanged(): void;
}

export interface SessionDeps {
  logger: Logger;
  connectTimeoutMs: number;
  /** Builds a fresh in-process server for a built-in (one per session: a server serves one transport). */
  createBuiltin: (server: Extract<McpServerConfig, { kind: "builtin" }>) => Promise<ConnectableServer>;
}

/** Opens a session to `server`: connects, initializes, and wires close and list_changed hooks. */
export async function openSession(
  server: McpServerConfig,
  deps: SessionDeps,
  hooks: SessionHooks,
  preferSse = false,
): Promise<McpSession> {
  if (server.kind === "stdio") {
    const transport = new StdioClientTransport({
      command: server.command,
      args: server.args,
      env: { ...getDefaultEnvironment(), ...server.env },
      cwd: server.cwd,
      stderr: "pipe",
    });
    transport.stderr?.on("data", (chunk: Buffer) =>
      deps.logger.debug({ server: server.name, stderr: chunk.toString("utf8").slice(0, 2000) }, "mcp stderr"),
    );
    const client = await connectClient(transport, deps, hooks);
    return { client, transport: "stdio", pid: transport.pid ?? undefined, close: () => client.close() };
  }
  if (server.kind === "builtin") {
    const instance = await deps.createBuiltin(server);
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await instance.connect(serverSide);
    const client = await connectClient(clientSide, deps, hooks).catch(async (error) => {
      await instance.close().catch(() => undefined);
      throw error;
    });
    return {
      client,
      transport: "in-process",
      close: async () => {
        await client.close();
        await instance.close().catch(() => undefined);
      },
    };
  }
  const url = new URL(server.url);
  const requestInit = server.headers ? { headers: server.headers } : undefined;
  const order =
    server.type === "sse" ? ["sse"] : preferSse ? ["sse", "streamable-http"] : ["streamable-http", "sse"];
  let lastError: unknown;
  for (const kind of order) {
    const transport =
      kind === "sse"
        ? new SSEClientTransport(url, { requestInit })
        : new StreamableHTTPClientTransport(url, { requestInit, reconnectionOptions: NO_STREAM_RETRIES });
    try {
      const client = await connectClient(transport, deps, hooks);
      return {
        client,
        transport: kind as "sse" | "streamable-http",
        close: () => closeRemote(client, transport),
      };
    } catch (error) {
      lastError = error;
      deps.logger.debug({ server: server.name, transport: kind, err: error }, "mcp remote connect failed");
      await transport.close().catch(() => undefined);
      // Nothing answers at all: an SSE attempt would only double the wait.
      if (isUnreachable(error)) break;
    }
  }
  throw lastError;
}

// The host does its own reconnecting with a fresh initialize; the SDK's stream retries would only race it.
const NO_STREAM_RETRIES = {
  initialReconnectionDelay: 1000,
  maxReconnectionDelay: 1000,
  reconnectionDelayGrowFactor: 1,
  maxRetries: 0,
};

async function connectClient(transport: Transport, deps: SessionDeps, hooks: SessionHooks): Promise<Client> {
  const client = new Client({ name: "subsidy-concierge", version: "0.1.0" }, { capabilities: {} });
  client.setNotificationHandler(ToolListChangedNotificationSchema, async () => hooks.onToolsChanged());
  client.onerror = (error) => {
    deps.logger.debug({ err: error }, "mcp transport error");
    // The SDK only reports a broken event stream here (its own stream retries are off): the server went
    // away. Treat it as a closed transport at once rather than waiting for the next ping.
    if (STREAM_LOST.test(error?.message ?? "")) hooks.onClose();
  };
  try {
    await client.connect(transport, { timeout: deps.connectTimeoutMs });
  } catch (error) {
    await client.close().catch(() => undefined);
    throw error;
  }
  client.onclose = () => hooks.onClose();
  return client;
}

/** Messages of the SDK's HTTP transports when the server's event stream ends or breaks. */
const STREAM_LOST = /^(SSE stream disconnected|Maximum reconnection attempts|SSE error)/;

function isUnreachable(error: unknown): boolean {
  if (error instanceof McpError) return error.code === ErrorCode.RequestTimeout;
  const code = (error as { cause?: { code?: string } })?.cause?.code;
  return (
    error instanceof TypeError &&
    ["ECONNREFUSED", "ENOTFOUND", "EHOSTUNREACH", "ENETUNREACH"].includes(code ?? "")
  );
}

async function closeRemote(client: Client, transport: Transport): Promise<void> {
  // A stateful server keeps the session until told; tell it, but never wait long for a dead one.
  if (transport instanceof StreamableHTTPClientTransport && transport.sessionId) {
    await Promise.race([
      transport.terminateSession().catch(() => undefined),
      new Promise((resolve) => setTimeout(resolve, 500).unref()),
    ]);
  }
  await client.close();
}
