/**
 * The MCP host with its registry: the configured servers (mcp.json or the defaults) plus those added at
 * runtime, kept in the app's store, applied to the running host on every change, here or on another
 * instance.
 */
import type { LiveCatalog } from "../catalog/sync/types.ts";
import type { Config } from "../config.ts";
import type { Logger } from "../logger.ts";
import type { RecordStore } from "../store/records.ts";
import { createMcpHost, type McpHost } from "./mcp-host.ts";
import { createServerRegistry, type ServerRegistry } from "./registry.ts";
import { resolveServers } from "./server-list.ts";

export interface ManagedHost {
  host: McpHost;
  registry: ServerRegistry;
  /** Stops following the registry and closes the host. */
  close(): Promise<void>;
}

/** Loads the registry (never throws for a store that is down) and starts the host on its servers. */
export async function createManagedHost(
  config: Pick<Config, "mcp" | "jgrants" | "admin">,
  deps: { records?: RecordStore; logger: Logger; catalog?: LiveCatalog },
): Promise<ManagedHost> {
  const { logger } = deps;
  const registry = createServerRegistry({
    records: deps.records,
    seed: resolveServers({ config: config.mcp, jgrants: config.jgrants }),
    env: config.mcp.substitutionEnv,
    allowStdio: config.admin.allowStdio,
    logger,
    pollMs: config.admin.registryPollMs,
  });
  await registry.start();
  const host = createMcpHost({
    config: config.mcp,
    jgrants: config.jgrants,
    logger,
    servers: registry.servers(),
    catalog: deps.catalog,
  });
  registry.onChange((change) => {
    const applied = host.applyServers(change.servers);
    logger.info({ action: change.action, server: change.name, ...applied }, "mcp servers applied");
  });
  return {
    host,
    registry,
    async close() {
      registry.close();
      await host.close();
    },
  };
}
