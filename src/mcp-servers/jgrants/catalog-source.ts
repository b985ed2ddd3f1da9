/**
 * The jGrants tools over the live catalog (src/catalog/sync). `withCatalog` puts it in front of the live
 * API for details: a stored detail within its age limit answers at once; an older or missing one is
 * fetched live and the catalog keeps it. `createCatalogSource` answers from the catalog alone, with the
 * same literal search as the snapshot (auto mode's fallback when the API is down).
 */
import type { LiveCatalog } from "../../catalog/sync/types.ts";
import { formatDetail } from "./format-detail.ts";
import { computeOverview, overviewToCsv } from "./overview.ts";
import { findAttachment, portalUrl, toListItem } from "./records.ts";
import { jstDate, searchResult } from "./search-result.ts";
import { type IndexedRecord, indexRecord } from "./snapshot-data.ts";
import { searchSnapshot } from "./snapshot-search.ts";
import type { DataSourceInfo, JgrantsSource } from "./types.ts";
import { DEFAULT_SEARCH } from "./validate.ts";

/** Live source whose details come from the catalog while they are fresh. */
export function withCatalog(live: JgrantsSource, catalog: LiveCatalog, now: () => Date): JgrantsSource {
  return {
    ...live,
    mode: live.mode,
    async detail(id) {
      await catalog.ready().catch(() => undefined);
      const fresh = catalog.freshDetail(id);
      if (!fresh) return live.detail(id);
      // Live data fetched within the age limit: labelled live, as of the day it was fetched.
      return formatDetail(fresh.record, now().getTime(), {
        mode: "live",
        as_of: jstDate(fresh.fetchedAt),
        from_catalog: true,
      });
    },
  };
}

/**
 * A source answering only from the catalog's records (which include the snapshot seed); `unopened`
 * answers instead while the catalog's store cannot be opened.
 */
export function createCatalogSource(
  catalog: LiveCatalog,
  now: () => Date,
  unopened: JgrantsSource,
): JgrantsSource {
  let indexed: { version: number; records: IndexedRecord[] } | undefined;
  const records = () => {
    if (indexed?.version !== catalog.version()) {
      indexed = { version: catalog.version(), records: catalog.list().map(indexRecord) };
    }
    return indexed.records;
  };
  const dataSource = (): DataSourceInfo => ({ mode: "catalog", as_of: catalog.info().asOf });
  const notFound = (id: string) => ({ error: `補助金ID '${id}' が見つかりません` });
  const ready = () =>
    catalog.ready().then(
      () => true,
      () => false,
    );

  return {
    mode: "snapshot",
    async search(params) {
      if (!(await ready())) return unopened.search(params);
      const hits = searchSnapshot(records(), params, now().getTime());
      return searchResult(hits.map(toListItem), params, dataSource());
    },
    async detail(id) {
      if (!(await ready())) return unopened.detail(id);
      const record = catalog.get(id);
      return record ? formatDetail(record, now().getTime(), dataSource()) : notFound(id);
    },
    async overview(format) {
      if (!(await ready())) return unopened.overview(format);
      const at = now().getTime();
      const stats = computeOverview(searchSnapshot(records(), DEFAULT_SEARCH, at), at, dataSource());
      return format === "csv" ? overviewToCsv(stats) : stats;
    },
    async file(id, filename, format) {
      if (!(await ready())) return unopened.file(id, filename, format);
      const record = catalog.get(id);
      if (!record) return notFound(id);
      if (!findAttachment(record, filename)) return { error: `ファイルが見つかりません: ${id}/${filename}` };
      return {
        error: `jGrants APIに接続できないため、添付ファイルの中身を取得できません（${filename}）。公式ページで確認してください: ${portalUrl(record)}`,
        data_source: dataSource(),
      };
    },
  };
}
