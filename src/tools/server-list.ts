/** Which servers the host runs: an explicit list, the mcp.json file, or the built-in defaults. */
import { existsSync } from "node:fs";
import type { Config } from "../config.ts";
import { loadMcpServersConfig, type McpServersConfig } from "./mcp-config.ts";

export interface ServerListOptions {
  config: Config["mcp"];
  jgrants: Config["jgrants"];
  servers?: McpServersConfig;
}

/** The servers to run, in order; JGRANTS_MCP_URL turns a built-in "jgrants" into that remote server. */
export function resolveServers(options: ServerListOptions): McpServersConfig {
  const { config, jgrants } = options;
  const path = config.configPath ?? (existsSync("mcp.json") ? "mcp.json" : undefined);
  const servers =
    options.servers ?? (path ? loadMcpServersConfig(path, config.substitutionEnv) : defaults(config));
  const current = servers.jgrants;
  if (jgrants.mcpUrl && (!current || current.kind === "builtin")) {
    return {
      ...servers,
      jgrants: {
        kind: "remote",
        name: "jgrants",
        url: jgrants.mcpUrl,
        enabled: current?.enabled ?? true,
        allowTools: current?.allowTools,
        blockTools: current?.blockTools,
        timeoutMs: current?.timeoutMs,
        // The official server's tools only read but carry no readOnlyHint; this allows the safe retry.
        readOnly: true,
      },
    };
  }
  return servers;
}

function defaults(config: Config["mcp"]): McpServersConfig {
  const servers: McpServersConfig = {
    jgrants: { kind: "builtin", name: "jgrants", builtin: "jgrants", enabled: true },
    time: { kind: "builtin", name: "time", builtin: "time", enabled: true },
  };
  // Off by default: a prompt-injected page could otherwise steer the bot's requests.
  if (config.fetchEnabled)
    servers.fetch = { kind: "builtin", name: "fetch", builtin: "fetch", enabled: true };
  return servers;
}
