import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createLiveCatalog } from "../../../src/catalog/sync/live-catalog.ts";
import { createSqliteCatalogStore } from "../../../src/catalog/sync/sqlite-catalog-store.ts";
import type { LiveCatalog } from "../../../src/catalog/sync/types.ts";
import { type FakeJgrantsApi, startFakeJgrantsApi } from "../../fakes/fake-jgrants-api.ts";
import { generatedId, generateSubsidies } from "../../fakes/generated-subsidies.ts";
import { detailIds, LIST, tempDir, testSettings } from "./helpers.ts";

const NOW = new Date();
let fake: FakeJgrantsApi;
let path: string;
const opened: LiveCatalog[] = [];

/** A catalog on real timers (short periods) and no spacing. */
function catalogWith(over: Parameters<typeof testSettings>[2], pollMs = 3_600_000) {
  const catalog = createLiveCatalog(testSettings(fake, path, { detailIntervalMs: 0, ...over }), {
    openStore: () => createSqliteCatalogStore({ path }),
    pollMs,
  });
  opened.push(catalog);
  return catalog;
}

beforeEach(async () => {
  fake = await startFakeJgrantsApi(generateSubsidies(10, NOW), { now: NOW });
  path = join(tempDir(), "catalog.sqlite");
});
afterEach(async () => {
  for (const catalog of opened.splice(0)) await catalog.close();
  await fake.close();
});

const listRounds = () => fake.calls.filter((c) => c.path === LIST && c.query.keyword === "補助").length / 2;

describe("the sync schedule", () => {
  it("syncs in the background at start, while the seeded records already answer", async () => {
    const catalog = catalogWith({ syncOnStart: true });
    catalog.start();
    await catalog.ready();
    expect(catalog.list().length).toBeGreaterThan(500);
    await vi.waitFor(() => expect(catalog.info().lastSyncAt).toBeDefined(), { timeout: 10_000 });
    expect(catalog.get(generatedId(0))?.detail).toBeTruthy();
  });

  it("syncs again every refresh period", async () => {
    const catalog = catalogWith({ syncOnStart: true, refreshMs: 100 });
    catalog.start();
    await vi.waitFor(() => expect(listRounds()).toBeGreaterThanOrEqual(3), { timeout: 10_000, interval: 50 });
  });

  it("without a sync at start, the first sync waits for the refresh period", async () => {
    const catalog = catalogWith({ syncOnStart: false, refreshMs: 3_600_000 });
    catalog.start();
    await catalog.ready();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(fake.calls).toEqual([]);
  });

  it("an instance started just after another's sync does not crawl again", async () => {
    const first = catalogWith({});
    await first.syncNow();
    const calls = fake.calls.length;
    const second = catalogWith({ syncOnStart: true });
    second.start();
    await vi.waitFor(() => expect(second.info().lastSyncAt).toBe(first.info().lastSyncAt), {
      timeout: 10_000,
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(fake.calls.length).toBe(calls);
    expect(second.get(generatedId(0))?.detail).toBeTruthy();
  });

  it("another instance on the same file reloads what the syncing one wrote", async () => {
    const writer = catalogWith({});
    const reader = catalogWith({}, 50);
    reader.start();
    await reader.ready();
    expect(reader.get(generatedId(0))).toBeUndefined();
    await writer.syncNow();
    await vi.waitFor(() => expect(reader.info().lastSyncAt).toBe(writer.info().lastSyncAt), {
      timeout: 10_000,
    });
    expect(reader.get(generatedId(0))?.detail).toBeTruthy();
    expect(detailIds(fake)).toHaveLength(9);
  });
});
