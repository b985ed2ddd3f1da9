import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { LiveCatalog } from "../../../src/catalog/sync/types.ts";
import { isAccepting } from "../../../src/mcp-servers/jgrants/records.ts";
import { type FakeJgrantsApi, startFakeJgrantsApi } from "../../fakes/fake-jgrants-api.ts";
import { generatedId, generateSubsidies } from "../../fakes/generated-subsidies.ts";
import { DAY, DETAIL, detailIds, type FakeClock, fakeClock, openCatalog, tempDir } from "./helpers.ts";

const NOW = new Date("2026-12-01T00:00:00Z");
let fake: FakeJgrantsApi;
let clock: FakeClock;
let path: string;
let catalog: LiveCatalog;

beforeEach(async () => {
  fake = await startFakeJgrantsApi(generateSubsidies(30, NOW), { now: NOW });
  clock = fakeClock(NOW);
  path = join(tempDir(), "catalog.sqlite");
  catalog = openCatalog(fake, path, clock);
});
afterEach(async () => {
  await catalog.close();
  await fake.close();
});

describe("partial syncs, deletions and restarts", () => {
  it("a network cut mid-sync keeps the partial result, and the next run resumes", async () => {
    let details = 0;
    fake.onCall = (call) => {
      if (call.path.startsWith(DETAIL) && ++details === 8) fake.cut = true;
    };
    const first = await catalog.syncNow();
    expect(first.outcome).toBe("partial");
    expect(first.fetched).toBe(7);
    expect(first.error).toContain("APIサーバーへの接続に失敗しました");
    const fetchedFirst = new Set(detailIds(fake).slice(0, 7));
    // Every listed record is in the catalog already, the fetched ones with their detail.
    for (const id of fetchedFirst) expect(catalog.get(id)?.detail).toContain("支援します");

    fake.onCall = undefined;
    fake.cut = false;
    fake.calls.length = 0;
    const second = await catalog.syncNow();
    expect(second).toMatchObject({ outcome: "done", fetched: 27 - 7 });
    expect(detailIds(fake).filter((id) => fetchedFirst.has(id))).toEqual([]);
  });

  it("a deleted subsidy becomes closed, then is dropped after the retention", async () => {
    await catalog.syncNow();
    const id = generatedId(4);
    expect(isAccepting(catalog.get(id)!, clock.now())).toBe(true);
    fake.records.splice(4, 1);

    clock.t += DAY;
    const report = await catalog.syncNow();
    expect(report.markedMissing).toBeGreaterThanOrEqual(1);
    const closed = catalog.get(id)!;
    expect(closed.title).toContain("第5号");
    expect(isAccepting(closed, clock.now())).toBe(false);
    expect(closed._catalog_missing_since).toBe(new Date(clock.t).toISOString());
    const listedEnd = generateSubsidies(30, NOW)[4]!.acceptance_end_datetime;
    expect(closed._listed_acceptance_end_datetime).toBe(listedEnd);

    clock.t += 31 * DAY;
    const later = await catalog.syncNow();
    expect(later.dropped).toBeGreaterThanOrEqual(1);
    expect(catalog.get(id)).toBeUndefined();
  });

  it("a record that comes back is open again", async () => {
    await catalog.syncNow();
    const [removed] = fake.records.splice(2, 1);
    await catalog.syncNow();
    expect(isAccepting(catalog.get(generatedId(2))!, clock.now())).toBe(false);
    fake.records.push(removed!);
    await catalog.syncNow();
    expect(isAccepting(catalog.get(generatedId(2))!, clock.now())).toBe(true);
  });

  it("snapshot records left out of the live lists are kept as closed", async () => {
    await catalog.syncNow();
    const seed = catalog.get("a0WJ200000CDbPBMA1")!;
    expect(seed._catalog_missing_since).toBeDefined();
    expect(isAccepting(seed, clock.now())).toBe(false);
  });

  it("restart: the catalog is reused, not re-crawled", async () => {
    await catalog.syncNow();
    const count = catalog.list().length;
    await catalog.close();
    fake.calls.length = 0;

    catalog = openCatalog(fake, path, clock);
    await catalog.ready();
    expect(fake.calls).toEqual([]);
    expect(catalog.list()).toHaveLength(count);
    expect(catalog.get(generatedId(0))?.detail).toContain("支援します");
    expect(catalog.info().lastSyncAt).toBe(NOW.toISOString());
    const again = await catalog.syncNow();
    expect(again).toMatchObject({ outcome: "done", fetched: 0, added: 0 });
    expect(detailIds(fake)).toEqual([]);
  });
});
