/** The live source: the public jGrants REST API, shaped like the official server's results. */
import type { Logger } from "../../logger.ts";
import { convertAttachment, DEFAULT_FILE_LIMITS, type FileLimits } from "./file-content.ts";
import { formatDetail } from "./format-detail.ts";
import type { LiveClient } from "./live-client.ts";
import { computeOverview, overviewToCsv } from "./overview.ts";
import { findAttachment } from "./records.ts";
import { jstDate, searchQuery, searchResult } from "./search-result.ts";
import {
  type JgrantsRecord,
  type JgrantsSource,
  type SearchParams,
  type ToolPayload,
  UNREACHABLE,
} from "./types.ts";
import { DEFAULT_SEARCH } from "./validate.ts";

export interface LiveSourceOptions {
  client: LiveClient;
  now: () => Date;
  logger?: Logger;
  fileLimits?: FileLimits;
  /** Called with each detail record fetched live (base64 attachments included): the catalog keeps it. */
  onDetail?: (record: JgrantsRecord) => void;
}

/** How many detail records (with their base64 attachments) are kept for get_file_content. */
const DETAIL_CACHE_SIZE = 4;
const DETAIL_CACHE_MS = 10 * 60_000;

function failure(error: string, unreachable: boolean): ToolPayload {
  const payload: ToolPayload = { error };
  if (unreachable) Object.defineProperty(payload, UNREACHABLE, { value: error, enumerable: false });
  return payload;
}

/** Creates the live source over a LiveClient. */
export function createLiveSource(options: LiveSourceOptions): JgrantsSource {
  const { client } = options;
  const limits = options.fileLimits ?? DEFAULT_FILE_LIMITS;
  const cache = new Map<string, { record: JgrantsRecord; at: number }>();
  const dataSource = () => ({ mode: "live" as const, as_of: jstDate(options.now().getTime()) });

  async function list(params: SearchParams): Promise<Record<string, unknown>[] | ToolPayload> {
    const outcome = await client.getJson("/subsidies", searchQuery(params));
    if (!outcome.ok) return failure(outcome.error, outcome.unreachable);
    const result = (outcome.data as { result?: unknown })?.result;
    return Array.isArray(result) ? (result as Record<string, unknown>[]) : [];
  }

  async function fetchRecord(id: string): Promise<JgrantsRecord | ToolPayload> {
    const hit = cache.get(id);
    if (hit && Date.now() - hit.at < DETAIL_CACHE_MS) return hit.record;
    const outcome = await client.getJson(`/subsidies/id/${encodeURIComponent(id)}`, undefined, true);
    if (!outcome.ok) {
      if (outcome.status === 404) return { error: `補助金ID '${id}' が見つかりません` };
      return failure(outcome.error, outcome.unreachable);
    }
    const data = outcome.data as { result?: unknown } | null;
    const result = data && typeof data === "object" && "result" in data ? data.result : data;
    const record = Array.isArray(result) ? result[0] : result;
    if (Array.isArray(result) && result.length === 0) return { error: `補助金ID '${id}' が見つかりません` };
    if (!record || typeof record !== "object") return { error: "予期しないレスポンス形式" };
    const typed = { id, ...(record as object) } as JgrantsRecord;
    cache.set(id, { record: typed, at: Date.now() });
    options.onDetail?.(typed);
    while (cache.size > DETAIL_CACHE_SIZE) cache.delete(cache.keys().next().value as string);
    return typed;
  }

  const isPayloadError = (value: unknown): value is ToolPayload =>
    typeof value === "object" && value !== null && "error" in value && !("id" in value);

  return {
    mode: "live",
    async search(params) {
      const items = await list(params);
      if (!Array.isArray(items)) return items;
      return searchResult(items, params, dataSource());
    },
    async detail(id) {
      const record = await fetchRecord(id);
      if (isPayloadError(record)) return record;
      return formatDetail(record as JgrantsRecord, options.now().getTime(), dataSource());
    },
    async overview(format) {
      const items = await list(DEFAULT_SEARCH);
      if (!Array.isArray(items)) return items;
      const stats = computeOverview(items as JgrantsRecord[], options.now().getTime(), dataSource());
      return format === "csv" ? overviewToCsv(stats) : stats;
    },
    async file(id, filename, format) {
      const record = await fetchRecord(id);
      if (isPayloadError(record)) return record;
      const file = findAttachment(record as JgrantsRecord, filename);
      if (!file || typeof file.data !== "string" || file.data === "") {
        return { error: `ファイルが見つかりません: ${id}/${filename}` };
      }
      options.logger?.debug({ id, filename, bytes: file.data.length }, "jgrants file conversion");
      return convertAttachment(filename, file.data, format, limits);
    },
  };
}
