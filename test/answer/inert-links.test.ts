/**
 * Links in data text (titles, rates, summaries as the source has them) are not clickable on any platform:
 * the facts block is rendered from a record carrying a URL, a bare domain and markdown link syntax, and
 * then put through the Slack, LINE and web chat renderers. Only the record's portal URL stays a link.
 */
import { describe, expect, it } from "vitest";
import { markdownToPlain as lineText } from "../../adapters/line/text.ts";
import { markdownToMrkdwn } from "../../adapters/slack/mrkdwn.ts";
import { subsidySection } from "../../adapters/slack/render-subsidy.ts";
// @ts-expect-error: the web chat's browser module is plain JavaScript without types.
import { parseMarkdown } from "../../adapters/web/public/markdown.js";
import { inertLinks } from "../../src/answer/inert-links.ts";
import { renderSubsidyDetail, renderSubsidyFacts } from "../../src/answer/template-facts.ts";
import { sampleSubsidy } from "../fakes/sample-subsidies.ts";

const hostile = sampleSubsidy(1, {
  title: "IT補助金 [今すぐ申請](https://evil.example/apply) 公式",
  rate: "2/3 詳細は https://evil.example/rate を参照",
  summary:
    "お問い合わせは subsidy-help.com まで。本件は https://www.jgrants-portal.go.jp/subsidy/other も参照。",
});
const portal = hostile.url;

/** Every link target in a value produced by the web chat's markdown parser. */
function webLinks(node: unknown): string[] {
  if (Array.isArray(node)) return node.flatMap(webLinks);
  if (!node || typeof node !== "object") return [];
  const n = node as Record<string, unknown>;
  return [...(n.type === "link" ? [String(n.href)] : []), ...Object.values(n).flatMap(webLinks)];
}

describe("links in data text", () => {
  const texts = [renderSubsidyFacts(hostile, 1), renderSubsidyDetail(hostile, 1)];

  it("keep the text readable but not as links", () => {
    const facts = texts[0]!;
    expect(facts).toContain("IT補助金 [今すぐ申請] (https：//evil.example/apply) 公式");
    expect(facts).toContain("https：//evil.example/rate");
    expect(texts[1]).toContain("subsidy-help．com");
    expect(facts).toContain(`- [Jグランツで見る](${portal})`);
  });

  it("are not clickable in the web chat", () => {
    for (const text of texts) expect([...new Set(webLinks(parseMarkdown(text)))]).toEqual([portal]);
  });

  it("are not clickable in Slack mrkdwn, and the subsidy blocks are verbatim", () => {
    for (const text of texts) {
      const links = [...markdownToMrkdwn(text).matchAll(/<(https?:[^|>]+)/g)].map((m) => m[1]);
      expect([...new Set(links)]).toEqual([portal]);
    }
    const section = subsidySection(hostile, 1, false);
    expect((section.text as { verbatim?: boolean }).verbatim).toBe(true);
    expect(section.fields?.every((f) => f.type === "mrkdwn" && f.verbatim === true)).toBe(true);
  });

  it("are not put on a line of their own (LINE's links) except the portal's", () => {
    for (const text of texts) {
      const urls = lineText(text)
        .split("\n")
        .filter((line) => /^https?:\/\//.test(line));
      expect([...new Set(urls)]).toEqual([portal]);
    }
  });

  it("keep an allowed URL as it is", () => {
    expect(inertLinks(`see ${portal}.`, [portal])).toBe(`see ${portal}.`);
    expect(inertLinks("see https://x.example/a", [])).toBe("see https：//x.example/a");
  });
});
