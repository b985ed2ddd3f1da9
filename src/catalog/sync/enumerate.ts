/**
 * Enumeration: the public list API has no paging and no "list everything", so the sync asks it with a set
 * of broad keywords and takes the union by id. Each keyword is asked twice: open now (acceptance=1), and
 * all (acceptance=0) newest start first, of which only the upcoming ones (start after now) are kept.
 */
import { acceptanceStart } from "../../mcp-servers/jgrants/records.ts";
import type { JgrantsRecord } from "../../mcp-servers/jgrants/types.ts";
import type { PoliteOutcome } from "./polite-fetch.ts";

/** Broad words that together cover the catalog (measured coverage: see src/catalog/sync/README.md). */
export const DEFAULT_KEYWORDS = ["補助", "助成", "奨励", "支援", "事業", "公募", "交付"];

export interface Enumeration {
  /** The union of list items by id. */
  items: Map<string, Record<string, unknown>>;
  /** True when every list call answered: only then may absent records be marked missing. */
  complete: boolean;
  /** Ids found per keyword (open + upcoming), for the coverage figures. */
  perKeyword: Record<string, number>;
  /** Set when the sync must stop (time bound, API down). */
  stopped?: string;
  errors: string[];
}

type Get = (path: string, query?: Record<string, string>) => Promise<PoliteOutcome>;

function resultOf(data: unknown): Record<string, unknown>[] {
  const result = (data as { result?: unknown } | null)?.result;
  return Array.isArray(result)
    ? result.filter((r): r is Record<string, unknown> => typeof r?.id === "string" && r.id !== "")
    : [];
}

/** Asks every keyword; stops early (incomplete) when the fetcher says stop. */
export async function enumerate(get: Get, keywords: string[], now: number): Promise<Enumeration> {
  const out: Enumeration = { items: new Map(), complete: true, perKeyword: {}, errors: [] };
  const queries = (keyword: string) => [
    { keyword, sort: "acceptance_end_datetime", order: "ASC", acceptance: "1" },
    { keyword, sort: "acceptance_start_datetime", order: "DESC", acceptance: "0" },
  ];
  for (const keyword of keywords) {
    const ids = new Set<string>();
    for (const query of queries(keyword)) {
      const outcome = await get("/subsidies", query);
      if (outcome.kind === "stop") {
        out.complete = false;
        out.stopped = outcome.error;
        return out;
      }
      if (outcome.kind === "gone") {
        out.complete = false;
        out.errors.push(`${keyword}: ${outcome.error}`);
        continue;
      }
      for (const item of resultOf(outcome.data)) {
        if (query.acceptance === "0") {
          const start = acceptanceStart(item as JgrantsRecord);
          if (start === null || start <= now) continue;
        }
        ids.add(item.id as string);
        out.items.set(item.id as string, item);
      }
    }
    out.perKeyword[keyword] = ids.size;
  }
  return out;
}
