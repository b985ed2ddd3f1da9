/**
 * One sync: enumerate, write the list fields of every record found (so new subsidies show at once), fetch
 * the detail of new or changed records one at a time (each written as it arrives, so a cut keeps them and
 * the next run resumes with the rest), then mark records absent from a complete enumeration as missing and
 * drop those missing for longer than the retention.
 */
import { enumerate } from "./enumerate.ts";
import type { PoliteOutcome } from "./polite-fetch.ts";
import { listHash, mergeListItem, storedDetail } from "./strip.ts";
import type { CatalogRow, CatalogStore, SyncReport } from "./types.ts";

export interface SyncRunOptions {
  store: CatalogStore;
  /** The current rows by id; updated in place as the sync writes. */
  rows: Map<string, CatalogRow>;
  get: (path: string, query?: Record<string, string>) => Promise<PoliteOutcome>;
  keywords: string[];
  detailMaxAgeMs: number;
  retentionMs: number;
  now: () => number;
  /** Called after rows were written (batched), so readers can publish them. */
  onRows: () => void;
  /** Publish every this many details (default 100). */
  publishEvery?: number;
}

function detailOf(data: unknown): Record<string, unknown> | undefined {
  const result = (data as { result?: unknown } | null)?.result ?? data;
  const record = Array.isArray(result) ? result[0] : result;
  return record && typeof record === "object" ? (record as Record<string, unknown>) : undefined;
}

/** The counters of a sync report before anything happened. */
export const ZERO_COUNTS = {
  listed: 0,
  fetched: 0,
  failedDetails: 0,
  added: 0,
  markedMissing: 0,
  dropped: 0,
} as const;

/** Runs the sync; never throws for API trouble (it ends "partial" with the error). */
export async function runSync(options: SyncRunOptions): Promise<Omit<SyncReport, "ms">> {
  const { store, rows, now } = options;
  const report: Omit<SyncReport, "ms"> = { outcome: "done", ...ZERO_COUNTS };
  const found = await enumerate(options.get, options.keywords, now());
  report.listed = found.items.size;
  const at = now();
  const listed: CatalogRow[] = [];
  const queue: Array<{ row: CatalogRow; hash: string; item: Record<string, unknown> }> = [];
  for (const [id, item] of found.items) {
    const old = rows.get(id);
    if (!old) report.added += 1;
    const hash = listHash(item);
    const row: CatalogRow = {
      id,
      record: mergeListItem(old?.record, item),
      origin: "live",
      listHash: old?.listHash ?? null,
      detailAt: old?.detailAt ?? null,
      seenAt: at,
      missingSince: null,
    };
    listed.push(row);
    const stale = row.detailAt === null || at - row.detailAt > options.detailMaxAgeMs;
    if (stale || row.listHash !== hash || old?.origin !== "live") queue.push({ row, hash, item });
  }
  if (listed.length > 0) {
    await store.put(listed);
    for (const row of listed) rows.set(row.id, row);
    options.onRows();
  }
  // New records first, then changed ones, then the oldest details.
  queue.sort((a, b) => (a.row.detailAt ?? -1) - (b.row.detailAt ?? -1));
  const errors = [...found.errors];
  let stopped = found.stopped;
  for (const { row, hash, item } of stopped ? [] : queue) {
    const outcome = await options.get(`/subsidies/id/${encodeURIComponent(row.id)}`);
    if (outcome.kind === "stop") {
      stopped = outcome.error;
      break;
    }
    if (outcome.kind === "gone") {
      report.failedDetails += 1;
      errors.push(`${row.id}: ${outcome.error}`);
      continue;
    }
    const detail = detailOf(outcome.data);
    if (!detail) {
      report.failedDetails += 1;
      continue;
    }
    // The list's fields win: a v1 detail can describe an earlier round of the same subsidy.
    const record = mergeListItem(storedDetail({ ...detail, id: row.id }), item);
    const next: CatalogRow = { ...row, record, listHash: hash, detailAt: now() };
    await store.put([next]);
    rows.set(row.id, next);
    report.fetched += 1;
    if (report.fetched % (options.publishEvery ?? 100) === 0) options.onRows();
  }
  const shrunk = suspiciousShrink(rows, found.items.size);
  if (shrunk) errors.push(shrunk);
  else if (found.complete && !found.stopped) await retire(options, found.items, report);
  if (stopped) {
    report.outcome = "partial";
    report.error = `同期を途中で止めました（${stopped}）。取得済みの分は保存し、次回の同期で続きを取得します`;
  } else if (errors.length > 0) {
    report.error = errors.slice(0, 3).join("; ");
  }
  options.onRows();
  return report;
}

/**
 * An empty listing, or one under half of the live records held, looks like an API fault rather than mass
 * withdrawal: nothing is retired then (the error says why).
 */
function suspiciousShrink(rows: Map<string, CatalogRow>, listed: number): string | undefined {
  let held = 0;
  for (const row of rows.values()) if (row.origin === "live" && row.missingSince === null) held += 1;
  if (listed === 0) return "the live lists were empty; no record was marked as gone";
  // `rows` already holds the listed ones as live, so `held` is this listing plus the live ones it lacks.
  if (listed * 2 >= held) return undefined;
  return `the live lists shrank to ${listed} of ${held}; no record was marked as gone`;
}

/** Marks records absent from a complete enumeration as missing, and drops those past the retention. */
async function retire(
  options: SyncRunOptions,
  listed: Map<string, unknown>,
  report: Omit<SyncReport, "ms">,
): Promise<void> {
  const { rows, store } = options;
  const at = options.now();
  const missing: CatalogRow[] = [];
  const drop: string[] = [];
  for (const row of rows.values()) {
    if (listed.has(row.id)) continue;
    if (row.missingSince === null) missing.push({ ...row, missingSince: at });
    else if (at - row.missingSince > options.retentionMs) drop.push(row.id);
  }
  if (missing.length > 0) {
    await store.put(missing);
    for (const row of missing) rows.set(row.id, row);
  }
  if (drop.length > 0) {
    await store.remove(drop);
    for (const id of drop) rows.delete(id);
  }
  report.markedMissing = missing.length;
  report.dropped = drop.length;
}
