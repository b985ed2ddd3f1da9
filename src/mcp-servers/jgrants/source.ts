/**
 * Chooses the data source (live | snapshot | auto) from config. With the live catalog, fresh details come
 * from it and auto falls back to it; without, auto falls back to the snapshot. Either says so.
 */
import type { LiveCatalog } from "../../catalog/sync/types.ts";
import type { Config } from "../../config.ts";
import type { Logger } from "../../logger.ts";
import { createCatalogSource, withCatalog } from "./catalog-source.ts";
import type { FileLimits } from "./file-content.ts";
import { LiveClient, realSleep } from "./live-client.ts";
import { createLiveSource } from "./live-source.ts";
import { createSnapshotSource } from "./snapshot-source.ts";
import { type JgrantsSource, type ToolPayload, UNREACHABLE } from "./types.ts";

export type { JgrantsSource } from "./types.ts";

/** Collaborators of the sources; everything time-related is injectable so tests stay fast. */
export interface JgrantsSourceDeps {
  logger?: Logger;
  /** The clock for "open now"; overrides JGRANTS_NOW and the snapshot's own date. */
  now?: () => Date;
  fetch?: typeof fetch;
  sleep?: (ms: number) => Promise<void>;
  /** Backoff before each retry of 429/5xx (default 1 s, 3 s). */
  retryDelaysMs?: number[];
  /** After the live API was unreachable, auto mode serves the snapshot for this long (default 60 s). */
  liveRetryAfterMs?: number;
  fileLimits?: FileLimits;
  snapshotPath?: string;
  /** The live catalog: fresh details come from it, live details go into it, auto falls back to it. */
  catalog?: LiveCatalog;
}

/** Creates the source named by `config.source`. */
export function createJgrantsSource(config: Config["jgrants"], deps: JgrantsSourceDeps = {}): JgrantsSource {
  const fixedNow = config.now ? new Date(config.now) : undefined;
  const snapshotNow = deps.now ?? (fixedNow ? () => fixedNow : undefined);
  const snapshot = () => createSnapshotSource({ now: snapshotNow, path: deps.snapshotPath });
  if (config.source === "snapshot") return snapshot();
  const client = new LiveClient({
    baseUrl: config.apiUrl,
    timeoutMs: config.timeoutMs,
    detailIntervalMs: config.detailIntervalMs,
    retryDelaysMs: deps.retryDelaysMs ?? [1_000, 3_000],
    maxRetryAfterMs: 10_000,
    fetch: deps.fetch ?? globalThis.fetch,
    sleep: deps.sleep ?? realSleep,
    logger: deps.logger,
  });
  const { catalog, logger } = deps;
  const liveNow = deps.now ?? (() => new Date());
  const live = createLiveSource({
    client,
    now: liveNow,
    logger,
    fileLimits: deps.fileLimits,
    onDetail: catalog
      ? (record) =>
          void catalog.storeDetail(record).catch((error: unknown) => {
            logger?.warn({ err: error, id: record.id }, "could not keep the detail in the catalog");
          })
      : undefined,
  });
  const front = catalog ? withCatalog(live, catalog, liveNow) : live;
  if (config.source === "live") return front;
  const fallback = catalog ? createCatalogSource(catalog, snapshotNow ?? liveNow, snapshot()) : snapshot();
  return createAutoSource(front, fallback, logger, deps.liveRetryAfterMs ?? 60_000);
}

/** Live first; when the API is unreachable, the snapshot answers with `data_source.fallback_reason`. */
export function createAutoSource(
  live: JgrantsSource,
  snapshot: JgrantsSource,
  logger?: Logger,
  liveRetryAfterMs = 60_000,
): JgrantsSource {
  let downSince: number | undefined;
  let lastReason = "";

  async function run(call: (s: JgrantsSource) => Promise<ToolPayload>): Promise<ToolPayload> {
    if (downSince === undefined || performance.now() - downSince >= liveRetryAfterMs) {
      const result = await call(live);
      const reason = (result as { [UNREACHABLE]?: string })[UNREACHABLE];
      if (reason === undefined) {
        downSince = undefined;
        return result;
      }
      downSince = performance.now();
      lastReason = reason;
      logger?.warn({ reason }, "jgrants live API unreachable; serving the bundled snapshot");
    }
    const fallback = await call(snapshot);
    const dataSource = (fallback.data_source as Record<string, unknown> | undefined) ?? {
      mode: "snapshot",
    };
    const used =
      dataSource.mode === "catalog"
        ? `保存済みのデータ（${String(dataSource.as_of)}時点）`
        : "同梱のスナップショット";
    return {
      ...fallback,
      data_source: {
        ...dataSource,
        fallback_reason: `jGrants APIに接続できないため、${used}で回答しています（${lastReason}）`,
      },
    };
  }

  return {
    mode: "auto",
    search: (params) => run((s) => s.search(params)),
    detail: (id) => run((s) => s.detail(id)),
    overview: (format) => run((s) => s.overview(format)),
    file: (id, filename, format) => run((s) => s.file(id, filename, format)),
  };
}
