/** Loads the bundled snapshot (data/subsidies.json) once and pre-computes normalised search text. */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { fold } from "../../catalog/text.ts";
import type { JgrantsRecord } from "./types.ts";

/** The snapshot file bundled with the server. */
export const SNAPSHOT_PATH = fileURLToPath(new URL("./data/subsidies.json", import.meta.url));

/** A snapshot record with its pre-normalised search text. */
export interface IndexedRecord {
  record: JgrantsRecord;
  /** NFKC + lower-cased title, catch phrase and detail text. */
  text: string;
}

export interface Snapshot {
  asOf: string;
  records: IndexedRecord[];
  byId: Map<string, JgrantsRecord>;
}

/** NFKC normalisation plus case folding, as the API matches keywords (IoT = ＩｏＴ = iot, ｶﾀｶﾅ = カタカナ). */
export const foldText: (text: string) => string = fold;

/** A record with its search text: title, catch phrase and detail text, folded, links removed. */
export function indexRecord(record: JgrantsRecord): IndexedRecord {
  const detail = typeof record._detail_text === "string" ? record._detail_text : (record.detail ?? "");
  const parts = [record.title, record.subsidy_catch_phrase, detail].filter((p) => typeof p === "string");
  // Links in the detail are not text a keyword should match ("it" in ".../shimeiteishi.html").
  return { record, text: foldText(parts.join("\n")).replace(/https?:\/\/\S+/g, " ") };
}

const cache = new Map<string, Snapshot>();

/** Reads and indexes a snapshot file; the result is cached per path (the file is about 4 MB). */
export function loadSnapshot(path: string = SNAPSHOT_PATH): Snapshot {
  const cached = cache.get(path);
  if (cached) return cached;
  const raw = JSON.parse(readFileSync(path, "utf8")) as { as_of?: string; records?: JgrantsRecord[] };
  if (!Array.isArray(raw.records)) throw new Error(`snapshot ${path} has no records array`);
  const records = raw.records.map(indexRecord);
  const snapshot: Snapshot = {
    asOf: typeof raw.as_of === "string" ? raw.as_of : "unknown",
    records,
    byId: new Map(raw.records.map((r) => [r.id, r])),
  };
  cache.set(path, snapshot);
  return snapshot;
}
