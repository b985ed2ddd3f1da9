/** The page's pure browser modules (SSE parser, markdown, text formats), imported straight into Node. */
import { describe, expect, it } from "vitest";

type SseEvent = { event: string; data: string };
interface SseModule {
  createSseParser(onEvent: (e: SseEvent) => void): { push(text: string): void; end(): void };
}
interface MarkdownModule {
  parseMarkdown(source: string): unknown[];
  safeHref(raw: string): string | null;
}
interface FormatModule {
  progressText(event: unknown): string | null;
  argsText(args: unknown, max?: number): string;
  durationText(ms: unknown): string;
  daysLeftText(daysLeft: unknown): string;
  doneText(reply: unknown): string;
  proseOf(answer: string, subsidies: unknown[], notes: string[]): string;
}

const load = async <T>(name: string) =>
  (await import(new URL(`../../../adapters/web/public/${name}`, import.meta.url).href)) as T;
const sse = await load<SseModule>("sse.js");
const md = await load<MarkdownModule>("markdown.js");
const fmt = await load<FormatModule>("format.js");

function parseAll(chunks: string[]): SseEvent[] {
  const events: SseEvent[] = [];
  const parser = sse.createSseParser((e) => events.push(e));
  for (const chunk of chunks) parser.push(chunk);
  parser.end();
  return events;
}

describe("SSE parser", () => {
  const stream =
    ': hi\n\nevent: progress\ndata: {"type":"composing"}\n\nevent: reply\ndata: {"a":1}\ndata: {"b":2}\n\n';

  it("parses events, multi-line data and comments", () => {
    expect(parseAll([stream])).toEqual([
      { event: "progress", data: '{"type":"composing"}' },
      { event: "reply", data: '{"a":1}\n{"b":2}' },
    ]);
  });

  it("gives the same events however the stream is split, with CRLF or LF", () => {
    const expected = parseAll([stream]);
    const crlf = stream.replaceAll("\n", "\r\n");
    for (const text of [stream, crlf]) {
      for (let cut = 1; cut < text.length; cut += 3) {
        expect(parseAll([text.slice(0, cut), text.slice(cut)])).toEqual(expected);
      }
      expect(parseAll([...text])).toEqual(expected);
    }
  });

  it("delivers a last event without its blank line and defaults the name to message", () => {
    expect(parseAll(["data: x"])).toEqual([{ event: "message", data: "x" }]);
  });
});

describe("markdown", () => {
  it("parses bold, links, lists and headings into a tree of text", () => {
    expect(
      md.parseMarkdown("## 結果\n**1. 補助金** [詳細](https://example.jp/a)\n\n- 上限額: 100万円\n1. 一つ目"),
    ).toEqual([
      { type: "h", level: 2, children: [{ type: "text", text: "結果" }] },
      {
        type: "p",
        lines: [
          [
            { type: "strong", children: [{ type: "text", text: "1. 補助金" }] },
            { type: "text", text: " " },
            { type: "link", href: "https://example.jp/a", children: [{ type: "text", text: "詳細" }] },
          ],
        ],
      },
      { type: "ul", items: [[{ type: "text", text: "上限額: 100万円" }]] },
      { type: "ol", items: [[{ type: "text", text: "一つ目" }]] },
    ]);
  });

  it("keeps HTML as text and drops non-http link targets", () => {
    expect(md.parseMarkdown("<img src=x onerror=alert(1)> [x](javascript:alert(1))")).toEqual([
      {
        type: "p",
        lines: [
          [
            { type: "text", text: "<img src=x onerror=alert(1)> " },
            { type: "text", text: "x" },
          ],
        ],
      },
    ]);
    expect(md.safeHref("javascript:alert(1)")).toBeNull();
    expect(md.safeHref("//evil.example/")).toBeNull();
    expect(md.safeHref("https://www.jgrants-portal.go.jp/subsidy/a0W")).toBe(
      "https://www.jgrants-portal.go.jp/subsidy/a0W",
    );
  });

  it("links bare URLs up to Japanese punctuation", () => {
    const [block] = md.parseMarkdown("詳細はhttps://example.jp/a。") as Array<{ lines: unknown[][] }>;
    expect(block?.lines[0]?.[1]).toEqual({
      type: "link",
      href: "https://example.jp/a",
      children: [{ type: "text", text: "https://example.jp/a" }],
    });
  });
});

describe("text formats", () => {
  it("writes progress lines in Japanese", () => {
    expect(fmt.progressText({ type: "searching", keywords: ["IT導入"], filters: { area: "東京都" } })).toBe(
      "🔍「IT導入」で検索中（東京都）…",
    );
    expect(
      fmt.progressText({ type: "searching", keywords: ["省エネ", "設備"], filters: { acceptance: "1" } }),
    ).toBe("🔍「省エネ・設備」で検索中（受付中のみ）…");
    expect(fmt.progressText({ type: "found", count: 12, shown: 12 })).toBe("📋 12件見つかりました…");
    expect(fmt.progressText({ type: "found", count: 0, shown: 0 })).toBe(
      "📭 該当する補助金が見つかりませんでした…",
    );
    expect(fmt.progressText({ type: "retrying", why: "zero-hits", keywords: ["DX"] })).toBe(
      "🔁 「DX」で探し直しています…",
    );
    expect(fmt.progressText({ type: "composing", text: "✍️ 回答をまとめています…" })).toBe(
      "✍️ 回答をまとめています…",
    );
    expect(fmt.progressText({ type: "fetching-details", count: 3 })).toBe("📄 3件の詳細を取得中…");
    expect(fmt.progressText({ type: "answer-delta", text: "x" })).toBeNull();
    expect(fmt.progressText({ type: "done" })).toBeNull();
    expect(fmt.progressText(null)).toBeNull();
  });

  it("keeps only the prose of an answer whose facts are shown as cards and notes in the footer", () => {
    const subsidies = [{ url: "https://www.jgrants-portal.go.jp/subsidy/a0W1" }];
    const notes = [
      "2026-08-22時点のデータ（オフラインの収録データ）です。最新の情報はJグランツでご確認ください。",
    ];
    const answer = [
      "「DX」で3件見つかりました。",
      "**1. DX補助金**\n- 上限額: 100万円\n- [Jグランツで見る](https://www.jgrants-portal.go.jp/subsidy/a0W1)",
      "他に2件あります。",
      `※ ${notes[0]}`,
      "出典: Jグランツ（デジタル庁）。",
    ].join("\n\n");
    expect(fmt.proseOf(answer, subsidies, notes)).toBe("「DX」で3件見つかりました。\n\n他に2件あります。");
    expect(fmt.proseOf(answer, [], notes)).toBe(answer);
  });

  it("formats args, durations, days left and the data date", () => {
    expect(fmt.argsText({ keyword: "IT導入", limit: 5 })).toBe('keyword: "IT導入", limit: 5');
    expect(fmt.argsText({ q: "x".repeat(300) }, 20)).toHaveLength(20);
    expect(fmt.durationText(245)).toBe("245 ms");
    expect(fmt.durationText(1830)).toBe("1.8 s");
    expect(fmt.daysLeftText(0)).toBe("本日締切");
    expect(fmt.daysLeftText(18)).toBe("あと18日");
    expect(fmt.daysLeftText(null)).toBe("");
  });

  it("collapses the progress into one line that says what is shown", () => {
    const meta = { durationMs: 420 };
    const three = [{}, {}, {}];
    expect(fmt.doneText({ kind: "answer", subsidies: three, totalCount: 12, _meta: meta })).toBe(
      "✓ 12件から3件を表示（0.4秒）",
    );
    expect(fmt.doneText({ kind: "answer", subsidies: [{}], totalCount: 1, _meta: meta })).toBe(
      "✓ 1件を表示（0.4秒）",
    );
    expect(fmt.doneText({ kind: "answer", view: "details", subsidies: [{}], _meta: meta })).toBe(
      "✓ 詳細を表示（0.4秒）",
    );
    expect(fmt.doneText({ kind: "answer", subsidies: [], totalCount: 0, _meta: meta })).toBe(
      "✓ 該当なし（0.4秒）",
    );
    expect(
      fmt.doneText({ kind: "answer", subsidies: three, totalCount: 3, _meta: { ...meta, match: "weak" } }),
    ).toBe("✓ 近い補助金を3件表示（0.4秒）");
  });
});

interface CardTextModule {
  statusText(subsidy: unknown, dated: boolean): string;
  areaText(subsidy: unknown): string;
  matchText(subsidy: unknown): string;
  detailRows(subsidy: unknown): Array<{ key: string; label: string; value: string }>;
  notesBesideCards(reply: unknown): string[];
}
const card = await load<CardTextModule>("card-text.js");

describe("card texts (the same wording as src/subsidies/present.ts)", () => {
  const snapshot = { mode: "snapshot", asOf: "2026-08-22" };
  it("puts the snapshot's date beside the status only when asked, never for live data", () => {
    expect(card.statusText({ status: "受付中", source: snapshot }, true)).toBe("2026-08-22時点: 受付中");
    expect(card.statusText({ status: "受付中", source: snapshot }, false)).toBe("受付中");
    expect(card.statusText({ status: "受付中", source: { mode: "live" } }, true)).toBe("受付中");
  });

  it("shows a city programme's city, matched words and grouped rounds", () => {
    expect(card.areaText({ area: "福岡県", city: "宗像市" })).toBe("福岡県宗像市");
    expect(card.areaText({ area: "全国 / 北海道" })).toBe("全国");
    expect(
      card.matchText({ matchedTerms: ["電子カルテ"], otherRounds: [{ id: "x", label: "第19次" }] }),
    ).toBe("「電子カルテ」に一致・ほか第19次");
  });

  it("lists the details rows that have data, and drops the note that repeats the data date", () => {
    const rows = card.detailRows({ start: { jst: "2026/10/01(木) 09:00" }, multipleApplications: false });
    expect(rows.map((r) => [r.label, r.value])).toEqual([
      ["受付開始", "2026/10/01(木) 09:00"],
      ["複数回申請", "不可（1事業者1回）"],
    ]);
    const notes = ["2026-08-22時点のデータ（オフラインの収録データ）です。", "履歴に保存できませんでした。"];
    expect(card.notesBesideCards({ notes, subsidies: [{ source: snapshot }] })).toEqual([notes[1]]);
    expect(card.notesBesideCards({ notes, subsidies: [] })).toEqual(notes);
  });
});
