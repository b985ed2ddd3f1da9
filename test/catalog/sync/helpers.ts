/** Test helpers: a live catalog on a real SQLite file against the fake jGrants API, on a fake clock. */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach } from "vitest";
import { createLiveCatalog } from "../../../src/catalog/sync/live-catalog.ts";
import type { CatalogSettings } from "../../../src/catalog/sync/settings.ts";
import { createSqliteCatalogStore } from "../../../src/catalog/sync/sqlite-catalog-store.ts";
import type { LiveCatalog } from "../../../src/catalog/sync/types.ts";
import { type FakeJgrantsApi, startFakeJgrantsApi } from "../../fakes/fake-jgrants-api.ts";
import { generateSubsidies } from "../../fakes/generated-subsidies.ts";

export const DETAIL = "/exp/v1/public/subsidies/id/";
export const LIST = "/exp/v1/public/subsidies";
export const DAY = 86_400_000;

/** A clock that only moves when the code under test sleeps (or the test moves it). */
export interface FakeClock {
  t: number;
  sleeps: number[];
  now: () => number;
  sleep: (ms: number) => Promise<void>;
}

export function fakeClock(start: Date): FakeClock {
  const clock: FakeClock = {
    t: start.getTime(),
    sleeps: [],
    now: () => clock.t,
    sleep: async (ms) => {
      clock.sleeps.push(ms);
      clock.t += Math.max(0, ms);
    },
  };
  return clock;
}

/** A fresh directory for SQLite files. */
export function tempDir(): string {
  return mkdtempSync(join(tmpdir(), "catalog-sync-"));
}

/** Settings with the production defaults, pointed at the fake. */
export function testSettings(fake: FakeJgrantsApi, path: string, over: Partial<CatalogSettings> = {}) {
  return {
    apiUrl: fake.baseUrl,
    timeoutMs: 2_000,
    detailIntervalMs: 1_000,
    detailMaxAgeMs: 72 * 3_600_000,
    maxSyncMs: 60 * 60_000,
    retentionMs: 30 * DAY,
    refreshMs: 6 * 3_600_000,
    resumeMs: 15 * 60_000,
    backoffMs: 5_000,
    keywords: ["補助", "助成", "奨励", "支援"],
    syncOnStart: false,
    path,
    ...over,
  } satisfies CatalogSettings;
}

/** A catalog on `path` whose every wait goes to the fake clock. */
export function openCatalog(
  fake: FakeJgrantsApi,
  path: string,
  clock: FakeClock,
  over: Partial<CatalogSettings> = {},
): LiveCatalog {
  return createLiveCatalog(testSettings(fake, path, over), {
    openStore: () => createSqliteCatalogStore({ path, now: clock.now }),
    now: clock.now,
    sleep: clock.sleep,
    retryDelaysMs: [10],
    pollMs: 3_600_000,
  });
}

/** The detail calls the fake received, as ids. */
export function detailIds(fake: FakeJgrantsApi): string[] {
  return fake.calls.filter((c) => c.path.startsWith(DETAIL)).map((c) => c.path.slice(DETAIL.length));
}

/** What a sync test works on: the fake API with `count` generated records, a clock, a file, a catalog. */
export interface CatalogFixture {
  fake: FakeJgrantsApi;
  clock: FakeClock;
  path: string;
  catalog: LiveCatalog;
}

/** Registers before/after hooks that give each test a fresh fixture (read it inside the tests). */
export function useCatalogFixture(count: number, now: Date): CatalogFixture {
  const fixture = {} as CatalogFixture;
  beforeEach(async () => {
    fixture.fake = await startFakeJgrantsApi(generateSubsidies(count, now), { now });
    fixture.clock = fakeClock(now);
    fixture.path = join(tempDir(), "catalog.sqlite");
    fixture.catalog = openCatalog(fixture.fake, fixture.path, fixture.clock);
  });
  afterEach(async () => {
    await fixture.catalog.close();
    await fixture.fake.close();
  });
  return fixture;
}
