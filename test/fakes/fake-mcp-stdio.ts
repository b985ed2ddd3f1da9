/** Runs the fake MCP server over stdio (started by tests as `node --import tsx test/fakes/fake-mcp-stdio.ts NAME`). */
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { createFakeMcpServer } from "./fake-mcp-server.ts";

const server = createFakeMcpServer(process.argv[2] ?? "stdio");
await server.connect(new StdioServerTransport());
