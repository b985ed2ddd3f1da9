/**
 * The shared catalog store for several instances on one Redis: rows in one hash, meta in another, each
 * write and its revision bump in one MULTI, and the sync lock as a key with a random owner and an expiry
 * (renewed while the sync runs, released by compare-and-delete), so exactly one instance crawls.
 */
import { createClient } from "@keyv/redis";
import { RELEASE, RENEW } from "../../store/redis-scripts.ts";
import type { CatalogMeta, CatalogRow, CatalogStore } from "./types.ts";

export interface RedisCatalogStoreOptions {
  url: string;
  /** Key prefix (default "subsidy-concierge:catalog"). */
  prefix?: string;
}

// Take the lock when free, or extend it when we already hold it.
const TAKE = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return 1 end
return 0`;

/** Connects to Redis (rejects when it cannot). */
export async function createRedisCatalogStore(options: RedisCatalogStoreOptions): Promise<CatalogStore> {
  const prefix = options.prefix ?? "subsidy-concierge:catalog";
  const keys = { rows: `${prefix}:records`, meta: `${prefix}:meta`, lock: `${prefix}:lock` };
  const client = createClient({
    url: options.url,
    disableOfflineQueue: true,
    commandOptions: { timeout: 30_000 },
    socket: { connectTimeout: 3_000, reconnectStrategy: (n: number) => Math.min(100 * 2 ** n, 2_000) },
  });
  client.on("error", () => {});
  await client.connect();
  const script = async (body: string, key: string, args: Array<string | number>) =>
    Number(await client.eval(body, { keys: [key], arguments: args.map(String) }));

  return {
    kind: "redis",
    async loadAll() {
      const all = await client.hGetAll(keys.rows);
      return Object.values(all).map((json) => JSON.parse(String(json)) as CatalogRow);
    },
    async put(rows) {
      if (rows.length === 0) return;
      const fields = Object.fromEntries(rows.map((r) => [r.id, JSON.stringify(r)]));
      await client.multi().hSet(keys.rows, fields).hIncrBy(keys.meta, "revision", 1).exec();
    },
    async remove(ids) {
      if (ids.length === 0) return;
      await client.multi().hDel(keys.rows, ids).hIncrBy(keys.meta, "revision", 1).exec();
    },
    async meta() {
      const raw = await client.hGetAll(keys.meta);
      const meta: Record<string, unknown> = { revision: 0 };
      for (const [key, value] of Object.entries(raw)) {
        meta[key] = key === "revision" ? Number(value) : JSON.parse(String(value));
      }
      return meta as unknown as CatalogMeta;
    },
    async setMeta(patch) {
      const entries = Object.entries(patch);
      const set = entries.filter(([, v]) => v !== undefined).map(([k, v]) => [k, JSON.stringify(v)]);
      const unset = entries.filter(([, v]) => v === undefined).map(([k]) => k);
      const multi = client.multi();
      if (set.length > 0) multi.hSet(keys.meta, Object.fromEntries(set));
      if (unset.length > 0) multi.hDel(keys.meta, unset);
      await multi.hIncrBy(keys.meta, "revision", 1).exec();
    },
    tryLock: async (owner, ttlMs) => (await script(TAKE, keys.lock, [owner, ttlMs])) === 1,
    renewLock: async (owner, ttlMs) => (await script(RENEW, keys.lock, [owner, ttlMs])) === 1,
    unlock: async (owner) => void (await script(RELEASE, keys.lock, [owner])),
    async close() {
      if (client.isReady) await client.close().catch(() => undefined);
      if (client.isOpen) client.destroy();
    },
  };
}
