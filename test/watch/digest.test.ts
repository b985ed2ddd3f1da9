/**
 * Digest content against a catalog that changes between runs (the real MCP server with some hits hidden,
 * then revealed): new ones (at most 5, then 「ほかN件」), closing soon within the reminder window, nothing.
 */
import { afterAll, describe, expect, it } from "vitest";
import { buildDigest } from "../../src/watch/digest.ts";
import type { Watch } from "../../src/watch/types.ts";
import { changingCatalog, ENERGY, NOW } from "./changing-catalog.ts";

const catalog = changingCatalog();
afterAll(() => catalog.host.close());

function watchOf(seen: string[], overrides: Partial<Watch> = {}): Watch {
  return {
    id: "w1",
    conditions: ENERGY,
    schedule: { kind: "daily" },
    remindDays: null,
    nothingNewLine: false,
    createdAt: NOW.toISOString(),
    seen,
    reminded: [],
    nextRunAt: NOW.toISOString(),
    ...overrides,
  };
}

describe("a watch's digest", () => {
  it("shows what is new since the last digest, at most 5 with 「ほかN件」, rendered like the list, once", async () => {
    const all = await catalog.idsFor(ENERGY);
    expect(all.length).toBeGreaterThanOrEqual(7);
    const later = all.slice(-6);
    const baseline = all.slice(0, all.length - 6);
    // The catalog first lacks six of them: those there when the watch was saved are the baseline.
    for (const id of later) catalog.hidden.add(id);
    const first = await buildDigest(catalog.host, watchOf(baseline), 2, NOW);
    expect(first.text).toBeNull();
    // Six appear (a live sync found them).
    catalog.hidden.clear();
    const grown = await buildDigest(catalog.host, first.watch, 2, NOW);
    expect(grown.newIds).toEqual(later.slice(0, 5));
    expect(grown.moreCount).toBe(1);
    expect(grown.text).toContain("🔔 ウォッチ2:");
    expect(grown.text).toContain("新しく条件に合う補助金が6件あります。");
    expect(grown.text).toContain("ほか1件");
    expect(grown.text).toContain("- 上限額:");
    expect(grown.text).toContain("- [Jグランツで見る](https://");
    expect(grown.text).toContain("出典: Jグランツ");
    expect(grown.text).toContain("「ウォッチ2を止めて」");
    // The next run has nothing left to tell: all six were reported (five shown, one counted).
    const again = await buildDigest(catalog.host, grown.watch, 2, NOW);
    expect(again.text).toBeNull();
  });

  it("reminds of subsidies closing within the window, once each", async () => {
    const all = await catalog.idsFor(ENERGY);
    const closing = await buildDigest(catalog.host, watchOf(all, { remindDays: 30 }), 1, NOW);
    expect(closing.newIds).toEqual([]);
    expect(closing.closingIds.length).toBeGreaterThan(0);
    expect(closing.text).toContain("締切まで30日以内のものがあります。");
    expect(closing.text).toMatch(/あと(?:[0-9]|[12][0-9]|30)日/);
    const wider = await buildDigest(catalog.host, closing.watch, 1, NOW);
    expect(wider.text).toBeNull();
  });

  it("posts nothing when nothing is new, unless a 'nothing new' line was asked for", async () => {
    const all = await catalog.idsFor(ENERGY);
    expect((await buildDigest(catalog.host, watchOf(all), 1, NOW)).text).toBeNull();
    const quiet = await buildDigest(catalog.host, watchOf(all, { nothingNewLine: true }), 1, NOW);
    expect(quiet.text).toContain("今回、新しく条件に合う補助金はありませんでした。");
  });

  it("runs the same find_subsidies call the planner makes for the conditions", async () => {
    const before = catalog.calls.length;
    await buildDigest(catalog.host, watchOf([]), 1, NOW);
    expect(catalog.calls.slice(before)).toEqual([
      expect.objectContaining({
        server: "jgrants",
        tool: "find_subsidies",
        args: { query: "省エネでCO2を減らしたい", limit: 50 },
      }),
    ]);
  });
});
