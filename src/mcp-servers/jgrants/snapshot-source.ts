/** The snapshot source: serves the bundled real records offline, judged against an injectable clock. */

import { formatDetail } from "./format-detail.ts";
import { computeOverview, overviewToCsv } from "./overview.ts";
import { findAttachment, portalUrl, toListItem } from "./records.ts";
import { searchResult } from "./search-result.ts";
import { loadSnapshot, SNAPSHOT_PATH } from "./snapshot-data.ts";
import { searchSnapshot } from "./snapshot-search.ts";
import type { DataSourceInfo, JgrantsSource, SearchParams } from "./types.ts";
import { DEFAULT_SEARCH } from "./validate.ts";

export interface SnapshotSourceOptions {
  /** The clock; defaults to the real time. */
  now?: () => Date;
  /** Another snapshot file (tests). */
  path?: string;
}

/** Creates the offline source over data/subsidies.json. */
export function createSnapshotSource(options: SnapshotSourceOptions = {}): JgrantsSource {
  const snapshot = loadSnapshot(options.path ?? SNAPSHOT_PATH);
  // The real date by default (JGRANTS_NOW pins it): the snapshot's own date is only a label.
  const now = (): number => (options.now ? options.now().getTime() : Date.now());
  const dataSource: DataSourceInfo = { mode: "snapshot", as_of: snapshot.asOf };
  const notFound = (id: string) => ({ error: `補助金ID '${id}' が見つかりません` });

  return {
    mode: "snapshot",
    async search(params: SearchParams) {
      const hits = searchSnapshot(snapshot.records, params, now());
      return searchResult(hits.map(toListItem), params, { ...dataSource });
    },
    async detail(id: string) {
      const record = snapshot.byId.get(id);
      return record ? formatDetail(record, now(), { ...dataSource }) : notFound(id);
    },
    async overview(format) {
      const at = now();
      const stats = computeOverview(searchSnapshot(snapshot.records, DEFAULT_SEARCH, at), at, {
        ...dataSource,
      });
      return format === "csv" ? overviewToCsv(stats) : stats;
    },
    async file(id: string, filename: string) {
      const record = snapshot.byId.get(id);
      if (!record) return notFound(id);
      if (!findAttachment(record, filename)) return { error: `ファイルが見つかりません: ${id}/${filename}` };
      return {
        error: `オフラインのスナップショットには添付ファイルの中身が含まれていません（${filename}）。公式ページで確認してください: ${portalUrl(record)}`,
        data_source: { ...dataSource },
      };
    },
  };
}
