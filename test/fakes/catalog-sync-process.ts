/**
 * A child process for the multi-process catalog tests: opens the live catalog on CATALOG_PATH (SQLite) or
 * REDIS_URL against JGRANTS_API_URL, prints "ready", waits for "go" on stdin, runs one sync with real
 * spacing and prints its report as one JSON line.
 */
import { createInterface } from "node:readline";
import { openCatalogStore } from "../../src/catalog/sync/index.ts";
import { createLiveCatalog } from "../../src/catalog/sync/live-catalog.ts";

const path = process.env.CATALOG_PATH ?? "";
const redisUrl = process.env.REDIS_URL || undefined;
const catalog = createLiveCatalog(
  {
    apiUrl: process.env.JGRANTS_API_URL ?? "",
    timeoutMs: 5_000,
    detailIntervalMs: Number(process.env.CATALOG_REQUEST_INTERVAL_MS ?? 20),
    detailMaxAgeMs: 3_600_000,
    maxSyncMs: 120_000,
    retentionMs: 86_400_000,
    refreshMs: 0,
    resumeMs: 0,
    backoffMs: 50,
    keywords: ["補助", "助成", "奨励", "支援"],
    syncOnStart: false,
    path,
    redisUrl,
  },
  { openStore: () => openCatalogStore({ path, redisUrl }), pollMs: 3_600_000 },
);
await catalog.ready();
process.stdout.write("ready\n");
const lines = createInterface({ input: process.stdin });
for await (const line of lines) {
  if (line.trim() !== "go") continue;
  const report = await catalog.syncNow();
  process.stdout.write(`${JSON.stringify(report)}\n`);
  break;
}
await catalog.close();
process.exit(0);
