/**
 * The fake MCP server over real HTTP on loopback: Streamable HTTP (stateful or stateless) or legacy SSE.
 * Tests stop it mid-session, restart it on the same port, and expire its sessions (404).
 */
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { SSEServerTransport } from "@modelcontextprotocol/sdk/server/sse.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { createFakeMcpServer, type FakeMcpState } from "./fake-mcp-server.ts";

export type FakeHttpMode = "stateful" | "stateless" | "sse";

export interface FakeMcpHttp {
  url: string;
  port: number;
  state: FakeMcpState;
  /** How many sessions were initialised (stateless: requests served). */
  sessionsOpened: number;
  /** How many POSTs named a session the server no longer knows (answered 404). */
  unknownSessionPosts: number;
  /** Forgets every session: the next request with an old session id gets 404. */
  expireSessions(): void;
  /** Stops listening and drops every open connection (as a crash would). */
  close(): Promise<void>;
}

/** Starts the server on 127.0.0.1 (`port` 0 = any free port); `state` survives restarts when passed in. */
export async function startFakeMcpHttp(options: {
  mode: FakeHttpMode;
  name?: string;
  port?: number;
  state?: FakeMcpState;
}): Promise<FakeMcpHttp> {
  const name = options.name ?? options.mode;
  const state = options.state ?? { calls: {} };
  const sessions = new Map<string, StreamableHTTPServerTransport | SSEServerTransport>();
  const fake = { sessionsOpened: 0, unknownSessionPosts: 0 };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? "/", "http://localhost");
    if (options.mode === "sse") return handleSse(req, res, url);
    if (options.mode === "stateless") {
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
      const server = createFakeMcpServer(name, state);
      res.on("close", () => {
        void transport.close();
        void server.close();
      });
      fake.sessionsOpened++;
      await server.connect(transport);
      return transport.handleRequest(req, res);
    }
    const id = req.headers["mcp-session-id"];
    if (typeof id === "string") {
      const transport = sessions.get(id);
      if (!transport) {
        if (req.method === "POST") fake.unknownSessionPosts++;
        return jsonError(res, 404, "Session not found");
      }
      return (transport as StreamableHTTPServerTransport).handleRequest(req, res);
    }
    if (req.method !== "POST") return jsonError(res, 400, "No session");
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sid) => {
        fake.sessionsOpened++;
        sessions.set(sid, transport);
      },
    });
    await createFakeMcpServer(name, state).connect(transport);
    return transport.handleRequest(req, res);
  };

  const handleSse = async (req: IncomingMessage, res: ServerResponse, url: URL) => {
    if (req.method === "GET" && url.pathname === "/sse") {
      const transport = new SSEServerTransport("/messages", res);
      sessions.set(transport.sessionId, transport);
      fake.sessionsOpened++;
      res.on("close", () => sessions.delete(transport.sessionId));
      await createFakeMcpServer(name, state).connect(transport);
      return;
    }
    const transport = sessions.get(url.searchParams.get("sessionId") ?? "");
    if (req.method === "POST" && url.pathname === "/messages" && transport) {
      return (transport as SSEServerTransport).handlePostMessage(req, res);
    }
    jsonError(res, req.method === "POST" && url.pathname === "/sse" ? 405 : 404, "Not found");
  };

  const http: Server = createServer((req, res) => {
    handle(req, res).catch((error) => {
      if (!res.headersSent) jsonError(res, 500, String(error));
    });
  });
  await new Promise<void>((resolve, reject) => {
    http.once("error", reject);
    http.listen(options.port ?? 0, "127.0.0.1", resolve);
  });
  const port = (http.address() as AddressInfo).port;
  const path = options.mode === "sse" ? "/sse" : "/mcp";
  return {
    url: `http://127.0.0.1:${port}${path}`,
    port,
    state,
    get sessionsOpened() {
      return fake.sessionsOpened;
    },
    get unknownSessionPosts() {
      return fake.unknownSessionPosts;
    },
    expireSessions() {
      // Forget without closing: the client learns only from the 404, as after a server-side expiry.
      sessions.clear();
    },
    async close() {
      const closed = new Promise<void>((resolve) => http.close(() => resolve()));
      http.closeAllConnections();
      for (const transport of sessions.values()) void transport.close();
      sessions.clear();
      await closed;
    },
  };
}

function jsonError(res: ServerResponse, status: number, message: string): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32001, message }, id: null }));
}
