import { describe, expect, it } from "vitest";
import {
  clip,
  daysLeft,
  formatAmount,
  htmlToText,
  portalUrl,
  statusOf,
  summaryOf,
  toJstDisplay,
} from "../../src/subsidies/index.ts";

describe("formatAmount", () => {
  it.each([
    [15_000_000, "1,500万円"],
    [10_000_000, "1,000万円"],
    [120_000_000, "1億2,000万円"],
    [100_000_000, "1億円"],
    [660_000_000, "6億6,000万円"],
    [1_234_567, "123万4,567円"],
    [5_000, "5,000円"],
    [1_500_000_000_000, "15,000億円"],
    [0, "公募要領を確認"],
    [null, "公募要領を確認"],
    [undefined, "公募要領を確認"],
    [Number.NaN, "公募要領を確認"],
    [-1, "公募要領を確認"],
  ])("%s → %s", (yen, text) => {
    expect(formatAmount(yen)).toBe(text);
  });
});

describe("toJstDisplay", () => {
  it.each([
    ["2026-12-17T14:59:00.000Z", "2026/12/17(木) 23:59"],
    ["2026-12-17T14:59Z", "2026/12/17(木) 23:59"],
    ["2026-07-24T08:30Z", "2026/07/24(金) 17:30"],
    ["2026-07-24T08:30:00.000Z", "2026/07/24(金) 17:30"],
    ["2026-07-24T08:30:00Z", "2026/07/24(金) 17:30"],
    // Crosses midnight into the next JST day.
    ["2026-06-30T15:00:00.000Z", "2026/07/01(水) 00:00"],
    ["2026-07-24T17:30:00+09:00", "2026/07/24(金) 17:30"],
  ])("%s → %s", (iso, jst) => {
    expect(toJstDisplay(iso)).toEqual({ iso, jst });
  });

  it.each([null, undefined, "", "not a date", "2026-13-45T99:99Z"])("%s → null", (bad) => {
    expect(toJstDisplay(bad)).toBeNull();
  });
});

describe("statusOf", () => {
  const start = "2026-06-19T06:00:00.000Z";
  const end = "2026-07-24T08:30Z";
  it.each([
    ["2026-06-19T05:59:59Z", "受付前"],
    ["2026-06-19T06:00:00Z", "受付中"],
    ["2026-07-24T08:30:00Z", "受付中"],
    ["2026-07-24T08:30:01Z", "受付終了"],
  ])("at %s → %s", (now, status) => {
    expect(statusOf(start, end, new Date(now))).toBe(status);
  });

  it("works from one date, and is 不明 with none", () => {
    expect(statusOf(null, end, new Date("2026-07-01T00:00Z"))).toBe("受付中");
    expect(statusOf(start, null, new Date("2026-07-01T00:00Z"))).toBe("受付中");
    expect(statusOf(null, null, new Date("2026-07-01T00:00Z"))).toBe("不明");
  });

  it("accepts DisplayDate values", () => {
    const e = toJstDisplay(end);
    expect(statusOf(null, e, new Date("2026-08-01T00:00Z"))).toBe("受付終了");
  });
});

describe("daysLeft (calendar days in JST)", () => {
  const end = "2026-12-17T14:59:00.000Z"; // 2026/12/17 23:59 JST
  it.each([
    ["2026-11-29T03:00:00Z", 18],
    ["2026-12-16T14:59:00Z", 1], // 12/16 23:59 JST
    ["2026-12-16T15:00:00Z", 0], // 12/17 00:00 JST: same JST day
    ["2026-12-17T14:58:00Z", 0],
    ["2026-12-17T14:59:01Z", null], // passed
  ])("at %s → %s", (now, days) => {
    expect(daysLeft(end, new Date(now))).toBe(days);
  });

  it("is null when unknown", () => {
    expect(daysLeft(null, new Date())).toBeNull();
    expect(daysLeft("garbage", new Date())).toBeNull();
  });
});

describe("htmlToText and summaryOf", () => {
  it("drops tags, styles and link URLs and collapses whitespace", () => {
    const html =
      '<p><strong style="color: rgb(0, 111, 173);">■目的</strong></p>\n<p>中小企業の&nbsp;<a href="https://example.jp/very/long/url">公募要領</a>を確認</p><img src="x.png"><ul><li>一　二</li></ul>';
    const text = htmlToText(html);
    expect(text).toBe("■目的 中小企業の公募要領を確認 ・一 二");
    expect(text).not.toMatch(/https?:|<|style|x\.png/);
  });

  it("passes plain text through, collapsed", () => {
    // A break that cuts a phrase between Japanese characters is an artefact; Latin words keep their space.
    expect(htmlToText("  補助金\n\n の概要  ")).toBe("補助金の概要");
    expect(htmlToText("IT tools\n for SMEs")).toBe("IT tools for SMEs");
    expect(htmlToText("")).toBe("");
  });

  it("summarises catch phrase and description within 200 characters", () => {
    const long = `<p>${"あ".repeat(500)}</p>`;
    const s = summaryOf("事業承継・M&A補助金", long);
    expect(s.startsWith("事業承継・M&A補助金 あ")).toBe(true);
    expect(Array.from(s).length).toBeLessThanOrEqual(200);
    expect(s.endsWith("…")).toBe(true);
    expect(summaryOf(null, null)).toBe("");
    expect(summaryOf("短い", null)).toBe("短い");
  });

  it("clips by code point, never splitting a surrogate pair, and ends a cut text with …", () => {
    expect(clip("補助金", 3)).toBe("補助金");
    expect(clip("😀😀😀", 3)).toBe("😀😀😀");
    expect(clip("😀😀😀😀", 3)).toBe("😀😀…");
    expect(clip("ab cd", 4)).toBe("ab…");
    expect(clip("abc", 0)).toBe("…");
    expect(clip("", 0)).toBe("");
    const long = `${"😀".repeat(300)}`;
    expect(Array.from(clip(long, 200))).toHaveLength(200);
  });

  it("builds the portal URL", () => {
    expect(portalUrl("a0WJ200000CDapgMAD")).toBe(
      "https://www.jgrants-portal.go.jp/subsidy/a0WJ200000CDapgMAD",
    );
  });
});
