/**
 * The embedded catalog store: one SQLite file (default data/catalog.sqlite, apart from the thread store).
 * Rows and the revision are written in one transaction; the sync lock is a row with an owner and an expiry,
 * taken by one atomic statement, so several processes on one file (a shared volume) never crawl together.
 */
import { openSqliteDb, type SqliteExec } from "./sqlite-db.ts";
import type { CatalogMeta, CatalogRow, CatalogStore } from "./types.ts";

const SCHEMA = [
  `CREATE TABLE IF NOT EXISTS records (id TEXT PRIMARY KEY, record TEXT NOT NULL, origin TEXT NOT NULL,
    list_hash TEXT, detail_at INTEGER, seen_at INTEGER, missing_since INTEGER)`,
  "CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
  "CREATE TABLE IF NOT EXISTS sync_lock (name TEXT PRIMARY KEY, owner TEXT NOT NULL, expires INTEGER NOT NULL)",
];

const UPSERT = `INSERT OR REPLACE INTO records (id, record, origin, list_hash, detail_at, seen_at, missing_since)
VALUES (?, ?, ?, ?, ?, ?, ?)`;
const SET_META =
  "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value";
const BUMP = `INSERT INTO meta (key, value) VALUES ('revision', '1')
ON CONFLICT(key) DO UPDATE SET value = CAST(CAST(value AS INTEGER) + 1 AS TEXT)`;
// Take a free or expired lock (or extend our own) in one statement; RETURNING says whether we hold it.
const LOCK = `INSERT INTO sync_lock (name, owner, expires) VALUES ('sync', ?, ?)
ON CONFLICT(name) DO UPDATE SET owner = excluded.owner, expires = excluded.expires
WHERE sync_lock.expires <= ? OR sync_lock.owner = excluded.owner
RETURNING owner`;
const RENEW = "UPDATE sync_lock SET expires = ? WHERE name = 'sync' AND owner = ? RETURNING owner";

interface RawRow {
  id: string;
  record: string;
  origin: "snapshot" | "live";
  list_hash: string | null;
  detail_at: number | null;
  seen_at: number | null;
  missing_since: number | null;
}

export interface SqliteCatalogStoreOptions {
  path: string;
  /** Wall clock for lock expiries (several processes compare them). */
  now?: () => number;
}

/** Opens (creating) the catalog file. */
export async function createSqliteCatalogStore(options: SqliteCatalogStoreOptions): Promise<CatalogStore> {
  const db = await openSqliteDb(options.path);
  const now = options.now ?? Date.now;
  await db.transaction(async (tx) => {
    for (const statement of SCHEMA) await tx.run(statement);
  });
  const writeRows = async (tx: SqliteExec, rows: CatalogRow[]) => {
    for (const r of rows) {
      await tx.run(
        UPSERT,
        r.id,
        JSON.stringify(r.record),
        r.origin,
        r.listHash,
        r.detailAt,
        r.seenAt,
        r.missingSince,
      );
    }
    await tx.run(BUMP);
  };

  return {
    kind: "sqlite",
    async loadAll() {
      const rows = await db.all<RawRow>("SELECT * FROM records");
      return rows.map((r) => ({
        id: r.id,
        record: JSON.parse(r.record),
        origin: r.origin,
        listHash: r.list_hash,
        detailAt: r.detail_at,
        seenAt: r.seen_at,
        missingSince: r.missing_since,
      }));
    },
    put: (rows) => db.transaction((tx) => writeRows(tx, rows)),
    remove: (ids) =>
      db.transaction(async (tx) => {
        for (const id of ids) await tx.run("DELETE FROM records WHERE id = ?", id);
        await tx.run(BUMP);
      }),
    async meta() {
      const rows = await db.all<{ key: string; value: string }>("SELECT key, value FROM meta");
      const meta: CatalogMeta = { revision: 0 };
      for (const { key, value } of rows)
        (meta as unknown as Record<string, unknown>)[key] = JSON.parse(value);
      return meta;
    },
    setMeta: (patch) =>
      db.transaction(async (tx) => {
        for (const [key, value] of Object.entries(patch)) {
          if (value === undefined) await tx.run("DELETE FROM meta WHERE key = ?", key);
          else await tx.run(SET_META, key, JSON.stringify(value));
        }
        await tx.run(BUMP);
      }),
    async tryLock(owner, ttlMs) {
      const at = now();
      const rows = await db.transaction((tx) => tx.all(LOCK, owner, at + ttlMs, at));
      return rows.length === 1;
    },
    async renewLock(owner, ttlMs) {
      const rows = await db.transaction((tx) => tx.all(RENEW, now() + ttlMs, owner));
      return rows.length === 1;
    },
    async unlock(owner) {
      await db.transaction((tx) => tx.run("DELETE FROM sync_lock WHERE name = 'sync' AND owner = ?", owner));
    },
    close: () => db.close(),
  };
}
