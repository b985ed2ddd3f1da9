/** How the admin API shows one server: its registry entry (secrets masked) and its live state. */
import type { McpServerConfig } from "../tools/mcp-config.ts";
import type { RegistryEntry } from "../tools/registry.ts";
import type { ServerStatus } from "../types.ts";

/** The JSON of one server in /admin/mcp-servers. */
export function serverView(
  entry: RegistryEntry,
  running: McpServerConfig | undefined,
  status?: ServerStatus,
) {
  const kind =
    running?.kind ?? ("command" in entry.config ? "stdio" : "builtin" in entry.config ? "builtin" : "remote");
  return {
    name: entry.name,
    source: entry.source,
    kind,
    enabled: entry.config.enabled !== false,
    config: entry.config,
    state: entry.problem ? "invalid" : (status?.state ?? "disabled"),
    transport: status?.transport,
    toolCount: status?.toolCount ?? 0,
    lastError: entry.problem ?? status?.lastError,
    lastOkAt: status?.lastOkAt,
    createdAt: entry.createdAt,
    updatedAt: entry.updatedAt,
    updatedBy: entry.updatedBy,
  };
}
