/**
 * Standalone jGrants MCP server: `npm run jgrants-mcp -- --port 8000 [--host 127.0.0.1] [--stdio]
 * [--source live|snapshot|auto] [--unsafe-expose]`. Config comes from the environment; flags override it.
 */
import { parseArgs } from "node:util";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { createLiveCatalogFromConfig } from "../../catalog/sync/index.ts";
import { loadConfig } from "../../config.ts";
import { describeError } from "../../errors.ts";
import { createLogger } from "../../logger.ts";
import { startMcpHttpServer } from "./http.ts";
import { createJgrantsMcpServer, warmUpBundledCatalog } from "./server.ts";
import { createJgrantsSource } from "./source.ts";

const USAGE = `Usage: jgrants-mcp [--port 8000] [--host 127.0.0.1] [--stdio] [--source live|snapshot|auto] [--unsafe-expose]
  Streamable HTTP at http://HOST:PORT/mcp (default), or MCP over stdin/stdout with --stdio.
  --unsafe-expose allows a non-loopback host (the server has no authentication).`;

const LOOPBACK = ["127.0.0.1", "localhost", "::1", "[::1]"];

function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(2);
}

async function main(): Promise<void> {
  let flags: ReturnType<typeof parse>;
  try {
    flags = parse();
  } catch (error) {
    fail(`${describeError(error)}\n${USAGE}`);
  }
  if (flags.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const config = loadConfig();
  const source = flags.source ?? config.jgrants.source;
  if (!["live", "snapshot", "auto"].includes(source))
    fail(`--source must be live, snapshot or auto\n${USAGE}`);
  const jgrants = { ...config.jgrants, source: source as typeof config.jgrants.source };
  // On stdio, stdout carries the protocol, so logs go to stderr.
  const logger = createLogger({
    level: config.logLevel,
    destination: flags.stdio ? process.stderr : undefined,
  });
  // With live data the server keeps the catalog synced in the background (src/catalog/sync).
  const catalog =
    source === "snapshot" ? undefined : createLiveCatalogFromConfig({ ...config, jgrants }, { logger });
  catalog?.start();
  const shared = createJgrantsSource(jgrants, { logger, catalog });
  // find_subsidies ranks the live catalog too (the bundled snapshot until it has loaded).
  const build = () => createJgrantsMcpServer({ config: jgrants, logger, source: shared, catalog });
  // Ready when it listens: find_subsidies ranks the bundled catalog, whose index is built before the first
  // client arrives rather than during its first call.
  warmUpBundledCatalog();

  if (flags.stdio) {
    const server = build();
    await server.connect(new StdioServerTransport());
    logger.info({ source }, "jgrants MCP server on stdio");
    process.stdin.on("end", () => void server.close().finally(() => process.exit(0)));
    return;
  }
  const port = flags.port === undefined ? 8000 : Number(flags.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    fail(`--port must be an integer 0-65535\n${USAGE}`);
  const host = flags.host ?? "127.0.0.1";
  if (!LOOPBACK.includes(host) && !flags["unsafe-expose"]) {
    fail(
      `Refusing to listen on ${host}: this server has no authentication. Pass --unsafe-expose, or put it behind an authenticating proxy.`,
    );
  }
  const running = await startMcpHttpServer({
    host: host.replace(/^\[|\]$/g, ""),
    port,
    createServer: build,
    logger,
  });
  logger.info({ url: running.url, source }, "jgrants MCP server listening");
  process.stdout.write(`jgrants MCP server: ${running.url} (source: ${source})\n`);
  const stop = () =>
    void Promise.allSettled([running.close(), catalog?.close()]).finally(() => process.exit(0));
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

function parse() {
  return parseArgs({
    options: {
      port: { type: "string", short: "p" },
      host: { type: "string" },
      stdio: { type: "boolean", default: false },
      source: { type: "string" },
      "unsafe-expose": { type: "boolean", default: false },
      help: { type: "boolean", short: "h", default: false },
    },
    strict: true,
  }).values;
}

main().catch((error: unknown) => fail(`jgrants-mcp: ${describeError(error)}`));
