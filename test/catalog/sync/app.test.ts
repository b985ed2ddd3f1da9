import { rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { LiveCatalog } from "../../../src/catalog/sync/types.ts";
import { loadConfig } from "../../../src/config.ts";
import { silentLogger } from "../../../src/logger.ts";
import { type RunningApp, startApp } from "../../../src/main.ts";
import { jstDate } from "../../../src/mcp-servers/jgrants/search-result.ts";
import { createJgrantsSource } from "../../../src/mcp-servers/jgrants/source.ts";
import { getJson, idsOf, postChat } from "../../e2e/support/chat.ts";
import { type FakeJgrantsApi, startFakeJgrantsApi } from "../../fakes/fake-jgrants-api.ts";
import { generateSubsidies } from "../../fakes/generated-subsidies.ts";
import { jgrantsConfig } from "../../mcp-servers/jgrants/helpers.ts";
import { fakeClock, openCatalog, tempDir } from "./helpers.ts";

const NEW_ID = "a0WJ2000NEWPEROVSK";
const QUESTION = "ペロブスカイト太陽電池の導入に使える補助金はありますか";
let fake: FakeJgrantsApi;
let app: RunningApp;
let catalog: LiveCatalog;
let dir: string;

beforeAll(async () => {
  const now = new Date();
  const records = generateSubsidies(12, now);
  records.push({
    ...records[0],
    id: NEW_ID,
    title: "ペロブスカイト太陽電池導入支援補助金",
    subsidy_catch_phrase: "次世代太陽電池の導入を支援します",
    application_guidelines: [],
  });
  fake = await startFakeJgrantsApi(records, { now });
  dir = tempDir();
  const env = {
    HOST: "127.0.0.1",
    PORT: "0",
    JGRANTS_SOURCE: "auto",
    JGRANTS_API_URL: fake.baseUrl,
    SQLITE_PATH: join(dir, "threads.sqlite"),
    CATALOG_SYNC_ON_START: "false",
    MCP_HEARTBEAT_MS: "0",
  };
  catalog = openCatalog(fake, join(dir, "catalog.sqlite"), fakeClock(now));
  app = await startApp(loadConfig(env), silentLogger, { catalog });
  await catalog.ready();
});
afterAll(async () => {
  await app.stop();
  await fake.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("the app with a live catalog", () => {
  it("/healthz and /tools report the seeded catalog before any sync", async () => {
    const { status, body } = await getJson(app.url, "/healthz");
    expect(status).toBe(200);
    expect(body.components.catalog).toMatchObject({ origin: "live", asOf: "2026-08-22", dataAgeHours: null });
    expect(body.components.catalog.recordCount).toBeGreaterThan(500);
  });

  it("answers change when the catalog changes: a synced subsidy appears when the API is down", async () => {
    fake.cut = true;
    const before = await postChat(app.url, QUESTION);
    expect(idsOf(before)).not.toContain(NEW_ID);

    fake.cut = false;
    const report = await catalog.syncNow();
    expect(report.outcome).toBe("done");
    fake.cut = true;
    const after = await postChat(app.url, QUESTION);
    expect(idsOf(after)).toContain(NEW_ID);
    // The ranked search reads the synced catalog (never the API): the answer says which data it used,
    // and as of when (the day of the sync).
    expect(after.notes).toContainEqual(expect.stringContaining(`${jstDate(Date.now())}時点のデータ`));
    fake.cut = false;
  });

  it("/healthz and /tools report the last sync, its duration, the open count and the data age", async () => {
    const health = (await getJson(app.url, "/healthz")).body.components.catalog;
    expect(health).toMatchObject({
      lastSyncAt: expect.any(String),
      lastSyncMs: expect.any(Number),
      openCount: expect.any(Number),
      dataAgeHours: expect.any(Number),
    });
    expect(health.openCount).toBeGreaterThanOrEqual(11);
    expect(health.lastError).toBeUndefined();
    const tools = (await getJson(app.url, "/tools")).body;
    expect(tools.catalog.recordCount).toBe(health.recordCount);
  });

  it("get_subsidy_detail serves a fresh stored detail without calling the API, a stale one live", async () => {
    const config = jgrantsConfig({ source: "live", apiUrl: fake.baseUrl });
    const source = createJgrantsSource(config, { catalog });
    fake.calls.length = 0;
    const fresh = await source.detail(NEW_ID);
    expect(fresh).toMatchObject({
      title: "ペロブスカイト太陽電池導入支援補助金",
      data_source: { mode: "live", from_catalog: true },
    });
    expect(fake.calls).toEqual([]);

    const stale = createJgrantsSource(config, { catalog: { ...catalog, freshDetail: () => undefined } });
    fake.records.at(-1)!.subsidy_rate = "3/4 以内";
    const live = await stale.detail(NEW_ID);
    expect(live).toMatchObject({ subsidy_rate: "3/4 以内", data_source: { mode: "live" } });
    expect(fake.calls).toHaveLength(1);
    // Kept at once (a restart would see it); published to readers with the next batch.
    await vi.waitFor(() => expect(catalog.row(NEW_ID)?.record.subsidy_rate).toBe("3/4 以内"));
    await vi.waitFor(() => expect(catalog.get(NEW_ID)?.subsidy_rate).toBe("3/4 以内"), { timeout: 5_000 });
  });
});
