/**
 * The live catalog: jGrants records kept in a persistent store (SQLite file, or Redis when several
 * instances share one), seeded from the bundled snapshot, synced in the background at start and every
 * CATALOG_REFRESH_HOURS by whichever instance holds the sync lock; the others reload when it changes.
 */
import { randomUUID } from "node:crypto";
import { describeError } from "../../errors.ts";
import { type Logger, silentLogger } from "../../logger.ts";
import { LiveClient } from "../../mcp-servers/jgrants/live-client.ts";
import { jstDate } from "../../mcp-servers/jgrants/search-result.ts";
import { loadSnapshot, SNAPSHOT_PATH } from "../../mcp-servers/jgrants/snapshot-data.ts";
import type { JgrantsRecord } from "../../mcp-servers/jgrants/types.ts";
import type { CatalogInfo } from "../record-source.ts";
import { createPoliteFetch } from "./polite-fetch.ts";
import { countOpen, presentRow } from "./present.ts";
import { createScheduler } from "./schedule.ts";
import type { CatalogSettings } from "./settings.ts";
import { mergeListItem, storedDetail, stripAttachments } from "./strip.ts";
import { abortableSleep, withSyncLock } from "./sync-lock.ts";
import { runSync, ZERO_COUNTS } from "./sync-run.ts";
import type { CatalogMeta, CatalogRow, CatalogStore, LiveCatalog, SyncReport } from "./types.ts";

export interface LiveCatalogDeps {
  /** Opens the store (SQLite or Redis, chosen from the settings by openCatalogStore). */
  openStore: () => Promise<CatalogStore>;
  logger?: Logger;
  fetch?: typeof fetch;
  /** Every wait of the sync (spacing, backoff); tests record instead of waiting. */
  sleep?: (ms: number) => Promise<void>;
  /** The clock for ages, retention, the time bound and "open now". */
  now?: () => number;
  snapshotPath?: string;
  /** How often a reader checks the store for another instance's sync (default 60 s). */
  pollMs?: number;
  /** LiveClient's short retries of one request (default 2 s, 5 s). */
  retryDelaysMs?: number[];
  /** False: never seed from the snapshot (snapshot:update builds a catalog of live records only). */
  seed?: boolean;
}

/** A snapshot record as a seed row: replaced by the live record as soon as a sync lists it. */
function seedRow(record: JgrantsRecord): CatalogRow {
  const empty = { listHash: null, detailAt: null, seenAt: null, missingSince: null };
  return { id: record.id, record: stripAttachments(record), origin: "snapshot", ...empty };
}

const EMPTY_REPORT = { ...ZERO_COUNTS, ms: 0 };

/** Least timeout of one sync request. */
const SYNC_TIMEOUT_MS = 60_000;

/** How long details stored on demand wait to be published together. */
const PUBLISH_DELAY_MS = 1_000;

/** How long close() waits for a sync in progress to notice and stop. */
const CLOSE_WAIT_MS = 5_000;

/** Creates the catalog; nothing opens or syncs until start(), ready() or syncNow(). */
export function createLiveCatalog(settings: CatalogSettings, deps: LiveCatalogDeps): LiveCatalog {
  const logger = deps.logger ?? silentLogger;
  const now = deps.now ?? Date.now;
  const closing = new AbortController();
  const sleep = deps.sleep ?? ((ms: number) => abortableSleep(ms, closing.signal));
  const owner = randomUUID();
  const rows = new Map<string, CatalogRow>();
  let records: JgrantsRecord[] = [];
  let byId = new Map<string, JgrantsRecord>();
  let version = 0;
  let meta: CatalogMeta = { revision: 0 };
  let snapshotAsOf = "unknown";
  let store: CatalogStore | undefined;
  let opening: Promise<void> | undefined;
  let running: Promise<SyncReport> | undefined;
  let closed = false;
  const listeners = new Set<() => void>();

  const publish = () => {
    records = [...rows.values()].map(presentRow);
    byId = new Map(records.map((r) => [r.id, r]));
    version += 1;
    for (const listener of listeners) {
      try {
        listener();
      } catch (error) {
        logger.warn({ err: error }, "catalog change listener failed");
      }
    }
  };

  // Details fetched on demand arrive in bursts (the top five of an answer): publish them once.
  let pending: NodeJS.Timeout | undefined;
  const publishSoon = () => {
    pending ??= setTimeout(() => {
      pending = undefined;
      publish();
    }, PUBLISH_DELAY_MS);
    pending.unref();
  };

  async function reload(): Promise<void> {
    const s = store!;
    const [all, latest] = await Promise.all([s.loadAll(), s.meta()]);
    rows.clear();
    for (const row of all) rows.set(row.id, row);
    meta = latest;
    publish();
  }

  async function open(): Promise<void> {
    const snapshot = loadSnapshot(deps.snapshotPath ?? SNAPSHOT_PATH);
    snapshotAsOf = snapshot.asOf;
    store = await deps.openStore();
    meta = await store.meta();
    if (deps.seed !== false && !meta.seeded) {
      // Under the sync lock, so a seed never overwrites live rows another instance is writing.
      const s = store;
      await withSyncLock(s, owner, async () => {
        if ((await s.meta()).seeded || (await s.loadAll()).length > 0) return;
        const seed = snapshot.records.map(({ record }) => seedRow(record));
        await s.put(seed);
        await s.setMeta({ seeded: true });
        logger.info({ records: seed.length }, "catalog seeded from the bundled snapshot");
      });
    }
    await reload();
  }

  // A store that cannot be opened (Redis down) is tried again on the next call or scheduled sync.
  const ready = () => {
    opening ??= open().catch((error: unknown) => {
      opening = undefined;
      throw error;
    });
    return opening;
  };

  async function sync(): Promise<SyncReport> {
    await ready();
    const s = store!;
    const started = now();
    const report = await withSyncLock(s, owner, async (lockLost) => {
      try {
        const result = await runSync({
          store: s,
          rows,
          get: politeGet(() => closed || lockLost() || now() - started >= settings.maxSyncMs),
          keywords: settings.keywords,
          detailMaxAgeMs: settings.detailMaxAgeMs,
          retentionMs: settings.retentionMs,
          now,
          onRows: publish,
        });
        const done: SyncReport = { ...result, ms: now() - started };
        await s.setMeta(
          done.outcome === "done"
            ? { lastSyncAt: started, lastSyncMs: done.ms, lastAttemptAt: started, lastError: done.error }
            : { lastAttemptAt: started, lastError: done.error },
        );
        meta = await s.meta();
        logger.info({ ...done }, "catalog sync finished");
        return done;
      } catch (error) {
        const message = describeError(error);
        logger.error({ err: error }, "catalog sync failed");
        await s.setMeta({ lastAttemptAt: started, lastError: message }).catch(() => undefined);
        meta = { ...meta, lastAttemptAt: started, lastError: message };
        return { ...EMPTY_REPORT, outcome: "failed" as const, ms: now() - started, error: message };
      }
    });
    if (report) return report;
    // Another instance holds the lock: read what it has written so far.
    await reload();
    return { ...EMPTY_REPORT, outcome: "skipped" };
  }

  /** One polite fetcher per sync: spaced requests, short retries, then a growing backoff. */
  function politeGet(shouldStop: () => boolean) {
    const client = new LiveClient({
      baseUrl: settings.apiUrl,
      // A sync waits for nobody: large lists (acceptance=0 returns every past subsidy too) get time.
      timeoutMs: Math.max(settings.timeoutMs, SYNC_TIMEOUT_MS),
      detailIntervalMs: settings.detailIntervalMs,
      retryDelaysMs: deps.retryDelaysMs ?? [2_000, 5_000],
      maxRetryAfterMs: 60_000,
      fetch: deps.fetch ?? globalThis.fetch,
      sleep,
      now,
      logger,
    });
    const options = { client, sleep, backoffMs: settings.backoffMs, maxBackoffMs: 300_000 };
    return createPoliteFetch({ ...options, maxConsecutiveFailures: 6, shouldStop });
  }

  const syncNow = () => {
    running ??= sync().finally(() => {
      running = undefined;
    });
    return running;
  };

  /**
   * A scheduled sync: skipped when another instance completed one within half a refresh period (several
   * instances started at different times would otherwise each crawl once per period).
   */
  async function syncIfDue(): Promise<SyncReport> {
    await ready();
    const latest = await store!.meta();
    const last = latest.lastSyncAt;
    if (last !== undefined && settings.refreshMs > 0 && now() - last < settings.refreshMs / 2) {
      if (latest.revision !== meta.revision) await reload();
      return { ...EMPTY_REPORT, outcome: "skipped" };
    }
    return syncNow();
  }

  const scheduler = createScheduler({
    refreshMs: settings.refreshMs,
    resumeMs: settings.resumeMs,
    pollMs: deps.pollMs ?? 60_000,
    syncOnStart: settings.syncOnStart,
    logger,
    sync: syncIfDue,
    async poll() {
      if (running || !store) return;
      const latest = await store.meta();
      if (latest.revision !== meta.revision) await reload();
    },
  });

  return {
    list: () => records,
    get: (id) => byId.get(id),
    version: () => version,
    onChange(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    info(): CatalogInfo {
      const lastSync = meta.lastSyncAt;
      return {
        origin: "live",
        asOf: lastSync === undefined ? snapshotAsOf : jstDate(lastSync),
        recordCount: records.length,
        openCount: countOpen(records, now()),
        ...(lastSync === undefined ? {} : { lastSyncAt: new Date(lastSync).toISOString() }),
        ...(meta.lastSyncMs === undefined ? {} : { lastSyncMs: meta.lastSyncMs }),
        ...(meta.lastError ? { lastError: meta.lastError } : {}),
      };
    },
    row: (id) => rows.get(id),
    freshDetail(id) {
      const row = rows.get(id);
      if (row?.origin !== "live" || row.detailAt === null) return undefined;
      if (now() - row.detailAt > settings.detailMaxAgeMs) return undefined;
      return { record: presentRow(row), fetchedAt: row.detailAt };
    },
    async storeDetail(record) {
      await ready();
      const old = rows.get(record.id);
      const row: CatalogRow = {
        id: record.id,
        // The last live list's fields win (a v1 detail can describe an earlier round).
        record: old?.seenAt ? mergeListItem(storedDetail(record), old.record) : storedDetail(record),
        origin: "live",
        listHash: old?.listHash ?? null,
        detailAt: now(),
        seenAt: old?.seenAt ?? null,
        missingSince: old?.missingSince ?? null,
      };
      await store!.put([row]);
      rows.set(row.id, row);
      publishSoon();
    },
    start() {
      ready().catch((error: unknown) =>
        logger.error({ err: error }, "cannot open the catalog store; answers use the snapshot meanwhile"),
      );
      scheduler.start();
    },
    ready,
    syncNow,
    async close() {
      closed = true;
      closing.abort();
      clearTimeout(pending);
      scheduler.stop();
      await Promise.race([running?.catch(() => undefined), abortableSleep(CLOSE_WAIT_MS)]);
      await opening?.catch(() => undefined);
      await store?.close().catch(() => undefined);
      store = undefined;
    },
  };
}
