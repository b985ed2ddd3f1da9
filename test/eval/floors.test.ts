/**
 * Quality floors on the relevance set (test/eval/relevance-set.json): a change that makes retrieval worse
 * fails CI. These are quality figures, not times. `npm run eval` prints them with every miss.
 */
import { describe, expect, it } from "vitest";
import { evaluate } from "./evaluate.ts";

describe("relevance floors (offline agent, clock pinned to the set's date)", () => {
  it("finds the right subsidies, shows few unrelated ones, and is honest when nothing fits", async () => {
    const f = await evaluate();
    expect(f.questions).toBeGreaterThanOrEqual(60);
    expect(f.noMatch / f.questions).toBeGreaterThanOrEqual(0.1);
    expect(f.hitAt5).toBeGreaterThanOrEqual(0.93);
    expect(f.precisionAt5).toBeGreaterThanOrEqual(0.6);
    expect(f.ndcgAt10).toBeGreaterThanOrEqual(0.75);
    expect(f.recallAt20).toBeGreaterThanOrEqual(0.9);
    expect(f.honesty).toBeGreaterThanOrEqual(0.85);
    expect(f.proceduralOrDuplicateInTop5).toBe(0);
  }, 120_000);
});
