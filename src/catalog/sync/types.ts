/**
 * The vocabulary of the live catalog: a stored row, the store seam (SQLite file or Redis), and the report
 * of one sync run. Rows hold jGrants records with attachment names and sizes, never their base64 bodies.
 */
import type { JgrantsRecord } from "../../mcp-servers/jgrants/types.ts";
import type { CatalogInfo, CatalogRecordSource } from "../record-source.ts";

/** One record as the catalog keeps it. */
export interface CatalogRow {
  id: string;
  record: JgrantsRecord;
  /** "snapshot" until the live API gave this record; then "live". */
  origin: "snapshot" | "live";
  /** Hash of the list-API fields last seen live (a change means "fetch the detail again"). */
  listHash: string | null;
  /** Epoch ms of the last detail fetched live; null when only list fields (or the snapshot) are known. */
  detailAt: number | null;
  /** Epoch ms of the last time a live list held this id. */
  seenAt: number | null;
  /** Epoch ms since when the live lists no longer hold it (kept as closed, then dropped). */
  missingSince: number | null;
}

/** Sync bookkeeping shared by every instance on one store. */
export interface CatalogMeta {
  /** Bumped on every write, so readers in other processes know to reload. */
  revision: number;
  lastSyncAt?: number;
  lastSyncMs?: number;
  lastAttemptAt?: number;
  lastError?: string;
  /** True when the snapshot seed was written (a store emptied later is not re-seeded by accident). */
  seeded?: boolean;
}

/** Where the catalog persists. Every write bumps `revision` atomically with the data it writes. */
export interface CatalogStore {
  readonly kind: "sqlite" | "redis";
  /** Every row held. */
  loadAll(): Promise<CatalogRow[]>;
  /** Writes rows (insert or replace) in one atomic step. */
  put(rows: CatalogRow[]): Promise<void>;
  /** Deletes rows by id in one atomic step. */
  remove(ids: string[]): Promise<void>;
  meta(): Promise<CatalogMeta>;
  /** Merges fields into the meta (revision is bumped by the store). */
  setMeta(patch: Partial<Omit<CatalogMeta, "revision">>): Promise<void>;
  /** Takes the sync lock for `ttlMs` unless another live owner holds it. */
  tryLock(owner: string, ttlMs: number): Promise<boolean>;
  /** Extends the lock; false when `owner` no longer holds it. */
  renewLock(owner: string, ttlMs: number): Promise<boolean>;
  /** Frees the lock only if `owner` holds it. */
  unlock(owner: string): Promise<void>;
  close(): Promise<void>;
}

/** What one sync did. */
export interface SyncReport {
  /** "done": complete; "partial": stopped by the time bound or a failure, kept what it got; "skipped": another instance holds the lock. */
  outcome: "done" | "partial" | "skipped" | "failed";
  listed: number;
  fetched: number;
  /** Details that failed with a non-retryable answer (4xx) or after backoff. */
  failedDetails: number;
  added: number;
  markedMissing: number;
  dropped: number;
  ms: number;
  error?: string;
}

/** The live catalog: a record source for ranked search plus its sync controls. */
export interface LiveCatalog extends CatalogRecordSource {
  /** Opens the store (seeding it from the snapshot when empty), then syncs in the background and on schedule. */
  start(): void;
  /** Runs one sync now (or reports "skipped" when another instance holds the lock). */
  syncNow(): Promise<SyncReport>;
  /** Resolves once the store is open and the records are loaded (start() and syncNow() call it). */
  ready(): Promise<void>;
  /** The stored row of a record, with its detail age. */
  row(id: string): CatalogRow | undefined;
  /** The record when its live detail is within the age limit, with when it was fetched. */
  freshDetail(id: string): { record: JgrantsRecord; fetchedAt: number } | undefined;
  /** Stores a detail fetched on demand (attachments stripped) and publishes it. */
  storeDetail(record: JgrantsRecord): Promise<void>;
  info(): CatalogInfo;
  close(): Promise<void>;
}
