/**
 * The count reaches the Slack status line even when the steps come faster than the 1 s throttle: every
 * line after the search carries it, so whichever line is shown last before the answer says it.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createStatusUpdater } from "../../../adapters/slack/progress.ts";
import { progressText } from "../../../src/agent/progress-text.ts";
import type { ProgressEvent } from "../../../src/types.ts";

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

/** The agent's events for a search with five details, as emitted in order. */
const EVENTS: ProgressEvent[] = [
  { type: "searching", keywords: ["IT導入"], filters: { area: "東京都" } },
  { type: "found", count: 12, shown: 5 },
  ...[0, 1, 2, 3, 4, 5].map(
    (done): ProgressEvent => ({ type: "fetching-details", count: 5, done, found: 12 }),
  ),
  { type: "composing", found: 12, shown: 5 },
];

describe("Slack status lines", () => {
  it.each([0, 300, 2000])("say 12件見つかりました before the answer with steps %i ms apart", async (gap) => {
    const sent: string[] = [];
    const updater = createStatusUpdater({
      initial: "🔍 補助金を検索しています…",
      intervalMs: 1000,
      update: async (text) => {
        sent.push(text);
      },
      onError: () => undefined,
    });
    for (const event of EVENTS) {
      const line = progressText(event);
      if (line) updater.push(line);
      await vi.advanceTimersByTimeAsync(gap);
    }
    await vi.advanceTimersByTimeAsync(1000);
    await updater.close();
    expect(sent.at(-1)).toBe("📋 12件見つかりました。✍️ 回答をまとめています…");
    expect(sent.filter((l) => l.includes("詳細を確認しています")).every((l) => l.includes("12件"))).toBe(
      true,
    );
    if (gap >= 1000) expect(sent).toContain("📋 12件見つかりました。詳細を確認しています（3/5）");
  });
});
