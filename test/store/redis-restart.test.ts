/**
 * Defect 3 of issue 14: after Redis restarts with AOF on, stale lock keys and queue places survive the
 * crash. Threads must not wait for them to expire (30 s for a lock, 10 s for a queue place): a living owner
 * gives them back on reconnect, and a waiter treats a lock whose owner process is gone as free. The
 * stores here wait at most 3–5 s for a lock, so a stale key would show as ThreadBusyError.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { afterEach, describe, expect, it } from "vitest";
import { createThreadStore, type KeyvThreadStore } from "../../src/store/index.ts";
import { type RedisServer, redisServerAvailable, startRedisServer } from "../helpers/redis-server.ts";

const available = redisServerAvailable();

function storeOn(url: string, lockWaitMs: number): Promise<KeyvThreadStore> {
  return createThreadStore({
    backend: "redis",
    sqlitePath: "unused",
    redisUrl: url,
    maxTurns: 100,
    maxBytes: 1_000_000,
    ttlMs: 3_600_000,
    dedupTtlMs: 3_600_000,
    lockWaitMs,
  });
}

async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 400; i += 1) {
    if (await check().catch(() => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
}

function gate() {
  let open: () => void = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open, opened };
}

const cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

async function persistentRedis(): Promise<{ server: RedisServer; restart: () => Promise<RedisServer> }> {
  const dir = mkdtempSync(join(tmpdir(), "sc-aof-"));
  const first = await startRedisServer(undefined, { aofDir: dir });
  let current = first;
  cleanup.push(async () => {
    await current.stop();
    rmSync(dir, { recursive: true, force: true });
  });
  return {
    server: first,
    async restart() {
      await current.stop(true); // a crash: SIGKILL, the AOF (fsync always) keeps every key
      current = await startRedisServer(first.port, { aofDir: dir });
      return current;
    },
  };
}

describe.runIf(available)("Redis thread lock after a Redis restart with AOF", () => {
  it("a living owner gives back the lock and the queue place it could not release during the outage", async () => {
    const { server, restart } = await persistentRedis();
    const store = await storeOn(server.url, 3_000);
    cleanup.push(() => store.close());
    const thread = "slack:T1:Crestart:1.1";
    // A long turn on another thread keeps this process alive (and its owner key fresh) throughout.
    const other = gate();
    const busyElsewhere = store.withThreadLock("slack:T1:Cother:1.1", () => other.opened);
    const first = gate();
    let started!: () => void;
    const holding = new Promise<void>((resolve) => {
      started = resolve;
    });
    const turn1 = store.withThreadLock(thread, async () => {
      started();
      await first.opened;
      return 1;
    });
    await holding;
    let queued!: () => void;
    const inLine = new Promise<void>((resolve) => {
      queued = resolve;
    });
    const turn2 = store.withThreadLock(thread, async () => 2, { onQueued: () => queued() });
    await inLine;

    const restarting = restart();
    await new Promise((resolve) => setTimeout(resolve, 100));
    first.open(); // turn 1 ends while Redis is down: its release fails
    expect(await turn1).toBe(1);
    expect(await turn2).toBe(2); // turn 2 fell back to the in-process lock
    await restarting;
    await until(async () => (await store.health()).ok, "the store to reconnect");

    // Another process (a fresh store) and this one both get the thread well before the stale keys expire.
    const fresh = await storeOn(server.url, 3_000);
    cleanup.push(() => fresh.close());
    expect(await fresh.withThreadLock(thread, async () => "fresh")).toBe("fresh");
    expect(await store.withThreadLock(thread, async () => "again")).toBe("again");
    other.open();
    await busyElsewhere;
  });

  it("a waiter takes a lock whose owner process was killed, although Redis kept the lock", async () => {
    const { server, restart } = await persistentRedis();
    const child = spawn(process.execPath, [
      "--import",
      "tsx",
      "test/store/fixtures/bot.ts",
      server.url,
      "dead",
    ]);
    cleanup.push(() => void child.kill("SIGKILL"));
    const lines = createInterface({ input: child.stdout });
    const seen = (kind: string) =>
      new Promise<void>((resolve) => lines.on("line", (line) => JSON.parse(line).kind === kind && resolve()));
    await seen("ready");
    const thread = "line:Ukilled";
    const started = seen("started");
    child.stdin.write(
      `${JSON.stringify({ op: "event", id: "x", threadKey: thread, text: "長い", workMs: 600_000 })}\n`,
    );
    await started;
    child.kill("SIGKILL");
    await restart();

    const store = await storeOn(server.url, 5_000);
    cleanup.push(() => store.close());
    await until(async () => (await store.health()).ok, "the store to connect");
    // The lock key (30 s expiry) survived, but its owner's liveness key lapses within 3 s.
    expect(await store.withThreadLock(thread, async () => "taken")).toBe("taken");
  });
});
