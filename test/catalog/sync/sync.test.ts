import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { LiveCatalog } from "../../../src/catalog/sync/types.ts";
import { type FakeJgrantsApi, startFakeJgrantsApi } from "../../fakes/fake-jgrants-api.ts";
import { generatedId, generateSubsidies } from "../../fakes/generated-subsidies.ts";
import { DETAIL, detailIds, type FakeClock, fakeClock, openCatalog, tempDir } from "./helpers.ts";

const NOW = new Date("2026-12-01T00:00:00Z");
let fake: FakeJgrantsApi;
let clock: FakeClock;
let path: string;
let catalog: LiveCatalog;

beforeEach(async () => {
  fake = await startFakeJgrantsApi(generateSubsidies(40, NOW), { now: NOW });
  clock = fakeClock(NOW);
  path = join(tempDir(), "catalog.sqlite");
  catalog = openCatalog(fake, path, clock);
});
afterEach(async () => {
  await catalog.close();
  await fake.close();
});

// 40 generated: 4 closed (never listed), 4 upcoming (listed by the acceptance=0 pass), 32 open.
const LISTED = 36;

describe("the live catalog's sync against the fake jGrants API", () => {
  it("is seeded from the bundled snapshot before any network call", async () => {
    await catalog.ready();
    expect(fake.calls).toEqual([]);
    expect(catalog.list().length).toBeGreaterThan(500);
    expect(catalog.get("a0WJ200000CDbPBMA1")?.title).toBeTruthy();
    expect(catalog.info()).toMatchObject({ origin: "live", asOf: "2026-08-22" });
  });

  it("the first sync fills the catalog, one request at a time, spaced by the interval", async () => {
    const before = catalog.version();
    const report = await catalog.syncNow();
    expect(report).toMatchObject({ outcome: "done", listed: LISTED, added: LISTED, fetched: LISTED });
    expect(detailIds(fake).sort()).toEqual(
      fake.records
        .filter((_, i) => i % 10 !== 9)
        .map((r) => r.id)
        .sort(),
    );
    const upcoming = catalog.get(generatedId(8));
    expect(upcoming?.detail).toContain("省エネ");
    expect(catalog.get(generatedId(9))).toBeUndefined();
    expect(catalog.version()).toBeGreaterThan(before);
    // Every request after the first waited for its slot: the default spacing of 1 s.
    const requests = fake.calls.length;
    expect(clock.sleeps.filter((ms) => ms > 0)).toHaveLength(requests - 1);
    expect(new Set(clock.sleeps)).toEqual(new Set([1_000]));
    expect(catalog.info()).toMatchObject({ lastSyncAt: NOW.toISOString(), openCount: expect.any(Number) });
  });

  it("keeps attachment names and sizes, never their base64", async () => {
    await catalog.syncNow();
    const record = catalog.get(generatedId(0))!;
    expect(record.application_guidelines).toEqual([{ name: "公募要領0.pdf", size: 3_000 }]);
    const base64 = (fake.records[0]!.application_guidelines as Array<{ data: string }>)[0]!.data;
    const file = readFileSync(path).toString("latin1") + readFileSync(`${path}-wal`).toString("latin1");
    expect(file).not.toContain(base64.slice(0, 100));
  });

  it("a second sync fetches only new or changed details", async () => {
    await catalog.syncNow();
    fake.calls.length = 0;
    fake.records[3]!.acceptance_end_datetime = "2027-03-31T14:59:00.000Z";
    fake.records.push(...generateSubsidies(41, NOW).slice(40));
    const report = await catalog.syncNow();
    expect(report).toMatchObject({ outcome: "done", added: 1, fetched: 2 });
    expect(detailIds(fake).sort()).toEqual([generatedId(3), generatedId(40)].sort());
    expect(catalog.get(generatedId(3))?.acceptance_end_datetime).toBe("2027-03-31T14:59:00.000Z");
  });

  it("a detail older than its age limit is fetched again", async () => {
    await catalog.syncNow();
    fake.calls.length = 0;
    clock.t += 73 * 3_600_000;
    const report = await catalog.syncNow();
    expect(report.fetched).toBe(LISTED);
  });

  it("backs off on 429 and 5xx bursts, and the sync still finishes", async () => {
    fake.script(DETAIL, { status: 429 }, { status: 503 }, { status: 500 }, { status: 502 }, { status: 429 });
    const report = await catalog.syncNow();
    expect(report).toMatchObject({ outcome: "done", fetched: LISTED, failedDetails: 0 });
    // The client's short retry, then the sync's growing backoff (5 s, then 10 s).
    expect(clock.sleeps).toContain(5_000);
    expect(clock.sleeps).toContain(10_000);
  });

  it("never retries a 4xx other than 429", async () => {
    fake.script(`${DETAIL}${generatedId(0)}`, { status: 403, body: { message: "forbidden" } });
    const report = await catalog.syncNow();
    expect(report).toMatchObject({ outcome: "done", failedDetails: 1, fetched: LISTED - 1 });
    expect(detailIds(fake).filter((id) => id === generatedId(0))).toHaveLength(1);
    expect(report.error).toContain("HTTPエラー: 403");
  });

  it("stops at its time bound and keeps what it got", async () => {
    await catalog.close();
    catalog = openCatalog(fake, path, clock, { maxSyncMs: 20_500 });
    const report = await catalog.syncNow();
    expect(report.outcome).toBe("partial");
    expect(report.fetched).toBeGreaterThan(0);
    expect(report.fetched).toBeLessThan(LISTED);
    expect(report.error).toContain("次回の同期で続きを取得します");
    expect(catalog.info().lastError).toContain("time bound");
  });
});
