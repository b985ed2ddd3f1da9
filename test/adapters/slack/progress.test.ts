/** progress.ts: status edits are throttled, show the newest line, run one at a time, and stop on close. */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createStatusUpdater } from "../../../adapters/slack/progress.ts";

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe("createStatusUpdater", () => {
  it("sends at most one edit per interval, always the newest line", async () => {
    const sent: string[] = [];
    const updater = createStatusUpdater({
      initial: "start",
      intervalMs: 1000,
      update: async (text) => {
        sent.push(text);
      },
      onError: () => undefined,
    });
    updater.push("a");
    updater.push("b");
    await vi.advanceTimersByTimeAsync(999);
    expect(sent).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(sent).toEqual(["b"]);
    updater.push("b");
    updater.push("c");
    updater.push("d");
    await vi.advanceTimersByTimeAsync(1000);
    expect(sent).toEqual(["b", "d"]);
    updater.push("e");
    await updater.close();
    await vi.advanceTimersByTimeAsync(5000);
    expect(sent).toEqual(["b", "d"]);
  });

  it("reports a failed edit and keeps going", async () => {
    const errors: unknown[] = [];
    const sent: string[] = [];
    let fail = true;
    const updater = createStatusUpdater({
      initial: "start",
      intervalMs: 10,
      update: async (text) => {
        if (fail) {
          fail = false;
          throw new Error("ratelimited");
        }
        sent.push(text);
      },
      onError: (error) => errors.push(error),
    });
    updater.push("x");
    await vi.advanceTimersByTimeAsync(10);
    updater.push("y");
    await vi.advanceTimersByTimeAsync(10);
    await updater.close();
    expect(errors).toHaveLength(1);
    expect(sent).toEqual(["y"]);
  });
});
