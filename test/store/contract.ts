/**
 * The behaviour every ThreadStore backend must show, run against memory, SQLite and Redis alike.
 * `make` builds a store from config overrides and a clock the test controls.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { Config } from "../../src/config.ts";
import type { KeyvThreadStore } from "../../src/store/index.ts";
import type { HistoryTurn } from "../../src/types.ts";

export type StoreConfig = Config["store"];
export type MakeStore = (overrides: Partial<StoreConfig>, now: () => number) => Promise<KeyvThreadStore>;

/** A history turn with recognisable content. */
export function turnOf(n: number, answer = `answer ${n}`): HistoryTurn {
  return {
    question: `質問 ${n}`,
    answer,
    subsidies: [{ id: `a0W${n}`, title: `補助金 ${n}` }],
    conditions: { keywords: [`kw${n}`] },
    messageIds: [`m${n}`],
    at: new Date(1_700_000_000_000 + n).toISOString(),
  };
}

/** Registers the shared behaviour tests. `dedupFollowsClock` is false where expiry is the server's (Redis). */
export function describeThreadStoreContract(name: string, make: MakeStore, dedupFollowsClock = true): void {
  describe(`ThreadStore contract: ${name}`, () => {
    let clock = 1_800_000_000_000;
    const now = () => clock;
    const opened: KeyvThreadStore[] = [];
    const open = async (overrides: Partial<StoreConfig> = {}) => {
      const store = await make(overrides, now);
      opened.push(store);
      return store;
    };
    const unique = (label: string) => `${label}:${Math.random().toString(36).slice(2)}`;

    afterEach(async () => {
      await Promise.all(opened.splice(0).map((store) => store.close()));
    });

    it("returns turns oldest first, per thread, and [] for an unknown thread", async () => {
      const store = await open();
      const [a, b] = [unique("a"), unique("b")];
      expect(await store.load(a)).toEqual([]);
      for (const n of [1, 2, 3]) await store.append(a, turnOf(n));
      await store.append(b, turnOf(9));
      expect(await store.load(a)).toEqual([turnOf(1), turnOf(2), turnOf(3)]);
      expect((await store.load(b)).map((t) => t.question)).toEqual(["質問 9"]);
      expect(await store.health()).toEqual({ ok: true, backend: store.backend });
    });

    it("keeps only the last maxTurns turns and about maxBytes", async () => {
      const store = await open({ maxTurns: 3, maxBytes: 2_048 });
      const key = unique("bounds");
      for (const n of [1, 2, 3, 4, 5]) await store.append(key, turnOf(n));
      expect((await store.load(key)).map((t) => t.question)).toEqual(["質問 3", "質問 4", "質問 5"]);
      for (const n of [6, 7]) await store.append(key, turnOf(n, "長".repeat(400)));
      const turns = await store.load(key);
      expect(turns.at(-1)?.question).toBe("質問 7");
      expect(turns.length).toBeLessThan(3);
      expect(Buffer.byteLength(JSON.stringify(turns))).toBeLessThanOrEqual(2_048);
      await store.append(key, turnOf(8, "巨".repeat(5_000)));
      const [only] = await store.load(key);
      expect(only?.question).toBe("質問 8");
      expect(Buffer.byteLength(JSON.stringify([only]))).toBeLessThanOrEqual(2_048);
    });

    it("forgets a thread on clear(), leaving others", async () => {
      const store = await open();
      const [a, b] = [unique("a"), unique("b")];
      await store.append(a, turnOf(1));
      await store.append(b, turnOf(2));
      await store.clear(a);
      expect(await store.load(a)).toEqual([]);
      expect(await store.load(b)).toHaveLength(1);
      await store.clear(unique("never"));
    });

    it("expires a thread ttlMs after its last append (TTL refreshed on append)", async () => {
      const store = await open({ ttlMs: 60_000 });
      const key = unique("ttl");
      await store.append(key, turnOf(1));
      clock += 50_000;
      await store.append(key, turnOf(2));
      clock += 50_000;
      expect(await store.load(key)).toHaveLength(2);
      clock += 10_001;
      expect(await store.load(key)).toEqual([]);
    });

    it("marks an event delivered exactly once, even when raced", async () => {
      const store = await open();
      const id = unique("ev");
      const results = await Promise.all(Array.from({ length: 20 }, () => store.markDelivered(id)));
      expect(results.filter(Boolean)).toHaveLength(1);
      expect(await store.markDelivered(id)).toBe(false);
      expect(await store.markDelivered(unique("other"))).toBe(true);
    });

    it.runIf(dedupFollowsClock)("accepts an event id again after its dedup TTL", async () => {
      const store = await open({ dedupTtlMs: 3_600_000 });
      const id = unique("ev");
      expect(await store.markDelivered(id)).toBe(true);
      clock += 3_599_000;
      expect(await store.markDelivered(id)).toBe(false);
      clock += 2_000;
      expect(await store.markDelivered(id)).toBe(true);
      expect(await store.markDelivered(id, 10_000)).toBe(false);
    });

    it("runs turns of one thread one at a time, in arrival order", async () => {
      const store = await open();
      const key = unique("order");
      const log: string[] = [];
      let inside = 0;
      let most = 0;
      const turn = (n: number) =>
        store.withThreadLock(key, async () => {
          inside += 1;
          most = Math.max(most, inside);
          log.push(`start ${n}`);
          await new Promise((resolve) => setTimeout(resolve, 5));
          log.push(`end ${n}`);
          inside -= 1;
          return n;
        });
      expect(await Promise.all([1, 2, 3, 4, 5].map(turn))).toEqual([1, 2, 3, 4, 5]);
      expect(most).toBe(1);
      expect(log.filter((line) => line.startsWith("start"))).toEqual(
        [1, 2, 3, 4, 5].map((n) => `start ${n}`),
      );
    });

    it("runs different threads in parallel", async () => {
      const store = await open();
      let release: () => void = () => {};
      const gate = new Promise<void>((resolve) => {
        release = resolve;
      });
      // A waits for B: this only finishes if the two threads do not share one lock.
      const a = store.withThreadLock(unique("a"), async () => {
        await gate;
        return "a";
      });
      const b = store.withThreadLock(unique("b"), async () => {
        release();
        return "b";
      });
      expect(await Promise.all([a, b])).toEqual(["a", "b"]);
    });

    it("gives up with ThreadBusyError after lockWaitMs, and frees the lock after a failing turn", async () => {
      const store = await open({ lockWaitMs: 150 });
      const key = unique("busy");
      let release: () => void = () => {};
      const held = store.withThreadLock(
        key,
        () =>
          new Promise<string>((resolve) => {
            release = () => resolve("first");
          }),
      );
      await expect(store.withThreadLock(key, async () => "second")).rejects.toMatchObject({
        code: "THREAD_BUSY",
        userMessage: expect.stringContaining("回答中"),
      });
      release();
      expect(await held).toBe("first");
      await expect(
        store.withThreadLock(key, async () => {
          throw new Error("turn failed");
        }),
      ).rejects.toThrow("turn failed");
      expect(await store.withThreadLock(key, async () => "third")).toBe("third");
    });

    it("rejects bad keys and turns with a clear error", async () => {
      const store = await open();
      await expect(store.load("")).rejects.toMatchObject({ code: "STORE_INVALID_KEY" });
      await expect(store.markDelivered("x".repeat(600))).rejects.toMatchObject({ code: "STORE_INVALID_KEY" });
      await expect(store.append("t", { question: 1 } as unknown as HistoryTurn)).rejects.toThrow(/question/);
    });
  });
}
