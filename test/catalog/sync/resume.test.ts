import { describe, expect, it } from "vitest";
import { isAccepting } from "../../../src/mcp-servers/jgrants/records.ts";
import { generatedId, generateSubsidies } from "../../fakes/generated-subsidies.ts";
import { DAY, DETAIL, detailIds, openCatalog, useCatalogFixture } from "./helpers.ts";

const NOW = new Date("2026-12-01T00:00:00Z");
const fx = useCatalogFixture(30, NOW);

describe("partial syncs, deletions and restarts", () => {
  it("a network cut mid-sync keeps the partial result, and the next run resumes", async () => {
    let details = 0;
    fx.fake.onCall = (call) => {
      if (call.path.startsWith(DETAIL) && ++details === 8) fx.fake.cut = true;
    };
    const first = await fx.catalog.syncNow();
    expect(first.outcome).toBe("partial");
    expect(first.fetched).toBe(7);
    expect(first.error).toContain("APIサーバーへの接続に失敗しました");
    const fetchedFirst = new Set(detailIds(fx.fake).slice(0, 7));
    // Every listed record is in the catalog already, the fetched ones with their detail.
    for (const id of fetchedFirst) expect(fx.catalog.get(id)?.detail).toContain("支援します");

    fx.fake.onCall = undefined;
    fx.fake.cut = false;
    fx.fake.calls.length = 0;
    const second = await fx.catalog.syncNow();
    expect(second).toMatchObject({ outcome: "done", fetched: 27 - 7 });
    expect(detailIds(fx.fake).filter((id) => fetchedFirst.has(id))).toEqual([]);
  });

  it("a deleted subsidy becomes closed, then is dropped after the retention", async () => {
    await fx.catalog.syncNow();
    const id = generatedId(4);
    expect(isAccepting(fx.catalog.get(id)!, fx.clock.now())).toBe(true);
    fx.fake.records.splice(4, 1);

    fx.clock.t += DAY;
    const report = await fx.catalog.syncNow();
    expect(report.markedMissing).toBeGreaterThanOrEqual(1);
    const closed = fx.catalog.get(id)!;
    expect(closed.title).toContain("第5号");
    expect(isAccepting(closed, fx.clock.now())).toBe(false);
    expect(closed._catalog_missing_since).toBe(new Date(fx.clock.t).toISOString());
    const listedEnd = generateSubsidies(30, NOW)[4]!.acceptance_end_datetime;
    expect(closed._listed_acceptance_end_datetime).toBe(listedEnd);

    fx.clock.t += 31 * DAY;
    const later = await fx.catalog.syncNow();
    expect(later.dropped).toBeGreaterThanOrEqual(1);
    expect(fx.catalog.get(id)).toBeUndefined();
  });

  it("an empty or halved listing is taken for an API fault: nothing is marked as gone", async () => {
    await fx.catalog.syncNow();
    const all = fx.fake.records.splice(0);
    const empty = await fx.catalog.syncNow();
    expect(empty).toMatchObject({ outcome: "done", markedMissing: 0 });
    expect(empty.error).toContain("empty");
    fx.fake.records.push(...all.slice(0, 10));
    const halved = await fx.catalog.syncNow();
    expect(halved).toMatchObject({ markedMissing: 0 });
    expect(halved.error).toContain("shrank");
    expect(isAccepting(fx.catalog.get(generatedId(20))!, fx.clock.now())).toBe(true);
  });

  it("a record that comes back is open again", async () => {
    await fx.catalog.syncNow();
    const [removed] = fx.fake.records.splice(2, 1);
    await fx.catalog.syncNow();
    expect(isAccepting(fx.catalog.get(generatedId(2))!, fx.clock.now())).toBe(false);
    fx.fake.records.push(removed!);
    await fx.catalog.syncNow();
    expect(isAccepting(fx.catalog.get(generatedId(2))!, fx.clock.now())).toBe(true);
  });

  it("snapshot records left out of the live lists are kept as closed", async () => {
    await fx.catalog.syncNow();
    const seed = fx.catalog.get("a0WJ200000CDbPBMA1")!;
    expect(seed._catalog_missing_since).toBeDefined();
    expect(isAccepting(seed, fx.clock.now())).toBe(false);
  });

  it("restart: the fx.catalog is reused, not re-crawled", async () => {
    await fx.catalog.syncNow();
    const count = fx.catalog.list().length;
    await fx.catalog.close();
    fx.fake.calls.length = 0;

    fx.catalog = openCatalog(fx.fake, fx.path, fx.clock);
    await fx.catalog.ready();
    expect(fx.fake.calls).toEqual([]);
    expect(fx.catalog.list()).toHaveLength(count);
    expect(fx.catalog.get(generatedId(0))?.detail).toContain("支援します");
    expect(fx.catalog.info().lastSyncAt).toBe(NOW.toISOString());
    const again = await fx.catalog.syncNow();
    expect(again).toMatchObject({ outcome: "done", fetched: 0, added: 0 });
    expect(detailIds(fx.fake)).toEqual([]);
  });
});
