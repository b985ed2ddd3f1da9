/**
 * How a stored row is shown to search and answers: a record that disappeared from the live lists is
 * presented as closed since the day it disappeared (the end the list last gave is kept beside it), so
 * follow-ups still find it but nothing offers it as open.
 */
import { acceptanceEnd, isAccepting } from "../../mcp-servers/jgrants/records.ts";
import type { JgrantsRecord } from "../../mcp-servers/jgrants/types.ts";
import type { CatalogRow } from "./types.ts";

/** The record as the catalog serves it. */
export function presentRow(row: CatalogRow): JgrantsRecord {
  if (row.missingSince === null) return row.record;
  const end = acceptanceEnd(row.record);
  const record: JgrantsRecord = {
    ...row.record,
    _catalog_missing_since: new Date(row.missingSince).toISOString(),
  };
  if (end === null || end >= row.missingSince) {
    record._listed_acceptance_end_datetime = row.record.acceptance_end_datetime ?? null;
    // Closed from the moment it was found gone.
    record.acceptance_end_datetime = new Date(row.missingSince - 1).toISOString();
  }
  return record;
}

/** How many records are open at `now`. */
export function countOpen(records: readonly JgrantsRecord[], now: number): number {
  let open = 0;
  for (const record of records) if (isAccepting(record, now)) open += 1;
  return open;
}
