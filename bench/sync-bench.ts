/**
 * Live catalog sync: 3,000 generated records served by the fake jGrants API on loopback, synced into a
 * SQLite file with the default 1 s spacing switched off. Prints the wall time of the first (full) sync, of
 * a second (nothing changed) sync and of a restart, the RSS added, the file size, and the literal
 * search time over the synced catalog (the ranked find_subsidies index reads the same records).
 * Run alone with `npx tsx bench/sync-bench.ts`.
 */
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { createCatalog } from "../src/catalog/catalog.ts";
import { DEFAULT_KEYWORDS } from "../src/catalog/sync/enumerate.ts";
import { createLiveCatalog } from "../src/catalog/sync/live-catalog.ts";
import { createSqliteCatalogStore } from "../src/catalog/sync/sqlite-catalog-store.ts";
import { createCatalogSource } from "../src/mcp-servers/jgrants/catalog-source.ts";
import { createSnapshotSource } from "../src/mcp-servers/jgrants/snapshot-source.ts";
import { loadSet } from "../test/eval/evaluate.ts";
import { startFakeJgrantsApi } from "../test/fakes/fake-jgrants-api.ts";
import { generateSubsidies } from "../test/fakes/generated-subsidies.ts";

const RECORDS = 3_000;
const mb = (bytes: number) => Math.round((bytes / 1_048_576) * 10) / 10;

/** Runs the bench and returns its figures. */
export async function runSyncBench(): Promise<Record<string, number | string>> {
  const now = new Date();
  const fake = await startFakeJgrantsApi(generateSubsidies(RECORDS, now), { now });
  const dir = mkdtempSync(join(tmpdir(), "sc-catalog-bench-"));
  const path = join(dir, "catalog.sqlite");
  const settings = {
    apiUrl: fake.baseUrl,
    timeoutMs: 15_000,
    detailIntervalMs: 0,
    detailMaxAgeMs: 72 * 3_600_000,
    maxSyncMs: 3_600_000,
    retentionMs: 30 * 86_400_000,
    refreshMs: 0,
    resumeMs: 0,
    backoffMs: 1_000,
    keywords: DEFAULT_KEYWORDS,
    syncOnStart: false,
    path,
  };
  const open = () =>
    createLiveCatalog(settings, { openStore: () => createSqliteCatalogStore({ path }), pollMs: 3_600_000 });
  global.gc?.();
  const rssBefore = process.memoryUsage().rss;
  try {
    let catalog = open();
    let t = performance.now();
    const first = await catalog.syncNow();
    const firstMs = performance.now() - t;
    global.gc?.();
    const rssAfter = process.memoryUsage().rss;
    t = performance.now();
    const second = await catalog.syncNow();
    const secondMs = performance.now() - t;
    await catalog.close();

    t = performance.now();
    catalog = open();
    await catalog.ready();
    const restartMs = performance.now() - t;
    const source = createCatalogSource(catalog, () => now, createSnapshotSource());
    const query = {
      keyword: "省エネ",
      sort: "acceptance_end_datetime",
      order: "ASC",
      acceptance: 1,
    } as const;
    await source.search(query);
    const times: number[] = [];
    for (let i = 0; i < 50; i++) {
      t = performance.now();
      await source.search(query);
      times.push(performance.now() - t);
    }
    times.sort((a, b) => a - b);
    // Ranked search (find_subsidies' index) over the synced catalog: build, then the relevance set's questions.
    t = performance.now();
    const ranked = createCatalog(catalog, { now: () => now });
    const rankedBuildMs = performance.now() - t;
    ranked.find("省エネ設備");
    const rankedTimes = loadSet().questions.map((q) => {
      const started = performance.now();
      ranked.find(q.question, {}, 10);
      return performance.now() - started;
    });
    rankedTimes.sort((a, b) => a - b);
    const records = catalog.list().length;
    await catalog.close();
    return {
      "fake records": RECORDS,
      "records in catalog (with the snapshot seed)": records,
      "first sync: details fetched": first.fetched,
      "first sync wall ms (spacing off)": Math.round(firstMs),
      "second sync: details fetched": second.fetched,
      "second sync wall ms": Math.round(secondMs),
      "restart (open + load) ms": Math.round(restartMs),
      "RSS added by the sync (MB)": mb(rssAfter - rssBefore),
      "RSS after sync (MB)": mb(rssAfter),
      "SQLite file (MB)": mb(
        statSync(path).size + (statSync(`${path}-wal`, { throwIfNoEntry: false })?.size ?? 0),
      ),
      "literal search p50 ms": Math.round(times[25]! * 10) / 10,
      "ranked index build ms": Math.round(rankedBuildMs),
      "ranked search p50 ms": Math.round(rankedTimes[Math.floor(rankedTimes.length / 2)]! * 10) / 10,
      "requests served by the fake": fake.calls.length,
    };
  } finally {
    await fake.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.table(await runSyncBench());
}
