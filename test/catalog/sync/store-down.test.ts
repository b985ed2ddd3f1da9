import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createLiveCatalog } from "../../../src/catalog/sync/live-catalog.ts";
import { createSqliteCatalogStore } from "../../../src/catalog/sync/sqlite-catalog-store.ts";
import type { LiveCatalog } from "../../../src/catalog/sync/types.ts";
import { createJgrantsSource } from "../../../src/mcp-servers/jgrants/source.ts";
import { type FakeJgrantsApi, startFakeJgrantsApi } from "../../fakes/fake-jgrants-api.ts";
import { generatedId, generateSubsidies } from "../../fakes/generated-subsidies.ts";
import { jgrantsConfig } from "../../mcp-servers/jgrants/helpers.ts";
import { tempDir, testSettings } from "./helpers.ts";

const NOW = new Date();
const SEARCH = { keyword: "事業承継", sort: "acceptance_end_datetime", order: "ASC", acceptance: 1 } as const;
let fake: FakeJgrantsApi;
let catalog: LiveCatalog;
let storeUp: boolean;

beforeEach(async () => {
  fake = await startFakeJgrantsApi(generateSubsidies(10, NOW), { now: NOW });
  const path = join(tempDir(), "catalog.sqlite");
  storeUp = false;
  catalog = createLiveCatalog(testSettings(fake, path, { detailIntervalMs: 0 }), {
    openStore: async () => {
      if (!storeUp) throw new Error("store unreachable");
      return createSqliteCatalogStore({ path });
    },
  });
});
afterEach(async () => {
  await catalog.close();
  await fake.close();
});

describe("when the catalog's store cannot be opened", () => {
  it("auto answers from the bundled snapshot while the API is down, and says so", async () => {
    fake.cut = true;
    const source = createJgrantsSource(jgrantsConfig({ source: "auto", apiUrl: fake.baseUrl }), { catalog });
    const result = await source.search(SEARCH);
    expect(result.total_count).toBeGreaterThan(0);
    expect(result.data_source).toMatchObject({ mode: "snapshot", as_of: "2026-08-22" });
    expect(String((result.data_source as { fallback_reason: string }).fallback_reason)).toContain(
      "同梱のスナップショット",
    );
  });

  it("a failed open is retried: the next sync opens the store and fills it", async () => {
    await expect(catalog.syncNow()).rejects.toThrow("store unreachable");
    storeUp = true;
    const report = await catalog.syncNow();
    expect(report.outcome).toBe("done");
    expect(catalog.get(generatedId(0))?.detail).toBeTruthy();
  });
});
