/**
 * A small promise wrapper over node-sqlite3 for the catalog file: one connection, WAL journaling (a killed
 * process leaves every committed transaction readable), a busy timeout for several processes on one file,
 * and a queue so that a transaction never interleaves with another statement of this process.
 */
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import sqlite3 from "sqlite3";

/** Statements on the connection. */
export interface SqliteExec {
  all<T>(sql: string, ...params: unknown[]): Promise<T[]>;
  run(sql: string, ...params: unknown[]): Promise<void>;
}

export interface SqliteDb extends SqliteExec {
  /** Runs `fn` inside BEGIN IMMEDIATE … COMMIT (ROLLBACK on error), alone on the connection. */
  transaction<T>(fn: (tx: SqliteExec) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** Opens (creating) the file and its directory. */
export async function openSqliteDb(path: string, busyTimeoutMs = 10_000): Promise<SqliteDb> {
  if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
  const db = await new Promise<sqlite3.Database>((resolve, reject) => {
    const opened: sqlite3.Database = new sqlite3.Database(path, (error) =>
      error ? reject(error) : resolve(opened),
    );
  });
  db.configure("busyTimeout", busyTimeoutMs);
  const rawAll = <T>(sql: string, params: unknown[]) =>
    new Promise<T[]>((resolve, reject) => {
      db.all(sql, params, (error: Error | null, rows: T[]) => (error ? reject(error) : resolve(rows)));
    });
  let queue: Promise<unknown> = Promise.resolve();
  const enqueue = <T>(fn: () => Promise<T>): Promise<T> => {
    const next = queue.then(fn, fn);
    queue = next.catch(() => undefined);
    return next;
  };
  const direct = <T>(sql: string, params: unknown[]) => enqueue(() => rawAll<T>(sql, params));
  const tx: SqliteExec = {
    all: <T>(sql: string, ...params: unknown[]) => rawAll<T>(sql, params),
    run: async (sql, ...params) => void (await rawAll(sql, params)),
  };
  await direct("PRAGMA journal_mode=WAL", []);
  await direct("PRAGMA synchronous=NORMAL", []);

  return {
    all: <T>(sql: string, ...params: unknown[]) => direct<T>(sql, params),
    run: async (sql, ...params) => void (await direct(sql, params)),
    transaction: <T>(fn: (tx: SqliteExec) => Promise<T>) =>
      enqueue(async () => {
        await rawAll("BEGIN IMMEDIATE", []);
        try {
          const result = await fn(tx);
          await rawAll("COMMIT", []);
          return result;
        } catch (error) {
          await rawAll("ROLLBACK", []).catch(() => undefined);
          throw error;
        }
      }),
    close: () =>
      enqueue(() => new Promise<void>((resolve, reject) => db.close((e) => (e ? reject(e) : resolve())))),
  };
}
