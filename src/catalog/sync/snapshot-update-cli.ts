/**
 * `npm run snapshot:update [-- --force] [--out FILE] [--readme FILE]`: refreshes the bundled snapshot from
 * the live jGrants API (JGRANTS_API_URL), politely (CATALOG_REQUEST_INTERVAL_MS between requests). Exits 1
 * without writing when the sync was incomplete or the result is smaller than the current file.
 */
import { dirname, join } from "node:path";
import { parseArgs } from "node:util";
import { loadConfig } from "../../config.ts";
import { describeError } from "../../errors.ts";
import { createLogger } from "../../logger.ts";
import { SNAPSHOT_PATH } from "../../mcp-servers/jgrants/snapshot-data.ts";
import { catalogSettings } from "./settings.ts";
import { updateSnapshot } from "./snapshot-update.ts";

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      force: { type: "boolean", default: false },
      out: { type: "string" },
      readme: { type: "string" },
    },
    strict: true,
  });
  const config = loadConfig();
  const logger = createLogger({ level: config.logLevel, destination: process.stderr });
  const out = values.out ?? SNAPSHOT_PATH;
  const settings = { ...catalogSettings(config), syncOnStart: false, refreshMs: 0 };
  process.stderr.write(
    `Syncing from ${settings.apiUrl}, one request every ${settings.detailIntervalMs} ms (this takes a while)…\n`,
  );
  const result = await updateSnapshot({
    settings,
    out,
    readme: values.readme ?? join(dirname(out), "README.md"),
    force: values.force,
    deps: { logger },
  });
  const line = `${result.records} records (current file: ${result.previous}); sync ${result.report.outcome}`;
  if (!result.written) {
    process.stderr.write(`Not written: ${result.reason}. ${line}. Use --force to write anyway.\n`);
    return 1;
  }
  process.stdout.write(`Wrote ${out}: ${line} (${result.reason}).\n`);
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`snapshot:update: ${describeError(error)}\n`);
    process.exit(2);
  },
);
