/**
 * `npm run catalog:sync`: runs one sync of the live catalog now, on the store the bot uses (the SQLite file
 * or REDIS_URL), and prints its report. When a running bot holds the sync lock it reports "skipped".
 */
import { loadConfig } from "../../config.ts";
import { describeError } from "../../errors.ts";
import { createLogger } from "../../logger.ts";
import { createLiveCatalogFromConfig } from "./index.ts";

async function main(): Promise<number> {
  const config = loadConfig();
  const logger = createLogger({ level: config.logLevel, destination: process.stderr });
  const catalog = createLiveCatalogFromConfig(config, { logger });
  try {
    const report = await catalog.syncNow();
    process.stdout.write(`${JSON.stringify({ report, catalog: catalog.info() }, null, 2)}\n`);
    return report.outcome === "done" || report.outcome === "skipped" ? 0 : 1;
  } finally {
    await catalog.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`catalog:sync: ${describeError(error)}\n`);
    process.exit(2);
  },
);
