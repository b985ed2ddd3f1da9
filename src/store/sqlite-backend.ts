/**
 * The SQLite backend, the embedded default: one file (created on start), Keyv's table, WAL journaling so a
 * killed process leaves every committed turn readable, and a sweep that deletes expired records (the
 * adapter has no TTL of its own; Keyv only drops an expired record when it is read).
 */
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import KeyvSqlite from "@keyv/sqlite";
import Keyv from "keyv";
import type { Logger } from "../logger.ts";
import type { Backend } from "./backend.ts";
import { HEALTH_KEY } from "./keys.ts";
import { createLocalLock } from "./local-lock.ts";

const TABLE = "keyv";
const SWEEP_INTERVAL_MS = 3_600_000;

// One statement, so it is atomic even with several processes on the file: insert, or take over a row
// whose expiry has passed; RETURNING yields a row only when this call wrote it.
const MARK_ONCE = `INSERT INTO ${TABLE} (key, value) VALUES (?, ?)
ON CONFLICT(key) DO UPDATE SET value = excluded.value
WHERE json_valid(${TABLE}.value) AND json_extract(${TABLE}.value, '$.expires') <= ?
RETURNING key`;

const SWEEP = `DELETE FROM ${TABLE}
WHERE json_valid(value) AND json_extract(value, '$.expires') IS NOT NULL AND json_extract(value, '$.expires') < ?`;

export interface SqliteBackendOptions {
  path: string;
  lockWaitMs: number;
  logger: Logger;
}

/** Opens (creating when needed) the SQLite file. Never throws: a broken path shows in probe() and every call. */
export async function createSqliteBackend(options: SqliteBackendOptions): Promise<Backend> {
  const { path, logger } = options;
  if (path !== ":memory:") {
    try {
      mkdirSync(dirname(path), { recursive: true });
    } catch (error) {
      logger.error({ err: error, path }, "cannot create the directory of the SQLite file");
    }
  }
  const adapter = new KeyvSqlite({ uri: `sqlite://${path}`, table: TABLE, busyTimeout: 5_000 });
  adapter.on("error", (error: unknown) => logger.debug({ err: error }, "sqlite adapter error"));
  const keyv = new Keyv({ store: adapter, namespace: undefined, useKeyPrefix: false, throwOnErrors: true });
  keyv.on("error", () => {});

  const sweep = async () => {
    try {
      await adapter.query(SWEEP, Date.now());
    } catch (error) {
      logger.warn({ err: error }, "sweeping expired records failed");
    }
  };
  try {
    await adapter.query("PRAGMA journal_mode=WAL");
    // With WAL, NORMAL still survives a killed process; it only risks the last commits on power loss.
    await adapter.query("PRAGMA synchronous=NORMAL");
    await sweep();
  } catch (error) {
    logger.error({ err: error, path }, "cannot open the SQLite file; the store reports unhealthy");
  }
  const timer = setInterval(sweep, SWEEP_INTERVAL_MS);
  timer.unref();

  return {
    name: "sqlite",
    keyv,
    lock: createLocalLock(options.lockWaitMs),
    async markOnce(key, ttlMs, now) {
      const value = JSON.stringify({ value: 1, expires: now + ttlMs });
      const rows = (await adapter.query(MARK_ONCE, key, value, now)) as unknown[];
      return rows.length === 1;
    },
    async probe() {
      await adapter.query(
        `INSERT INTO ${TABLE} (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value`,
        HEALTH_KEY,
        JSON.stringify({ value: Date.now() }),
      );
    },
    async close() {
      clearInterval(timer);
      await adapter.disconnect().catch(() => undefined);
    },
  };
}
