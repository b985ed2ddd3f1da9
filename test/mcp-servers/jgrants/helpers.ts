/** Test helpers: a real MCP Client wired to the server over the in-memory transport pair. */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { Config } from "../../../src/config.ts";
import { silentLogger } from "../../../src/logger.ts";
import { createJgrantsMcpServer } from "../../../src/mcp-servers/jgrants/server.ts";
import type { JgrantsSource } from "../../../src/mcp-servers/jgrants/source.ts";

/** A jgrants config section with test-friendly defaults. */
export function jgrantsConfig(overrides: Partial<Config["jgrants"]> = {}): Config["jgrants"] {
  return {
    source: "snapshot",
    apiUrl: "http://127.0.0.1:9/exp",
    timeoutMs: 2_000,
    detailIntervalMs: 0,
    now: undefined,
    mcpUrl: undefined,
    ...overrides,
  };
}

/** Connects a Client to a fresh server in-process; returns the client and a closer. */
export async function connectInMemory(options: {
  config?: Config["jgrants"];
  source?: JgrantsSource;
  now?: () => Date;
}) {
  const server = createJgrantsMcpServer({
    config: options.config ?? jgrantsConfig(),
    logger: silentLogger,
    source: options.source,
    now: options.now,
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: "jgrants-test", version: "1.0.0" });
  await client.connect(clientSide);
  const close = async () => {
    await client.close();
    await server.close();
  };
  return { client, close };
}

/** Calls a tool and returns the parsed JSON dict of its text content (checked against structuredContent). */
export async function callJson(client: Client, name: string, args: Record<string, unknown> = {}) {
  const result = await client.callTool({ name, arguments: args });
  const content = result.content as Array<{ type: string; text: string }>;
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON results
  const parsed = JSON.parse(content[0]!.text) as Record<string, any>;
  if (JSON.stringify(parsed) !== JSON.stringify(result.structuredContent)) {
    throw new Error(`text and structuredContent differ for ${name}`);
  }
  return parsed;
}
