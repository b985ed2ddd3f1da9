/**
 * The catalog at 10,000 records, synthesised from the snapshot (each record copied with a new id and a
 * varied title): index build time, ranked query time (p50/p95 over the relevance set's questions) and
 * the RSS the index adds.
 */
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { createCatalog } from "../src/catalog/catalog.ts";
import { type CatalogRecordSource, snapshotRecordSource } from "../src/catalog/record-source.ts";
import type { JgrantsRecord } from "../src/mcp-servers/jgrants/types.ts";
import { loadSet } from "../test/eval/evaluate.ts";

const TARGET = 10_000;

function synthesised(): CatalogRecordSource {
  const base = snapshotRecordSource();
  const seed = base.list();
  const records: JgrantsRecord[] = [];
  for (let i = 0; records.length < TARGET; i++) {
    const r = seed[i % seed.length]!;
    const round = Math.floor(i / seed.length);
    records.push({
      ...r,
      id: `${r.id.slice(0, 10)}${String(i).padStart(8, "0")}`,
      title: `${r.title}（第${round + 1}期）`,
    });
  }
  const byId = new Map(records.map((r) => [r.id, r]));
  return {
    ...base,
    list: () => records,
    get: (id) => byId.get(id),
    info: () => ({ ...base.info(), recordCount: records.length }),
  };
}

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

export async function runCatalogBench() {
  const source = synthesised();
  gc();
  const rssBefore = process.memoryUsage().rss;
  const heapBefore = process.memoryUsage().heapUsed;
  const started = performance.now();
  const catalog = createCatalog(source, { now: () => new Date("2026-08-22T12:00:00+09:00") });
  const buildMs = performance.now() - started;
  catalog.find("ウォームアップ 省エネ"); // loads the synonym dictionary once
  const times: number[] = [];
  for (const q of loadSet().questions) {
    const t = performance.now();
    catalog.find(q.question, {}, 10);
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  gc();
  const rssAfter = process.memoryUsage().rss;
  const heapAfter = process.memoryUsage().heapUsed;
  const ms = (x: number) => `${x.toFixed(1)} ms`;
  return {
    records: catalog.size,
    build: ms(buildMs),
    "query p50": ms(times[Math.floor(times.length / 2)]!),
    "query p95": ms(times[Math.floor(times.length * 0.95)]!),
    "added RSS (index + synonyms)": `${((rssAfter - rssBefore) / 1e6).toFixed(0)} MB`,
    "added heap after GC": `${((heapAfter - heapBefore) / 1e6).toFixed(0)} MB`,
  };
}
