import { describe, expect, it } from "vitest";
import { Bm25Index } from "../../src/catalog/bm25-index.ts";
import { bigrams, tokenizerOf } from "../../src/catalog/text.ts";

const docs = [
  { id: "title", fields: ["省エネ設備の導入補助", "", "", ""] },
  { id: "detail", fields: ["設備投資の支援", "", "", "省エネ型の空調に更新する費用"] },
  { id: "other", fields: ["人材確保の助成金", "採用を支援", "", "wi-fi 5g の整備"] },
  { id: "rare", fields: ["𠮷野町の創業支援", "", "", ""] },
];

function index() {
  const i = new Bm25Index(tokenizerOf("bigram"), [3, 2, 1.5, 1]);
  i.addAll(docs);
  return i;
}

const ids = (i: Bm25Index, r: { docs: Int32Array; scores: Float64Array }) =>
  [...r.docs].map((d, k) => [i.idOf(d), r.scores[k]!] as const).sort((a, b) => b[1] - a[1]);

describe("BM25 index", () => {
  it("finds documents holding every token, the word in a title above the word in the detail", () => {
    const i = index();
    const found = ids(i, i.search(bigrams("省エネ")));
    expect(found.map(([id]) => id)).toEqual(["title", "detail"]);
    expect(found[0]![1]).toBeGreaterThan(found[1]![1]);
    expect(i.documentFrequency(bigrams("省エネ"))).toBe(2);
  });

  it("is AND over tokens: one missing token, or an unknown one, finds nothing", () => {
    const i = index();
    expect(i.search(bigrams("省エネ人材")).docs.length).toBe(0);
    expect(i.search(["未知"]).docs.length).toBe(0);
    expect(i.search([]).docs.length).toBe(0);
  });

  it("keeps only the documents the allowed mask marks", () => {
    const i = index();
    const allowed = Uint8Array.from(docs, (d) => (d.id === "detail" ? 1 : 0));
    expect(ids(i, i.search(bigrams("省エネ"), allowed)).map(([id]) => id)).toEqual(["detail"]);
  });

  it("indexes Latin words and characters beyond the BMP as terms of their own", () => {
    const i = index();
    const tokenize = tokenizerOf("bigram");
    expect(ids(i, i.search(tokenize("Wi-Fi"))).map(([id]) => id)).toEqual(["other"]);
    expect(ids(i, i.search(tokenize("5G"))).map(([id]) => id)).toEqual(["other"]);
    expect(bigrams("𠮷野")).toEqual(["𠮷野"]);
    expect(ids(i, i.search(bigrams("𠮷野町"))).map(([id]) => id)).toEqual(["rare"]);
  });

  it("scores a term the same however the documents were fed, and a rebuild replaces the old content", () => {
    const a = index();
    const b = new Bm25Index(tokenizerOf("bigram"), [3, 2, 1.5, 1]);
    // Thousands of distinct terms first, so the build's term tables grow past their first size.
    const many = String.fromCharCode(...Array.from({ length: 3000 }, (_, k) => 0x4e00 + k));
    b.addAll([{ id: "gone", fields: ["省エネ", "", "", many] }]);
    expect(b.search(bigrams(many.slice(2000, 2010))).docs.length).toBe(1);
    b.addAll(docs);
    expect(ids(b, b.search(bigrams("省エネ")))).toEqual(ids(a, a.search(bigrams("省エネ"))));
    expect(b.documentCount).toBe(docs.length);
  });
});
