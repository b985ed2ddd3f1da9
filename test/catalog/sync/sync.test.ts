import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { generatedId, generateSubsidies } from "../../fakes/generated-subsidies.ts";
import { DETAIL, detailIds, openCatalog, useCatalogFixture } from "./helpers.ts";

const NOW = new Date("2026-12-01T00:00:00Z");
const fx = useCatalogFixture(40, NOW);

// 40 generated: 4 closed (never listed), 4 upcoming (listed by the acceptance=0 pass), 32 open.
const LISTED = 36;

describe("the live catalog's sync against the fx.fake jGrants API", () => {
  it("is seeded from the bundled snapshot before any network call", async () => {
    await fx.catalog.ready();
    expect(fx.fake.calls).toEqual([]);
    expect(fx.catalog.list().length).toBeGreaterThan(500);
    expect(fx.catalog.get("a0WJ200000CDbPBMA1")?.title).toBeTruthy();
    expect(fx.catalog.info()).toMatchObject({ origin: "live", asOf: "2026-08-22" });
  });

  it("the first sync fills the fx.catalog, one request at a time, spaced by the interval", async () => {
    const before = fx.catalog.version();
    const report = await fx.catalog.syncNow();
    expect(report).toMatchObject({ outcome: "done", listed: LISTED, added: LISTED, fetched: LISTED });
    expect(detailIds(fx.fake).sort()).toEqual(
      fx.fake.records
        .filter((_, i) => i % 10 !== 9)
        .map((r) => r.id)
        .sort(),
    );
    const upcoming = fx.catalog.get(generatedId(8));
    expect(upcoming?.detail).toContain("省エネ");
    expect(fx.catalog.get(generatedId(9))).toBeUndefined();
    expect(fx.catalog.version()).toBeGreaterThan(before);
    // Every request after the first waited for its slot: the default spacing of 1 s.
    const requests = fx.fake.calls.length;
    expect(fx.clock.sleeps.filter((ms) => ms > 0)).toHaveLength(requests - 1);
    expect(new Set(fx.clock.sleeps)).toEqual(new Set([1_000]));
    expect(fx.catalog.info()).toMatchObject({ lastSyncAt: NOW.toISOString(), openCount: expect.any(Number) });
  });

  it("keeps attachment names and sizes, never their base64", async () => {
    await fx.catalog.syncNow();
    const record = fx.catalog.get(generatedId(0))!;
    expect(record.application_guidelines).toEqual([{ name: "公募要領0.pdf", size: 3_000 }]);
    // The detail's plain text is kept for search, as the snapshot does.
    expect(record._detail_text).toBe("全国の中小企業による省エネ設備導入の取り組みを補助金で支援します。");
    const base64 = (fx.fake.records[0]!.application_guidelines as Array<{ data: string }>)[0]!.data;
    const file = readFileSync(fx.path).toString("latin1") + readFileSync(`${fx.path}-wal`).toString("latin1");
    expect(file).not.toContain(base64.slice(0, 100));
  });

  it("a second sync fetches only new or changed details", async () => {
    await fx.catalog.syncNow();
    fx.fake.calls.length = 0;
    fx.fake.records[3]!.acceptance_end_datetime = "2027-03-31T14:59:00.000Z";
    fx.fake.records.push(...generateSubsidies(41, NOW).slice(40));
    const report = await fx.catalog.syncNow();
    expect(report).toMatchObject({ outcome: "done", added: 1, fetched: 2 });
    expect(detailIds(fx.fake).sort()).toEqual([generatedId(3), generatedId(40)].sort());
    expect(fx.catalog.get(generatedId(3))?.acceptance_end_datetime).toBe("2027-03-31T14:59:00.000Z");
  });

  it("a detail older than its age limit is fetched again", async () => {
    await fx.catalog.syncNow();
    fx.fake.calls.length = 0;
    fx.clock.t += 73 * 3_600_000;
    const report = await fx.catalog.syncNow();
    expect(report.fetched).toBe(LISTED);
  });

  it("backs off on 429 and 5xx bursts, and the sync still finishes", async () => {
    fx.fake.script(
      DETAIL,
      { status: 429 },
      { status: 503 },
      { status: 500 },
      { status: 502 },
      { status: 429 },
    );
    const report = await fx.catalog.syncNow();
    expect(report).toMatchObject({ outcome: "done", fetched: LISTED, failedDetails: 0 });
    // The client's short retry, then the sync's growing backoff (5 s, then 10 s).
    expect(fx.clock.sleeps).toContain(5_000);
    expect(fx.clock.sleeps).toContain(10_000);
  });

  it("never retries a 4xx other than 429", async () => {
    fx.fake.script(`${DETAIL}${generatedId(0)}`, { status: 403, body: { message: "forbidden" } });
    const report = await fx.catalog.syncNow();
    expect(report).toMatchObject({ outcome: "done", failedDetails: 1, fetched: LISTED - 1 });
    expect(detailIds(fx.fake).filter((id) => id === generatedId(0))).toHaveLength(1);
    expect(report.error).toContain("HTTPエラー: 403");
  });

  it("stops at its time bound and keeps what it got", async () => {
    await fx.catalog.close();
    fx.catalog = openCatalog(fx.fake, fx.path, fx.clock, { maxSyncMs: 20_500 });
    const report = await fx.catalog.syncNow();
    expect(report.outcome).toBe("partial");
    expect(report.fetched).toBeGreaterThan(0);
    expect(report.fetched).toBeLessThan(LISTED);
    expect(report.error).toContain("次回の同期で続きを取得します");
    expect(fx.catalog.info().lastError).toContain("time bound");
  });
});
