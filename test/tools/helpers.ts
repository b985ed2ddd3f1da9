/** Shared setup for host tests: a config section with short timers, and server entries for the fakes. */
import { fileURLToPath } from "node:url";
import { afterEach } from "vitest";
import type { Agent } from "../../src/agent/agent.ts";
import type { Config } from "../../src/config.ts";
import { createHttpApp, finishHttpApp, listen } from "../../src/http/server.ts";
import { silentLogger } from "../../src/logger.ts";
import type { McpServerConfig } from "../../src/tools/mcp-config.ts";
import type { McpHostTiming } from "../../src/tools/mcp-host.ts";
import type { ToolHost } from "../../src/types.ts";
import { createFakeAgent } from "../fakes/fake-agent.ts";
import { createMemoryStoreFake } from "../fakes/memory-store.ts";

/** The mcp config section with every periodic timer off unless a test turns it on. */
export function mcpConfig(overrides: Partial<Config["mcp"]> = {}): Config["mcp"] {
  return {
    configPath: undefined,
    heartbeatMs: 0,
    callTimeoutMs: 5_000,
    recycleMs: 0,
    idleDisconnectMs: 0,
    resultMaxChars: 1_000,
    fetchEnabled: false,
    substitutionEnv: {},
    ...overrides,
  };
}

export const jgrantsConfig: Config["jgrants"] = {
  source: "snapshot",
  apiUrl: "https://api.jgrants-portal.go.jp/exp",
  timeoutMs: 5_000,
  detailIntervalMs: 0,
  now: undefined,
  mcpUrl: undefined,
};

/** Fast backoff so reconnect tests take milliseconds. */
export const fastTiming: Partial<McpHostTiming> = {
  connectTimeoutMs: 5_000,
  pingTimeoutMs: 1_000,
  listTimeoutMs: 5_000,
  backoffInitialMs: 20,
  backoffMaxMs: 200,
  // Every user request may try at once; the rate limit has its own test.
  demandRetryMs: 0,
  random: () => 0.5,
};

const STDIO_SCRIPT = fileURLToPath(new URL("../fakes/fake-mcp-stdio.ts", import.meta.url));

/** A stdio entry running the fake server in a child node process. */
export function stdioServer(name: string): McpServerConfig {
  return {
    kind: "stdio",
    name,
    command: process.execPath,
    args: ["--import", "tsx", STDIO_SCRIPT, name],
    enabled: true,
  };
}

/** A remote entry for a fake HTTP server. */
export function remoteServer(
  name: string,
  url: string,
  extra: Partial<McpServerConfig> = {},
): McpServerConfig {
  return { kind: "remote", name, url, enabled: true, ...extra } as McpServerConfig;
}

/**
 * Closes what a test started after each test, newest first, even when the test failed: `track` a host
 * or server, `defer` any other cleanup.
 */
export function closeAfterEach() {
  const cleanups: Array<() => Promise<unknown>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
  });
  return {
    track<T extends { close(): Promise<unknown> }>(thing: T): T {
      cleanups.push(() => thing.close());
      return thing;
    },
    defer(cleanup: () => Promise<unknown>): void {
      cleanups.push(cleanup);
    },
  };
}

/** The real HTTP app (/healthz, /tools) over `host` with a fake agent, on a free loopback port. */
export async function serveStatus(host: ToolHost): Promise<{ url: string; close(): Promise<void> }> {
  const app = createHttpApp({
    agent: createFakeAgent() as unknown as Agent,
    tools: host,
    store: createMemoryStoreFake(),
    logger: silentLogger,
    llm: { mode: "offline", model: null },
  });
  finishHttpApp(app, silentLogger);
  const server = await listen(app, "127.0.0.1", 0);
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
