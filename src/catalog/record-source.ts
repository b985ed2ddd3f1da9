/**
 * Where the catalog's records come from: the bundled snapshot now, the live jGrants sync (src/catalog/sync)
 * later. The ranked index (src/catalog) rebuilds itself from whichever source it is given when `version`
 * changes, so a source only has to hold records and say when they changed.
 */
import { loadSnapshot, SNAPSHOT_PATH } from "../mcp-servers/jgrants/snapshot-data.ts";
import type { JgrantsRecord } from "../mcp-servers/jgrants/types.ts";

/** Facts about the records for /healthz, /tools and answers ("2026-08-22時点のデータ"). */
export interface CatalogInfo {
  /** "snapshot" (bundled data only) or "live" (synced from the jGrants API, seeded by the snapshot). */
  origin: "snapshot" | "live";
  /** YYYY-MM-DD the data is as of: the snapshot's date, or the day of the last successful sync. */
  asOf: string;
  recordCount: number;
  /** Records open on the day asked about (filled by the sync's reporting; absent for the snapshot). */
  openCount?: number;
  lastSyncAt?: string;
  lastSyncMs?: number;
  lastError?: string;
}

/** A set of jGrants records (list fields plus detail fields when known; never attachment bodies). */
export interface CatalogRecordSource {
  /** Every record held: open, upcoming, and closed ones kept for follow-ups. */
  list(): readonly JgrantsRecord[];
  get(id: string): JgrantsRecord | undefined;
  /** Changes whenever the set of records or any record changes. */
  version(): number;
  /** Called after each change. Returns an unsubscribe function. */
  onChange(listener: () => void): () => void;
  info(): CatalogInfo;
}

/** A fixed set of records as a source (it never changes). */
export function recordSourceOf(
  records: JgrantsRecord[],
  info: Omit<CatalogInfo, "recordCount">,
): CatalogRecordSource {
  const byId = new Map(records.map((r) => [r.id, r]));
  return {
    list: () => records,
    get: (id) => byId.get(id),
    version: () => 0,
    onChange: () => () => undefined,
    info: () => ({ ...info, recordCount: records.length }),
  };
}

/** The bundled snapshot as a record source (it never changes). */
export function snapshotRecordSource(path: string = SNAPSHOT_PATH): CatalogRecordSource {
  const snapshot = loadSnapshot(path);
  return recordSourceOf(
    snapshot.records.map((r) => r.record),
    { origin: "snapshot", asOf: snapshot.asOf },
  );
}
