/**
 * Thread store memory: RSS of one process with 10,000 stored threads in a SQLite file and 100 turns in
 * flight (each holding its thread lock across awaits). Target: at most 150 MB.
 * Run alone with `npx tsx bench/store-bench.ts`.
 */
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { createThreadStore } from "../src/store/index.ts";
import type { HistoryTurn } from "../src/types.ts";

const THREADS = 10_000;
const IN_FLIGHT = 100;
const TARGET_MB = 150;

const mb = (bytes: number) => Math.round((bytes / 1_048_576) * 10) / 10;

const turnOf = (n: number): HistoryTurn => ({
  question: `東京都の製造業で使える設備投資の補助金は？ (${n})`,
  answer: `ものづくり補助金などが該当します。${"補助上限額や締切は公募要領を確認してください。".repeat(8)}`,
  subsidies: Array.from({ length: 5 }, (_, i) => ({ id: `a0W${n}-${i}`, title: `補助金 ${i}` })),
  conditions: { keywords: ["設備投資"], area: "東京都", industry: "製造業" },
  messageIds: [`m${n}`],
  at: new Date().toISOString(),
});

/** Runs the bench and returns its figures. */
export async function runStoreBench(): Promise<Record<string, number | string>> {
  const dir = mkdtempSync(join(tmpdir(), "sc-store-bench-"));
  const path = join(dir, "threads.sqlite");
  const store = await createThreadStore({
    backend: "sqlite",
    sqlitePath: path,
    redisUrl: undefined,
    maxTurns: 20,
    maxBytes: 32_768,
    ttlMs: 30 * 86_400_000,
    dedupTtlMs: 3_600_000,
    lockWaitMs: 120_000,
  });
  try {
    const rssBefore = process.memoryUsage().rss;
    const writeStart = performance.now();
    const writers = Array.from({ length: 8 }, async (_, w) => {
      for (let n = w; n < THREADS; n += 8) await store.append(`slack:T1:C${n}:1700.0001`, turnOf(n));
    });
    await Promise.all(writers);
    const writeMs = performance.now() - writeStart;

    // 100 turns in flight: each holds its thread's lock and loads history, then waits for the gate.
    let open: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    let loaded = 0;
    const turns = Array.from({ length: IN_FLIGHT }, (_, i) =>
      store.withThreadLock(`slack:T1:C${i}:1700.0001`, async () => {
        const history = await store.load(`slack:T1:C${i}:1700.0001`);
        loaded += 1;
        await gate;
        await store.append(`slack:T1:C${i}:1700.0001`, turnOf(THREADS + i));
        return history.length;
      }),
    );
    while (loaded < IN_FLIGHT) await new Promise((resolve) => setTimeout(resolve, 5));
    const rssInFlight = process.memoryUsage().rss;
    const heapInFlight = process.memoryUsage().heapUsed;
    open();
    await Promise.all(turns);
    const loadStart = performance.now();
    for (let i = 0; i < 1_000; i += 1) await store.load(`slack:T1:C${i * 7}:1700.0001`);
    const loadUs = ((performance.now() - loadStart) / 1_000) * 1_000;
    const walBytes = statSync(`${path}-wal`, { throwIfNoEntry: false })?.size ?? 0;
    return {
      threads: THREADS,
      inFlight: IN_FLIGHT,
      rssBeforeMb: mb(rssBefore),
      rssInFlightMb: mb(rssInFlight),
      heapInFlightMb: mb(heapInFlight),
      targetMb: TARGET_MB,
      withinTarget: mb(rssInFlight) <= TARGET_MB ? "yes" : "no",
      appendPerSec: Math.round(THREADS / (writeMs / 1_000)),
      loadMeanUs: Math.round(loadUs),
      fileMb: mb(statSync(path).size + walBytes),
    };
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const figures = await runStoreBench();
  for (const [name, value] of Object.entries(figures)) console.log(`${name.padEnd(16)} ${value}`);
}
