import { copyFileSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { updateSnapshot } from "../../../src/catalog/sync/snapshot-update.ts";
import { loadSnapshot } from "../../../src/mcp-servers/jgrants/snapshot-data.ts";
import { type FakeJgrantsApi, startFakeJgrantsApi } from "../../fakes/fake-jgrants-api.ts";
import { generateSubsidies } from "../../fakes/generated-subsidies.ts";
import { DETAIL, fakeClock, tempDir, testSettings } from "./helpers.ts";

const NOW = new Date("2026-12-01T00:00:00Z");
let fake: FakeJgrantsApi;
let dir: string;

beforeEach(async () => {
  fake = await startFakeJgrantsApi(generateSubsidies(50, NOW), { now: NOW });
  dir = tempDir();
});
afterEach(async () => {
  await fake.close();
});

function run(out: string, force = false) {
  const clock = fakeClock(NOW);
  return updateSnapshot({
    settings: testSettings(fake, "", {}),
    out,
    readme: join(dir, "README.md"),
    force,
    deps: { now: clock.now, sleep: clock.sleep, retryDelaysMs: [1] },
  });
}

describe("npm run snapshot:update", () => {
  it("writes a loadable snapshot of the live records, politely, and records its provenance", async () => {
    const out = join(dir, "subsidies.json");
    writeFileSync(join(dir, "README.md"), "# Snapshot\n\nHand-written notes.\n");
    const result = await run(out);
    expect(result).toMatchObject({ written: true, records: 45, previous: -1 });
    const snapshot = loadSnapshot(out);
    expect(snapshot.asOf).toBe("2026-12-01");
    expect(snapshot.records).toHaveLength(45);
    expect(readFileSync(out, "utf8")).not.toMatch(/"data":/);
    const readme = readFileSync(join(dir, "README.md"), "utf8");
    expect(readme).toContain("Hand-written notes.");
    expect(readme).toContain("Refreshed on 2026-12-01");
    expect(readme).toContain("45 records");

    // A second run replaces the section instead of adding another.
    await run(out);
    const again = readFileSync(join(dir, "README.md"), "utf8");
    expect(again.match(/## Provenance of the current file/g)).toHaveLength(1);
  });

  it("refuses to write a smaller file without --force", async () => {
    const out = join(dir, "subsidies.json");
    copyFileSync(new URL("../../../src/mcp-servers/jgrants/data/subsidies.json", import.meta.url), out);
    const before = readFileSync(out, "utf8");
    const refused = await run(out);
    expect(refused).toMatchObject({ written: false, records: 45, previous: 579 });
    expect(refused.reason).toContain("45 records < 579");
    expect(readFileSync(out, "utf8")).toBe(before);
    const forced = await run(out, true);
    expect(forced.written).toBe(true);
    expect(loadSnapshot(out).records.length).toBeGreaterThan(0);
  });

  it("refuses to write the result of a broken sync without --force", async () => {
    const out = join(dir, "subsidies.json");
    fake.script(DETAIL, ...Array.from({ length: 12 }, () => ({ status: 503 })));
    const refused = await run(out);
    expect(refused.written).toBe(false);
    expect(refused.reason).toContain("did not complete");
    expect(() => readFileSync(out)).toThrow();
  });
});
