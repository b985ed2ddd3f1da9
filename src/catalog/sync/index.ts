/**
 * The live jGrants catalog, built from config: `createLiveCatalogFromConfig(config, deps)` returns a
 * CatalogRecordSource (for ranked search) with start / syncNow / close. The store is the SQLite file under
 * the data directory, or Redis when REDIS_URL is set (then every instance shares it and one syncs).
 */
import type { Config } from "../../config.ts";
import { createLiveCatalog, type LiveCatalogDeps } from "./live-catalog.ts";
import { catalogSettings } from "./settings.ts";
import { createSqliteCatalogStore } from "./sqlite-catalog-store.ts";
import type { CatalogStore, LiveCatalog } from "./types.ts";

export { createLiveCatalog } from "./live-catalog.ts";
export type { CatalogSettings } from "./settings.ts";
export { catalogSettings } from "./settings.ts";
export type { CatalogRow, LiveCatalog, SyncReport } from "./types.ts";

/** Opens the store the settings name: Redis when a URL is set, else the SQLite file. */
export async function openCatalogStore(settings: { path: string; redisUrl?: string }): Promise<CatalogStore> {
  if (settings.redisUrl) {
    const { createRedisCatalogStore } = await import("./redis-catalog-store.ts");
    return createRedisCatalogStore({ url: settings.redisUrl });
  }
  return createSqliteCatalogStore({ path: settings.path });
}

/** The live catalog for this config (not started: call start() to sync in the background). */
export function createLiveCatalogFromConfig(
  config: Pick<Config, "jgrants" | "catalog" | "store">,
  deps: Omit<LiveCatalogDeps, "openStore"> & Partial<Pick<LiveCatalogDeps, "openStore">> = {},
): LiveCatalog {
  const settings = catalogSettings(config);
  return createLiveCatalog(settings, { openStore: () => openCatalogStore(settings), ...deps });
}
