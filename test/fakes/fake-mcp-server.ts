/** A small real MCP server for host tests: echo, search, a non-read-only write, slow, legacy errors, growth. */
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";

export interface FakeMcpState {
  /** Calls of each tool, as the server saw them. */
  calls: Record<string, number>;
}

const text = (value: string) => ({ content: [{ type: "text" as const, text: value }] });
const readOnly = { readOnlyHint: true } as const;

/** Creates the fake server; `state` is shared across instances so HTTP tests can count calls. */
export function createFakeMcpServer(name: string, state: FakeMcpState = { calls: {} }): McpServer {
  const server = new McpServer({ name, version: "0.0.1" });
  const count = (tool: string) => {
    state.calls[tool] = (state.calls[tool] ?? 0) + 1;
  };
  server.registerTool(
    "echo",
    { description: "Echoes text", inputSchema: { text: z.string() }, annotations: readOnly },
    async ({ text: value }) => {
      count("echo");
      return text(`${name}:${value}`);
    },
  );
  server.registerTool(
    "search",
    {
      description: `Search in ${name}`,
      inputSchema: { q: z.string().min(2), area: z.enum(["全国", "東京都"]).optional() },
      annotations: readOnly,
    },
    async ({ q }) => {
      count("search");
      const data = { server: name, q, pid: process.pid };
      return { ...text(JSON.stringify(data)), structuredContent: data };
    },
  );
  server.registerTool(
    "write",
    { description: "Not read-only", inputSchema: { value: z.string() } },
    async ({ value }) => {
      count("write");
      return text(`wrote ${value}`);
    },
  );
  server.registerTool(
    "slow",
    { description: "Waits", inputSchema: { ms: z.number().int() }, annotations: readOnly },
    async ({ ms }, extra) => {
      count("slow");
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, ms);
        extra.signal.addEventListener("abort", () => {
          clearTimeout(timer);
          resolve();
        });
      });
      return text("done");
    },
  );
  server.registerTool(
    "legacy_error",
    { description: "Official jGrants error shape", annotations: readOnly },
    async () => text(JSON.stringify({ error: "keyword は2〜255文字の非空文字列で指定してください" })),
  );
  server.registerTool(
    "big",
    { description: "Long text", inputSchema: { n: z.number().int() }, annotations: readOnly },
    async ({ n }) => text("あ".repeat(n)),
  );
  server.registerTool("add_tool", { description: "Registers a new tool (list_changed)" }, async () => {
    server.registerTool("added", { description: "Added later", annotations: readOnly }, async () =>
      text("added"),
    );
    return text("ok");
  });
  return server;
}
