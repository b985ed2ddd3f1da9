/** The bundled snapshot's records and date, read once, for tests that need real jGrants records. */
import { readFileSync } from "node:fs";

const snapshot = JSON.parse(
  readFileSync(new URL("../../src/mcp-servers/jgrants/data/subsidies.json", import.meta.url), "utf8"),
) as { as_of: string; records: Array<Record<string, unknown> & { id: string; title: string }> };

export const SNAPSHOT_AS_OF = snapshot.as_of;
export const SNAPSHOT_RECORDS = snapshot.records;
