import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { once } from "node:events";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openCatalogStore } from "../../../src/catalog/sync/index.ts";
import { type FakeJgrantsApi, startFakeJgrantsApi } from "../../fakes/fake-jgrants-api.ts";
import { generateSubsidies } from "../../fakes/generated-subsidies.ts";
import { redisServerAvailable, startRedisServer } from "../../helpers/redis-server.ts";
import { DETAIL, detailIds, fakeClock, openCatalog, tempDir } from "./helpers.ts";

const SCRIPT = fileURLToPath(new URL("../../fakes/catalog-sync-process.ts", import.meta.url));
const NOW = new Date();
let fake: FakeJgrantsApi;
let dir: string;
const children: ChildProcessWithoutNullStreams[] = [];

/** Starts a sync process on the store; resolves once it printed "ready". */
async function syncProcess(env: Record<string, string>) {
  const child = spawn(process.execPath, ["--import", "tsx", SCRIPT], {
    env: { PATH: process.env.PATH ?? "", ...env },
    stdio: ["pipe", "pipe", "pipe"],
  });
  children.push(child);
  let out = "";
  child.stdout.on("data", (chunk: Buffer) => {
    out += chunk.toString();
  });
  let err = "";
  child.stderr.on("data", (chunk: Buffer) => {
    err += chunk.toString();
  });
  while (!out.includes("ready\n")) {
    if (child.exitCode !== null) throw new Error(`sync process exited: ${err}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return {
    child,
    go: () => child.stdin.write("go\n"),
    report: async () => {
      if (child.exitCode === null) await once(child, "exit");
      return JSON.parse(out.split("\n")[1]!) as { outcome: string; fetched: number };
    },
  };
}

beforeEach(async () => {
  fake = await startFakeJgrantsApi(generateSubsidies(40, NOW), { now: NOW });
  dir = tempDir();
});
afterEach(async () => {
  for (const child of children.splice(0)) child.kill("SIGKILL");
  await fake.close();
});

describe("several processes on one catalog file", () => {
  it("two processes on one shared store: exactly one syncs, each record is fetched once", async () => {
    const env = { CATALOG_PATH: join(dir, "shared.sqlite"), JGRANTS_API_URL: fake.baseUrl };
    const [a, b] = await Promise.all([syncProcess(env), syncProcess(env)]);
    a.go();
    b.go();
    const reports = await Promise.all([a.report(), b.report()]);
    expect(reports.map((r) => r.outcome).sort()).toEqual(["done", "skipped"]);
    const ids = detailIds(fake);
    expect(ids).toHaveLength(36);
    expect(new Set(ids).size).toBe(36);
  });

  it("SIGKILL during a sync leaves a readable catalog, and a later sync resumes", async () => {
    const path = join(dir, "killed.sqlite");
    const proc = await syncProcess({
      CATALOG_PATH: path,
      JGRANTS_API_URL: fake.baseUrl,
      CATALOG_REQUEST_INTERVAL_MS: "30",
    });
    let killedAfter = 0;
    fake.onCall = (call) => {
      if (call.path.startsWith(DETAIL) && detailIds(fake).length === 12) {
        killedAfter = 12;
        proc.child.kill("SIGKILL");
      }
    };
    proc.go();
    await once(proc.child, "exit");
    expect(killedAfter).toBe(12);
    fake.onCall = undefined;

    // A new process (here: this one) opens the file: it reads, and the dead holder's lock has expired.
    const clock = fakeClock(new Date(Date.now() + 5 * 60_000));
    const catalog = openCatalog(fake, path, clock, { detailIntervalMs: 0 });
    await catalog.ready();
    const generated = catalog.list().filter((r) => r.id.startsWith("a0WJ2000GEN"));
    expect(generated).toHaveLength(36);
    const withDetail = generated.filter((r) => typeof r.detail === "string");
    expect(withDetail.length).toBeGreaterThanOrEqual(10);
    expect(withDetail.length).toBeLessThanOrEqual(12);
    const before = fake.calls.length;
    const report = await catalog.syncNow();
    expect(report.outcome).toBe("done");
    expect(report.fetched).toBe(36 - withDetail.length);
    expect(fake.calls.length - before).toBeGreaterThan(0);
    await catalog.close();
  });
});

describe.runIf(redisServerAvailable())("several processes on one Redis", () => {
  it("exactly one syncs; the other reads the records it wrote", async () => {
    const redis = await startRedisServer();
    try {
      const env = { REDIS_URL: redis.url, JGRANTS_API_URL: fake.baseUrl };
      const [a, b] = await Promise.all([syncProcess(env), syncProcess(env)]);
      a.go();
      b.go();
      const reports = await Promise.all([a.report(), b.report()]);
      expect(reports.map((r) => r.outcome).sort()).toEqual(["done", "skipped"]);
      expect(new Set(detailIds(fake)).size).toBe(36);
      expect(detailIds(fake)).toHaveLength(36);

      const store = await openCatalogStore({ path: "", redisUrl: redis.url });
      const rows = await store.loadAll();
      await store.close();
      expect(rows.filter((r) => r.id.startsWith("a0WJ2000GEN") && r.detailAt !== null)).toHaveLength(36);
      expect(rows.length).toBeGreaterThan(500);
    } finally {
      await redis.stop();
    }
  });
});
