/** The catalog's settings, taken from the config sections it needs (jgrants API, catalog, store). */
import { dirname, join } from "node:path";
import type { Config } from "../../config.ts";
import { DEFAULT_KEYWORDS } from "./enumerate.ts";

export interface CatalogSettings {
  apiUrl: string;
  timeoutMs: number;
  /** Spacing between the starts of two sync requests (default 1 s). */
  detailIntervalMs: number;
  /** A stored detail older than this is fetched again (sync) or live (get_subsidy_detail). */
  detailMaxAgeMs: number;
  /** Time bound of one sync; past it the sync stops and keeps what it got. */
  maxSyncMs: number;
  /** How long a record that left the live lists is kept (as closed) before it is dropped. */
  retentionMs: number;
  refreshMs: number;
  /** Delay before resuming after a partial or failed sync. */
  resumeMs: number;
  /** First backoff after a 429/5xx or a network failure; it doubles. */
  backoffMs: number;
  keywords: string[];
  syncOnStart: boolean;
  /** The SQLite file (used when no Redis URL is set). */
  path: string;
  redisUrl?: string;
}

/** Builds the settings from the loaded config. */
export function catalogSettings(config: Pick<Config, "jgrants" | "catalog" | "store">): CatalogSettings {
  const { jgrants, catalog, store } = config;
  return {
    apiUrl: jgrants.apiUrl,
    timeoutMs: jgrants.timeoutMs,
    detailIntervalMs: catalog.detailIntervalMs,
    detailMaxAgeMs: catalog.detailMaxAgeMs,
    maxSyncMs: catalog.maxSyncMs,
    retentionMs: catalog.retentionMs,
    refreshMs: catalog.refreshMs,
    resumeMs: Math.min(15 * 60_000, catalog.refreshMs),
    backoffMs: 5_000,
    keywords: catalog.keywords?.length ? catalog.keywords : DEFAULT_KEYWORDS,
    syncOnStart: catalog.syncOnStart,
    path:
      catalog.path ??
      (store.sqlitePath === ":memory:" ? ":memory:" : join(dirname(store.sqlitePath), "catalog.sqlite")),
    redisUrl: store.redisUrl,
  };
}
