/** Builds the in-process built-in servers; each module is imported only when its server is first used. */
import type { LiveCatalog } from "../catalog/sync/types.ts";
import type { Config } from "../config.ts";
import type { Logger } from "../logger.ts";
import type { McpServerConfig } from "./mcp-config.ts";
import type { ConnectableServer } from "./mcp-session.ts";

export interface BuiltinContext {
  jgrants: Config["jgrants"];
  env: Record<string, string | undefined>;
  logger: Logger;
  /** The live jGrants catalog (JGRANTS_SOURCE live or auto), shared by every jGrants session. */
  catalog?: LiveCatalog;
}

/** A fresh server instance for one in-process session. */
export async function createBuiltinServer(
  server: Extract<McpServerConfig, { kind: "builtin" }>,
  context: BuiltinContext,
): Promise<ConnectableServer> {
  switch (server.builtin) {
    case "jgrants": {
      const { createJgrantsMcpServer } = await import("../mcp-servers/jgrants/server.ts");
      return createJgrantsMcpServer({
        config: context.jgrants,
        logger: context.logger,
        catalog: context.catalog,
      });
    }
    case "time": {
      const { createTimeMcpServer } = await import("../mcp-servers/time/server.ts");
      const fixed = context.jgrants.now;
      return createTimeMcpServer(fixed ? { now: () => new Date(fixed) } : {});
    }
    case "fetch": {
      const { createFetchMcpServer } = await import("../mcp-servers/fetch/server.ts");
      return createFetchMcpServer({ maxBytes: server.maxBytes, timeoutMs: server.fetchTimeoutMs });
    }
    case "http-api": {
      const { createHttpApiMcpServer } = await import("../mcp-servers/http-api/server.ts");
      return createHttpApiMcpServer({ apis: (server.apis ?? []) as never, env: context.env });
    }
  }
}
