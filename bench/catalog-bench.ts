/**
 * The catalog at 10,000 records, synthesised from the snapshot (each record copied with a new id and a
 * varied title): index build time, ranked query time (p50/p95 over the relevance set's questions) and
 * the RSS the index adds.
 */
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { createCatalog } from "../src/catalog/catalog.ts";
import {
  type CatalogRecordSource,
  recordSourceOf,
  snapshotRecordSource,
} from "../src/catalog/record-source.ts";
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
  const { origin, asOf } = base.info();
  return recordSourceOf(records, { origin, asOf });
}

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

/**
 * Memory after a full GC and a pause: V8 hands freed pages back to the OS in the background, so RSS read
 * at once still counts the build's and the queries' garbage.
 */
async function settled(): Promise<{ rss: number; heap: number }> {
  gc();
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  gc();
  const { rss, heapUsed } = process.memoryUsage();
  return { rss, heap: heapUsed };
}

export async function runCatalogBench() {
  const source = synthesised();
  const before = await settled();
  const started = performance.now();
  const cpu = process.cpuUsage();
  const catalog = createCatalog(source, { now: () => new Date("2026-08-22T12:00:00+09:00") });
  const buildMs = performance.now() - started;
  const { user, system } = process.cpuUsage(cpu);
  catalog.find("ウォームアップ 省エネ"); // loads the synonym dictionary once
  const times: number[] = [];
  for (const q of loadSet().questions) {
    const t = performance.now();
    catalog.find(q.question, {}, 10);
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  const after = await settled();
  const ms = (x: number) => `${x.toFixed(1)} ms`;
  return {
    records: catalog.size,
    build: ms(buildMs),
    "build CPU (all threads)": ms((user + system) / 1000),
    "query p50": ms(times[Math.floor(times.length / 2)]!),
    "query p95": ms(times[Math.floor(times.length * 0.95)]!),
    "added RSS (index + synonyms, settled)": `${((after.rss - before.rss) / 1e6).toFixed(0)} MB`,
    "added heap after GC": `${((after.heap - before.heap) / 1e6).toFixed(0)} MB`,
  };
}
