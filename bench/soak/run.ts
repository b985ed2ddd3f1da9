/**
 * `npm run soak`: the soak and fault suite of issue 14, on loopback only, bounded in time and count.
 * It builds the app first (`npm run build`) and runs the built JavaScript with plain node, as production
 * does. Flags: --turns N (20000, the size), --threads N (default turns/10), --concurrency N (20),
 * --deliveries N (1000 per platform), --fuzz N (10000), --only soak,slack,line,fuzz,fault, --from-source
 * (run the TypeScript sources through tsx, without building).
 * Prints a table and exits 1 when a check fails. Not part of `npm test`.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SECRET } from "../../test/adapters/line/helpers.ts";
import { BOT_ID, BOT_USER, SIGNING_SECRET, TEAM } from "../../test/adapters/slack/harness.ts";
import { startFakeLineApi } from "../../test/fakes/fake-line-api.ts";
import { startFakeSlackApi } from "../../test/fakes/fake-slack-api.ts";
import { redisServerAvailable, startRedisServer } from "../../test/helpers/redis-server.ts";
import { linePhase, slackPhase } from "./delivery-phase.ts";
import { killReplicaFault, mcpRestartFault, redisRestartFault } from "./fault-phase.ts";
import { fuzzPhase } from "./fuzz-phase.ts";
import { printTable, type Row } from "./load.ts";
import { freePort, type Replica, runFromSource, startReplica } from "./processes.ts";
import { soakPhase } from "./soak-phase.ts";

function flag(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const value = i >= 0 ? Number(process.argv[i + 1]) : fallback;
  if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} must be a positive integer`);
  return value;
}
const onlyIndex = process.argv.indexOf("--only");
const only = new Set(
  onlyIndex >= 0
    ? (process.argv[onlyIndex + 1] ?? "").split(",")
    : ["soak", "slack", "line", "fuzz", "fault"],
);
const turns = flag("turns", 20_000);
const options = {
  turns,
  threads: flag("threads", Math.max(1, Math.floor(turns / 10))),
  concurrency: flag("concurrency", 20),
};
const deliveries = flag("deliveries", 1_000);
const fuzzCount = flag("fuzz", 10_000);

if (!redisServerAvailable())
  throw new Error("npm run soak needs redis-server (apt-get install redis-server)");
const started = performance.now();
const rows: Row[] = [];
const fromSource = process.argv.includes("--from-source");
runFromSource(fromSource);
if (!fromSource) {
  console.log("== build ==");
  const built = spawnSync("npm", ["run", "build", "--silent"], { stdio: "inherit" });
  if (built.status !== 0) throw new Error("npm run build failed");
  console.log(`   (${((performance.now() - started) / 1000).toFixed(0)} s)`);
}
/** Runs one step of a phase and prints how long it took. */
const timed = async <T>(name: string, run: () => Promise<T>): Promise<T> => {
  const t = performance.now();
  const out = await run();
  console.log(`   ${name}: ${((performance.now() - t) / 1000).toFixed(1)} s`);
  return out;
};
const phase = async (name: string, run: () => Promise<Row[] | Row>) => {
  if (!only.has(name)) return;
  const t = performance.now();
  console.log(`== ${name} ==`);
  const out = await run().catch(
    (error: unknown): Row => ({
      phase: name,
      check: "phase ran",
      figure: String(error).slice(0, 200),
      target: "no crash",
      ok: false,
    }),
  );
  rows.push(...(Array.isArray(out) ? out : [out]));
  console.log(`   (${((performance.now() - t) / 1000).toFixed(0)} s)`);
};

await phase("soak", () => soakPhase(options));

if (["slack", "line", "fuzz", "fault"].some((p) => only.has(p))) {
  const aofDir = mkdtempSync(join(tmpdir(), "sc-soak-aof-"));
  const redis = { current: await startRedisServer(undefined, { aofDir }) };
  const slack = await startFakeSlackApi({ botUserId: BOT_USER, botId: BOT_ID, teamId: TEAM });
  const line = await startFakeLineApi();
  const env = (extra: Record<string, string> = {}) => ({
    JGRANTS_SOURCE: "snapshot",
    MCP_HEARTBEAT_MS: "0",
    STORE_BACKEND: "redis",
    REDIS_URL: redis.current.url,
    SLACK_BOT_TOKEN: "xoxb-soak-bot-token",
    SLACK_SIGNING_SECRET: SIGNING_SECRET,
    SLACK_API_URL: slack.url,
    LINE_CHANNEL_SECRET: SECRET,
    LINE_CHANNEL_ACCESS_TOKEN: line.token,
    LINE_API_URL: line.url,
    ...extra,
  });
  const replicas: [Replica, Replica] = [await startReplica("A", env()), await startReplica("B", env())];
  try {
    await phase("slack", () => slackPhase(replicas, slack, deliveries));
    await phase("line", () => linePhase(replicas, line, deliveries));
    await phase("fuzz", () => fuzzPhase(replicas[0], fuzzCount, SECRET));
    await phase("fault", async () => [
      await timed("redis restart, AOF", () => redisRestartFault(replicas[0], redis, aofDir)),
      await timed("redis restart", () => redisRestartFault(replicas[0], redis, undefined)),
      await timed("kill -9", () => killReplicaFault(replicas, redis.current.url)),
      await timed("MCP restart", async () =>
        mcpRestartFault(
          (mcpUrl) => startReplica("C", { ...env(), STORE_BACKEND: "memory", JGRANTS_MCP_URL: mcpUrl }),
          await freePort(),
        ),
      ),
    ]);
  } finally {
    await Promise.allSettled(replicas.map((r) => r.stop()));
    await Promise.allSettled([slack.close(), line.close(), redis.current.stop()]);
    rmSync(aofDir, { recursive: true, force: true });
  }
}

const minutes = (performance.now() - started) / 60_000;
rows.push({
  phase: "suite",
  check: "wall time on this machine",
  figure: `${minutes.toFixed(1)} min`,
  target: "≤ 15 min",
  ok: minutes <= 15,
});
console.log("");
printTable(rows);
process.exit(rows.every((r) => r.ok) ? 0 : 1);
