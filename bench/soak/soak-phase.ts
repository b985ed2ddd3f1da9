/**
 * The soak: N /chat turns over N/10 threads at concurrency 20 against one replica (SQLite store, bundled
 * snapshot), in ten batches; after each batch the replica reports RSS and heap after a full GC. After the
 * first two batches (warm-up), neither may drift up by more than 10% (last sample against the first one
 * after warm-up); the range is shown as well, since RSS also moves with the allocator. 0 errors.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chatTurn, mb, percentile, type Row, runPool, SOAK_QUESTIONS } from "./load.ts";
import { startReplica } from "./processes.ts";

export interface SoakOptions {
  turns: number;
  threads: number;
  concurrency: number;
}

const range = (values: number[]) => (Math.max(...values) - Math.min(...values)) / Math.min(...values);
const drift = (values: number[]) => values.at(-1)! / values[0]! - 1;

export async function soakPhase(options: SoakOptions): Promise<Row[]> {
  const dir = mkdtempSync(join(tmpdir(), "sc-soak-"));
  const replica = await startReplica("soak", {
    JGRANTS_SOURCE: "snapshot",
    SQLITE_PATH: join(dir, "threads.sqlite"),
    MCP_HEARTBEAT_MS: "0",
  });
  const batch = Math.max(1, Math.floor(options.turns / 10));
  const samples: Array<{ turns: number; rss: number; heapUsed: number }> = [];
  const latencies: number[] = [];
  let errors = 0;
  let done = 0;
  const started = performance.now();
  try {
    while (done < options.turns) {
      const size = Math.min(batch, options.turns - done);
      const offset = done;
      const results = await runPool(size, options.concurrency, (i) => {
        const n = offset + i;
        const question = SOAK_QUESTIONS[Math.floor(n / options.threads) % SOAK_QUESTIONS.length]!;
        return chatTurn(replica.url, question, `soak-${n % options.threads}`);
      });
      for (const r of results) {
        latencies.push(r.ms);
        if (r.status !== 200 || r.body?.kind === "error") errors += 1;
      }
      done += size;
      samples.push({ turns: done, ...(await replica.sample()) });
      const last = samples.at(-1)!;
      console.log(`  soak: ${done} turns, rss ${mb(last.rss)}, heap ${mb(last.heapUsed)}, errors ${errors}`);
    }
  } finally {
    await replica.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  const seconds = (performance.now() - started) / 1000;
  const steady = samples.slice(2);
  const heap = steady.map((s) => s.heapUsed);
  const rss = steady.map((s) => s.rss);
  const pct = (x: number) => `${x > 0 ? "+" : ""}${(x * 100).toFixed(1)}%`;
  const memoryRow = (what: string, values: number[], all: number[]): Row => {
    const d = values.length > 1 ? drift(values) : 0;
    return {
      phase: "soak",
      check: `${what}, every ${batch} turns`,
      figure: `${all.map((v) => mb(v).replace(" MB", "")).join(" → ")} MB; after warm-up drift ${pct(d)}, range ${(range(values) * 100).toFixed(1)}%`,
      target: "drift ≤ +10%",
      ok: d <= 0.1,
    };
  };
  return [
    {
      phase: "soak",
      check: `turns over ${options.threads} threads, concurrency ${options.concurrency}`,
      figure: `${done} in ${seconds.toFixed(0)} s (${(done / seconds).toFixed(1)}/s), ${errors} errors`,
      target: "0 errors",
      ok: errors === 0,
    },
    {
      phase: "soak",
      check: "latency p50 / p99",
      figure: `${percentile(latencies, 50).toFixed(0)} ms / ${percentile(latencies, 99).toFixed(0)} ms`,
      target: "reported",
      ok: true,
    },
    memoryRow(
      "heap after GC",
      heap,
      samples.map((s) => s.heapUsed),
    ),
    memoryRow(
      "RSS after GC",
      rss,
      samples.map((s) => s.rss),
    ),
  ];
}
