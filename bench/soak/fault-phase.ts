/**
 * Faults during load: SIGKILL of one replica (the other keeps answering, completed turns are all in
 * Redis), Redis stopped and started with and without AOF, and a remote jGrants MCP server killed and
 * restarted. Recovery is the time from the dependency being back to the first complete answer after it.
 */
import { createThreadStore } from "../../src/store/index.ts";
import { type RedisServer, startRedisServer } from "../../test/helpers/redis-server.ts";
import { chatTurn, percentile, type Row, runPool, SOAK_QUESTIONS, secs, type TurnResult } from "./load.ts";
import { type Replica, startJgrantsMcp } from "./processes.ts";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Load keeps running this long after the dependency is back. */
const WATCH_MS = 4_000;
const recoveredIn = (ms: number) => (Number.isFinite(ms) ? `${secs(ms)}` : `not within ${secs(WATCH_MS)}`);

/** Sends turns to the replica in a loop (concurrency 4) until stop() is called; keeps every result. */
function steadyLoad(replica: () => Replica, prefix: string) {
  const results: Array<TurnResult & { sentAt: number }> = [];
  let running = true;
  let n = 0;
  const loops = Array.from({ length: 4 }, async () => {
    while (running) {
      const i = n++;
      const sentAt = performance.now();
      const r = await chatTurn(replica().url, SOAK_QUESTIONS[i % 5]!, `${prefix}-${i % 40}`);
      results.push({ ...r, sentAt });
    }
  });
  return {
    results,
    async stop() {
      running = false;
      await Promise.all(loops);
    },
  };
}

/** Time from `backAt` to the first turn sent after it that came back complete (per `good`). */
function recovery(
  results: Array<TurnResult & { sentAt: number }>,
  backAt: number,
  good: (r: TurnResult) => boolean,
) {
  const first = results.filter((r) => r.sentAt >= backAt && good(r)).sort((a, b) => a.at - b.at)[0];
  return first ? first.at - backAt : Number.POSITIVE_INFINITY;
}

export async function killReplicaFault(replicas: [Replica, Replica], redisUrl: string): Promise<Row> {
  const [a, b] = replicas;
  const turns = 200;
  const results = await runPool(turns, 10, async (i) => {
    if (i === turns / 2) await b.kill();
    const target = i % 2 === 1 && b.child.exitCode === null && b.child.signalCode === null ? b : a;
    // One thread per turn, so history trimming (HISTORY_MAX_BYTES) cannot hide a lost turn.
    const r = await chatTurn(target.url, SOAK_QUESTIONS[i % 5]!, `kill-${i}`);
    return { ...r, i, target: target.name, question: SOAK_QUESTIONS[i % 5]! };
  });
  const afterKill = results.filter((r) => r.i > turns / 2 && r.target === a.name);
  const reader = await createThreadStore({
    backend: "redis",
    sqlitePath: "unused",
    redisUrl,
    maxTurns: 1000,
    maxBytes: 10_000_000,
    ttlMs: 3_600_000,
    dedupTtlMs: 3_600_000,
    lockWaitMs: 10_000,
  });
  let missing = 0;
  const completed = results.filter((r) => r.status === 200 && !r.body?.meta?.historyNotSaved);
  for (const r of completed) {
    const saved = await reader.load(`web:kill-${r.i}`);
    if (!saved.some((turn) => turn.question === r.question)) missing += 1;
  }
  await reader.close();
  const aFailed = results.filter((r) => r.target === a.name && r.status !== 200).length;
  return {
    phase: "fault",
    check: "kill -9 one of two replicas during load",
    figure: `${afterKill.filter((r) => r.status === 200).length} answered by the survivor after the kill, ${aFailed} survivor errors, ${missing} completed turns missing`,
    target: "survivor answers, 0 missing",
    ok: afterKill.length > 0 && aFailed === 0 && missing === 0,
  };
}

export async function redisRestartFault(
  replica: Replica,
  redis: { current: RedisServer },
  aofDir: string | undefined,
): Promise<Row> {
  const load = steadyLoad(() => replica, `redis-${aofDir ? "aof" : "plain"}`);
  await sleep(1_000);
  const port = redis.current.port;
  await redis.current.stop();
  await sleep(1_500);
  redis.current = await startRedisServer(port, aofDir ? { aofDir } : {});
  const backAt = performance.now();
  await sleep(WATCH_MS);
  await load.stop();
  const failed = load.results.filter((r) => r.status !== 200).length;
  const took = recovery(load.results, backAt, (r) => r.status === 200 && !r.body?.meta?.historyNotSaved);
  return {
    phase: "fault",
    check: `Redis stopped 1.5 s and started, ${aofDir ? "AOF on" : "no persistence"}`,
    figure: `${load.results.length} turns, ${failed} non-200; saved again ${recoveredIn(took)} after Redis was back`,
    target: "0 non-200, ≤ 2 s",
    ok: failed === 0 && took <= 2_000,
  };
}

export async function mcpRestartFault(
  startReplicaOn: (mcpUrl: string) => Promise<Replica>,
  port: number,
): Promise<Row> {
  let mcp = await startJgrantsMcp(port);
  const replica = await startReplicaOn(mcp.url);
  try {
    const load = steadyLoad(() => replica, "mcp");
    await sleep(1_000);
    await mcp.kill();
    await sleep(1_500);
    mcp = await startJgrantsMcp(port);
    const backAt = performance.now();
    await sleep(WATCH_MS);
    await load.stop();
    const failed = load.results.filter((r) => r.status !== 200).length;
    const took = recovery(load.results, backAt, (r) => r.status === 200 && r.body?.subsidies?.length > 0);
    const p99 = percentile(
      load.results.map((r) => r.ms),
      99,
    );
    return {
      phase: "fault",
      check: "remote jGrants MCP server killed 1.5 s and restarted",
      figure: `${load.results.length} turns (p99 ${p99.toFixed(0)} ms), ${failed} non-200; answers again ${recoveredIn(took)} after it was back`,
      target: "0 non-200, ≤ 2 s",
      ok: failed === 0 && took <= 2_000,
    };
  } finally {
    await replica.stop();
    await mcp.kill();
  }
}
