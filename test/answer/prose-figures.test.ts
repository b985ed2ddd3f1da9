/** Reading amounts, rates and dates in their Japanese forms, and telling which ones the data lacks. */
import { describe, expect, it } from "vitest";
import { knownKeys, readFigures, unknownFigures } from "../../src/answer/prose-figures.ts";

const unknown = (prose: string, data: string) =>
  unknownFigures(readFigures(prose), knownKeys(readFigures(data)));

describe("prose figures", () => {
  it("reads compound amounts as yen", () => {
    expect(readFigures("上限1億5,000万円、または300万、50,000円")).toEqual([
      ["yen:150000000"],
      ["yen:3000000"],
      ["yen:50000"],
    ]);
  });

  it("matches a rate in its other forms", () => {
    expect(unknown("補助率は3分の2（66.7%）です", "補助率 2/3 以内")).toEqual([]);
    expect(unknown("補助率は１／２です", "補助率 2/3 以内又は 1/2 以内")).toEqual([]);
    expect(unknown("補助率は3/4です", "補助率 2/3 以内")).toEqual(["rate:3/4"]);
  });

  it("matches dates written differently, and a slash pair as a date", () => {
    const data = "締切 2026/12/17(木) 23:59";
    expect(unknown("締切は2026年12月17日です", data)).toEqual([]);
    expect(unknown("締切は12月17日、つまり12/17です", data)).toEqual([]);
    expect(unknown("締切は12月18日です", data)).toEqual(["date:12-18"]);
  });

  it("ignores counts, people and fiscal years", () => {
    expect(readFigures("上位5件、従業員20名以下、令和8年度、あと18日")).toEqual([]);
  });
});
