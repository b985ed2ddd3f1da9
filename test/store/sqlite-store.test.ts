import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import sqlite3 from "sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { silentLogger } from "../../src/logger.ts";
import { createThreadStore } from "../../src/store/index.ts";
import { describeThreadStoreContract, type StoreConfig, turnOf } from "./contract.ts";

const dir = mkdtempSync(join(tmpdir(), "sc-store-"));
let files = 0;
const freshPath = () => {
  files += 1;
  return join(dir, `nested-${files}`, "threads.sqlite");
};

const configFor = (sqlitePath: string, overrides: Partial<StoreConfig> = {}): StoreConfig => ({
  backend: "sqlite",
  sqlitePath,
  redisUrl: undefined,
  maxTurns: 20,
  maxBytes: 32_768,
  ttlMs: 30 * 86_400_000,
  dedupTtlMs: 3_600_000,
  lockWaitMs: 5_000,
  ...overrides,
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describeThreadStoreContract("sqlite", (overrides, now) =>
  createThreadStore(configFor(freshPath(), overrides), { logger: silentLogger, now }),
);

/** Every key in the store's table (read directly, not through the store). */
function storedKeys(path: string): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const db = new sqlite3.Database(path, sqlite3.OPEN_READONLY, (error) => {
      if (error) return reject(error);
      db.all("SELECT key FROM keyv", (queryError, rows: Array<{ key: string }>) => {
        db.close();
        if (queryError) reject(queryError);
        else resolve(rows.map((row) => row.key));
      });
    });
  });
}

function integrityCheck(path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const db = new sqlite3.Database(path, sqlite3.OPEN_READONLY, (error) => {
      if (error) return reject(error);
      db.all("PRAGMA integrity_check", (queryError, rows: Array<{ integrity_check: string }>) => {
        db.close();
        if (queryError) reject(queryError);
        else resolve(rows.map((row) => row.integrity_check).join("\n"));
      });
    });
  });
}

/** Runs the conversation fixture and SIGKILLs it right after turn `killAfter` started. */
function runAndKill(path: string, killAfter: number): Promise<{ committed: number; errors: string[] }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ["--import", "tsx", "test/store/fixtures/sqlite-conversation.ts", path],
      {
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let committed = 0;
    let buffered = "";
    let stderr = "";
    const errors: string[] = [];
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.stdout.on("data", (chunk: Buffer) => {
      buffered += chunk.toString();
      const lines = buffered.split("\n");
      buffered = lines.pop() ?? "";
      for (const line of lines) {
        const [word, n] = line.split(" ");
        if (word === "committed") committed = Number(n);
        if (word === "error") errors.push(line);
        if (word === "started" && Number(n) === killAfter + 1) child.kill("SIGKILL");
      }
    });
    child.on("exit", (code, signal) => {
      if (signal === "SIGKILL") resolve({ committed, errors });
      else reject(new Error(`conversation exited with ${code}: ${stderr}`));
    });
  });
}

describe("sqlite file", () => {
  it("creates the directory and file on start and keeps history across restarts", async () => {
    const path = freshPath();
    const first = await createThreadStore(configFor(path));
    expect(first.backend).toBe("sqlite");
    await first.append("slack:T1:C1:1.0", turnOf(1));
    expect(await first.markDelivered("Ev1")).toBe(true);
    await first.close();
    const second = await createThreadStore(configFor(path));
    expect(await second.load("slack:T1:C1:1.0")).toEqual([turnOf(1)]);
    expect(await second.markDelivered("Ev1")).toBe(false);
    await second.close();
  });

  it("writes every key under the version prefix sc:v1:", async () => {
    const path = freshPath();
    const store = await createThreadStore(configFor(path));
    await store.append("line:user:U1", turnOf(1));
    await store.markDelivered("line:EvPrefix");
    expect((await store.health()).ok).toBe(true);
    await store.close();
    const keys = await storedKeys(path);
    expect(keys).toEqual(expect.arrayContaining(["sc:v1:thread:line:user:U1", "sc:v1:dedup:line:EvPrefix"]));
    for (const key of keys) expect(key.startsWith("sc:v1:")).toBe(true);
  });

  it("keeps markDelivered atomic across two stores on one file", async () => {
    const path = freshPath();
    const [a, b] = await Promise.all([
      createThreadStore(configFor(path)),
      createThreadStore(configFor(path)),
    ]);
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) => (i % 2 === 0 ? a : b).markDelivered("EvShared")),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
    await Promise.all([a.close(), b.close()]);
  });

  it("keeps every completed turn when the process is killed mid-turn, and a follow-up sees them", async () => {
    const path = freshPath();
    const { committed, errors } = await runAndKill(path, 25);
    expect(errors).toEqual([]);
    expect(committed).toBeGreaterThanOrEqual(25);
    expect(await integrityCheck(path)).toBe("ok");
    const store = await createThreadStore(configFor(path, { maxTurns: 1_000, maxBytes: 10_000_000 }));
    const turns = await store.load("cli:crash");
    expect(turns.length).toBeGreaterThanOrEqual(committed);
    expect(turns.map((turn) => turn.question)).toEqual(turns.map((_, i) => `質問 ${i + 1}`));
    await store.append("cli:crash", { ...turnOf(999), question: "2番目の補助金の締切は？" });
    const after = await store.load("cli:crash");
    expect(after).toHaveLength(turns.length + 1);
    expect(after.at(-1)?.question).toBe("2番目の補助金の締切は？");
    await store.close();
    expect(await integrityCheck(path)).toBe("ok");
  });

  it("throws StoreError and reports unhealthy when the file breaks during a turn", async () => {
    const path = freshPath();
    const store = await createThreadStore(configFor(path));
    await store.append("web:s1", turnOf(1));
    await store.withThreadLock("web:s1", async () => {
      const history = await store.load("web:s1");
      expect(history).toHaveLength(1);
      // The disk "goes bad" mid-turn: the file and its WAL index are no longer a database.
      for (const file of [path, `${path}-wal`, `${path}-shm`]) writeFileSync(file, Buffer.alloc(32_768, 7));
      await expect(store.append("web:s1", turnOf(2))).rejects.toMatchObject({ code: "STORE_UNAVAILABLE" });
      await expect(store.load("web:s1")).rejects.toMatchObject({ code: "STORE_UNAVAILABLE" });
      await expect(store.markDelivered("EvBroken")).rejects.toMatchObject({ code: "STORE_UNAVAILABLE" });
    });
    const health = await store.health();
    expect(health).toMatchObject({ ok: false, backend: "sqlite" });
    expect(health.error).toBeTruthy();
    await store.close();
  });

  it("reports an unusable path instead of an empty history", async () => {
    const blocker = join(dir, "a-file");
    writeFileSync(blocker, "not a directory");
    const store = await createThreadStore(configFor(join(blocker, "threads.sqlite")));
    await expect(store.load("cli:x")).rejects.toMatchObject({ code: "STORE_UNAVAILABLE" });
    await expect(store.clear("cli:x")).rejects.toMatchObject({ code: "STORE_UNAVAILABLE" });
    expect(await store.health()).toMatchObject({ ok: false, backend: "sqlite" });
    await store.close();
  });
});
