/**
 * Streamable HTTP at /mcp with stateful sessions (one McpServer per session, like the official server),
 * on node:http. Loopback binds check the Host header against DNS rebinding.
 */
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";
import type { Logger } from "../../logger.ts";

export interface McpHttpOptions {
  host: string;
  port: number;
  /** Builds a fresh McpServer for each new session. */
  createServer: () => McpServer;
  logger?: Logger;
  /** Most concurrent sessions; the oldest is closed beyond it. */
  maxSessions?: number;
}

export interface RunningMcpHttp {
  /** e.g. http://127.0.0.1:8000/mcp */
  url: string;
  port: number;
  close(): Promise<void>;
}

const MAX_BODY = 1_000_000;
const LOOPBACK = new Set(["127.0.0.1", "localhost", "::1", "[::1]"]);

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
}

const rpcError = (code: number, message: string) => ({ jsonrpc: "2.0", error: { code, message }, id: null });

class BodyTooLargeError extends Error {}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    // Past the cap the rest is read and dropped, so the client hears the 413 instead of a reset.
    if (size > MAX_BODY * 8) throw new BodyTooLargeError();
    if (size <= MAX_BODY) chunks.push(chunk as Buffer);
  }
  if (size > MAX_BODY) throw new BodyTooLargeError();
  return JSON.parse(Buffer.concat(chunks).toString("utf8"));
}

/** True when the Host header names a loopback address (protects a loopback bind from DNS rebinding). */
function hostAllowed(header: string | undefined): boolean {
  if (!header) return false;
  const host = header.startsWith("[") ? header.slice(0, header.indexOf("]") + 1) : header.split(":")[0]!;
  return LOOPBACK.has(host);
}

/** Starts the HTTP server; resolves once it listens. */
export async function startMcpHttpServer(options: McpHttpOptions): Promise<RunningMcpHttp> {
  const { logger } = options;
  const sessions = new Map<string, { transport: StreamableHTTPServerTransport; server: McpServer }>();
  const checkHost = LOOPBACK.has(options.host);
  const maxSessions = options.maxSessions ?? 200;

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? "/", "http://localhost").pathname;
    if (checkHost && !hostAllowed(req.headers.host))
      return send(res, 403, rpcError(-32000, "Forbidden host"));
    if (path === "/healthz") return send(res, 200, { status: "ok" });
    if (path !== "/mcp") return send(res, 404, { error: "not found; the MCP endpoint is /mcp" });
    const sessionId = req.headers["mcp-session-id"];
    const session = typeof sessionId === "string" ? sessions.get(sessionId) : undefined;
    if (req.method === "POST") {
      let body: unknown;
      try {
        body = await readJson(req);
      } catch (error) {
        if (error instanceof BodyTooLargeError) {
          return send(res, 413, rpcError(-32600, `Request body too large (max ${MAX_BODY} bytes)`));
        }
        return send(res, 400, rpcError(-32700, "Parse error"));
      }
      if (session) return session.transport.handleRequest(req, res, body);
      if (sessionId === undefined && isInitializeRequest(body)) {
        const server = options.createServer();
        const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
          sessionIdGenerator: () => randomUUID(),
          onsessioninitialized: (id) => {
            sessions.set(id, { transport, server });
            while (sessions.size > maxSessions) {
              const [oldest, entry] = sessions.entries().next().value!;
              sessions.delete(oldest);
              void entry.transport.close();
            }
          },
        });
        transport.onclose = () => {
          if (transport.sessionId) sessions.delete(transport.sessionId);
        };
        await server.connect(transport);
        return transport.handleRequest(req, res, body);
      }
      return send(res, sessionId ? 404 : 400, rpcError(-32000, "Bad Request: No valid session ID provided"));
    }
    if (req.method === "GET" || req.method === "DELETE") {
      if (session) return session.transport.handleRequest(req, res);
      return send(res, sessionId ? 404 : 400, rpcError(-32000, "Bad Request: No valid session ID provided"));
    }
    res.setHeader("allow", "GET, POST, DELETE");
    return send(res, 405, rpcError(-32000, "Method not allowed"));
  }

  const http = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      logger?.error({ err: error }, "jgrants mcp http request failed");
      if (!res.headersSent) send(res, 500, rpcError(-32603, "Internal error"));
      else res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    http.once("error", reject);
    http.listen(options.port, options.host, () => resolve());
  });
  const port = (http.address() as AddressInfo).port;
  const shownHost = options.host.includes(":") ? `[${options.host}]` : options.host;
  return {
    url: `http://${shownHost}:${port}/mcp`,
    port,
    async close() {
      for (const { transport, server } of sessions.values()) {
        await transport.close().catch(() => undefined);
        await server.close().catch(() => undefined);
      }
      sessions.clear();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
