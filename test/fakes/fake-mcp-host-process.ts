/**
 * A host process for the SIGTERM test: it starts an MCP host with one stdio child, prints the child's pid,
 * and closes the host on SIGTERM (as main.ts does). Run as `node --import tsx fake-mcp-host-process.ts`.
 */
import { fileURLToPath } from "node:url";
import { createMcpHost } from "../../src/tools/mcp-host.ts";

const script = fileURLToPath(new URL("./fake-mcp-stdio.ts", import.meta.url));
const host = createMcpHost({
  config: {
    configPath: undefined,
    heartbeatMs: 1_000,
    callTimeoutMs: 20_000,
    recycleMs: 0,
    idleDisconnectMs: 0,
    resultMaxChars: 10_000,
    fetchEnabled: false,
    substitutionEnv: {},
  },
  jgrants: {
    source: "snapshot",
    apiUrl: "http://127.0.0.1:9/",
    timeoutMs: 1_000,
    detailIntervalMs: 0,
    now: undefined,
    mcpUrl: undefined,
  },
  servers: {
    child: {
      kind: "stdio",
      name: "child",
      command: process.execPath,
      args: ["--import", "tsx", script, "child"],
      enabled: true,
    },
  },
});
process.once("SIGTERM", () => {
  void host.close().then(() => process.exit(0));
});
const result = await host.callTool({ server: "child", tool: "search", args: { q: "pid" } });
process.stdout.write(`${JSON.stringify(result.data)}\n`);
