/**
 * `npm run snapshot:update [-- --force] [--out FILE] [--readme FILE]`: rebuilds the bundled snapshot from
 * the live API with the catalog's own polite sync (one request at a time, CATALOG_REQUEST_INTERVAL_MS
 * apart, backoff on 429/5xx), then writes it only when the sync completed and the new file is not smaller
 * than the old one (unless --force), and keeps the provenance section of the snapshot README current.
 */
import { mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { acceptanceEnd, isAccepting } from "../../mcp-servers/jgrants/records.ts";
import { jstDate } from "../../mcp-servers/jgrants/search-result.ts";
import type { JgrantsRecord } from "../../mcp-servers/jgrants/types.ts";
import { createLiveCatalog, type LiveCatalogDeps } from "./live-catalog.ts";
import { updateProvenance } from "./provenance.ts";
import type { CatalogSettings } from "./settings.ts";
import { createSqliteCatalogStore } from "./sqlite-catalog-store.ts";
import type { SyncReport } from "./types.ts";

export interface SnapshotUpdateOptions {
  settings: CatalogSettings;
  out: string;
  readme: string;
  force: boolean;
  deps?: Partial<LiveCatalogDeps>;
}

export interface SnapshotUpdateResult {
  written: boolean;
  reason: string;
  records: number;
  previous: number;
  report: SyncReport;
}

/** Records of an existing snapshot file, or -1 when it is missing or broken. */
function countRecords(path: string): number {
  try {
    const raw = JSON.parse(readFileSync(path, "utf8")) as { records?: unknown };
    return Array.isArray(raw.records) ? raw.records.length : -1;
  } catch {
    return -1;
  }
}

/** Why a set of records must not be written, or undefined when it is sound. */
function brokenReason(records: JgrantsRecord[], report: SyncReport): string | undefined {
  if (report.outcome !== "done")
    return `the sync did not complete (${report.outcome}: ${report.error ?? ""})`;
  if (records.length === 0) return "the live API listed no records";
  const bad = records.find((r) => typeof r.id !== "string" || typeof r.title !== "string");
  return bad ? `a record lacks its id or title (${String(bad.id)})` : undefined;
}

/** Syncs a fresh, unseeded catalog and writes the snapshot when it is sound. */
export async function updateSnapshot(options: SnapshotUpdateOptions): Promise<SnapshotUpdateResult> {
  const dir = mkdtempSync(join(tmpdir(), "snapshot-update-"));
  const path = join(dir, "catalog.sqlite");
  const catalog = createLiveCatalog(
    { ...options.settings, path, retentionMs: 0 },
    { openStore: () => createSqliteCatalogStore({ path }), seed: false, ...options.deps },
  );
  try {
    const report = await catalog.syncNow();
    const now = (options.deps?.now ?? Date.now)();
    const records = catalog
      .list()
      .filter((r) => r._catalog_missing_since === undefined)
      .sort((a, b) => (acceptanceEnd(a) ?? Infinity) - (acceptanceEnd(b) ?? Infinity));
    const previous = countRecords(options.out);
    const result = { records: records.length, previous, report };
    const broken = brokenReason(records, report);
    if (broken && !options.force) return { written: false, reason: broken, ...result };
    if (records.length < previous && !options.force) {
      return {
        written: false,
        reason: `${records.length} records < ${previous} in the current file`,
        ...result,
      };
    }
    const asOf = jstDate(now);
    const body = {
      _about: `jGrants subsidy records from the public API (${options.settings.apiUrl}), listed with the keywords ${options.settings.keywords.join("、")} (open and upcoming) and fetched one detail at a time by npm run snapshot:update. Attachments keep names and sizes only, never base64.`,
      as_of: asOf,
      as_of_note: "The day of the sync; use it as the default clock of the offline server.",
      records,
    };
    const tmp = `${options.out}.tmp`;
    writeFileSync(tmp, `${JSON.stringify(body, null, 1)}\n`);
    renameSync(tmp, options.out);
    const open = records.filter((r) => isAccepting(r, now)).length;
    updateProvenance(options.readme, {
      asOf,
      records: records.length,
      open,
      report,
      settings: options.settings,
    });
    return { written: true, reason: broken ? `forced: ${broken}` : "ok", ...result };
  } finally {
    await catalog.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
