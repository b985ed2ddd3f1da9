/**
 * The http-api server: MCP tools generated from API descriptions, served through the low-level Server's
 * list_tools / call_tool handlers (the seed's method), since the tools are data, not code.
 */
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { describeApis, type HttpApiSpec } from "./describe.ts";
import { ApiRequestError, callApi } from "./request.ts";

export type { HttpApiDescription, HttpApiSpec, OpenApiSource } from "./describe.ts";

export interface HttpApiServerOptions {
  /** Simple descriptions and/or OpenAPI sources (`{ openapi: doc, baseUrl?, headers? }`). */
  apis: HttpApiSpec | HttpApiSpec[];
  /** Environment for `${VAR}` in headers (auth tokens). */
  env?: Record<string, string | undefined>;
  timeoutMs?: number;
  /** Response text cap in characters (default 100,000). */
  maxResponseChars?: number;
}

const failure = (text: string) => ({ content: [{ type: "text" as const, text }], isError: true });

/** Creates the server; throws a message naming the entry and field when a description is invalid. */
export function createHttpApiMcpServer(options: HttpApiServerOptions): Server {
  const tools = describeApis([options.apis].flat());
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  const server = new Server({ name: "http-api", version: "0.1.0" }, { capabilities: { tools: {} } });

  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: tools.map((tool) => ({
      name: tool.name,
      description: tool.description,
      inputSchema: tool.inputSchema,
      annotations: { readOnlyHint: tool.method === "GET", openWorldHint: true },
    })),
  }));

  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const tool = byName.get(request.params.name);
    if (!tool) return failure(`unknown tool "${request.params.name}"`);
    try {
      const response = await callApi(tool, request.params.arguments ?? {}, {
        env: options.env ?? {},
        timeoutMs: options.timeoutMs ?? 15_000,
        maxResponseChars: options.maxResponseChars ?? 100_000,
        signal: extra.signal,
      });
      if (response.status >= 400 || response.status < 200) {
        return failure(`HTTP ${response.status} from ${tool.name}: ${response.text.slice(0, 2000)}`);
      }
      const structured =
        response.json && typeof response.json === "object" && !Array.isArray(response.json)
          ? { structuredContent: response.json as Record<string, unknown> }
          : {};
      return { content: [{ type: "text" as const, text: response.text }], ...structured };
    } catch (error) {
      if (error instanceof ApiRequestError) return failure(error.message);
      return failure(`request to ${tool.name} failed: ${(error as Error).message}`);
    }
  });
  return server;
}
