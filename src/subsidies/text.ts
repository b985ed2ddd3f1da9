/**
 * Plain text from jGrants' HTML descriptions, and the short summary every renderer shows.
 * The one runtime import site of html-to-text.
 */
import { compile } from "html-to-text";

// Compiled once: converting is then cheap enough for the offline answer path.
const convertHtml = compile({
  wordwrap: false,
  selectors: [
    { selector: "a", options: { ignoreHref: true } },
    { selector: "img", format: "skip" },
    { selector: "ul", options: { itemPrefix: "・" } },
    { selector: "script", format: "skip" },
    { selector: "style", format: "skip" },
    { selector: "h1", options: { uppercase: false } },
    { selector: "h2", options: { uppercase: false } },
    { selector: "h3", options: { uppercase: false } },
    { selector: "h4", options: { uppercase: false } },
    { selector: "h5", options: { uppercase: false } },
    { selector: "h6", options: { uppercase: false } },
  ],
  limits: { maxInputLength: 200_000 },
});

/** Collapses runs of whitespace (incl. full-width spaces and newlines) into one space. */
export function collapseWhitespace(text: string): string {
  return text.replace(/[\s\u3000]+/g, " ").trim();
}

/** Japanese letters and full-width punctuation: a space between two of them is an artefact, not a word break. */
const CJK =
  "\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}ー々〆、。，．・：；？！「」『』（）【】〈〉《》〔〕\\u3000-\\u303F\\uFF01-\\uFF0F\\uFF1A-\\uFF20";
const SPACE_IN_CJK = new RegExp(`(?<=[${CJK}])[ \\t\\u00A0]+(?=[${CJK}])`, "gu");

const CJK_CHAR = new RegExp(`[${CJK}]`, "u");
/** Where a sentence, a heading or a list item ends or starts: a break there is a real break. */
const ENDS = /[。．！？!?」』）)】:：]$/;
const STARTS = /^[■□●○◎◆◇▼▲・※＊*【（(「『①-⑳0-9０-９-]/;

/**
 * Joins lines that cut a sentence or a word (「全</p><p>国」「解決</p><p>の切り札」): two Japanese characters
 * around the break, the first not ending a sentence, the second not starting an item, and the first line
 * not a heading (■目的・概要).
 */
function joinCutLines(text: string): string {
  const lines = text.split(/[ \t]*\n[ \t\n]*/);
  const out: string[] = [];
  for (const line of lines) {
    const prev = out[out.length - 1];
    const last = prev?.slice(-1) ?? "";
    const cut =
      prev !== undefined &&
      CJK_CHAR.test(last) &&
      CJK_CHAR.test(line.charAt(0)) &&
      !ENDS.test(prev) &&
      !STARTS.test(line) &&
      !STARTS.test(prev);
    if (cut) out[out.length - 1] = `${prev}${line}`;
    else out.push(line);
  }
  return out.join("\n");
}

/**
 * Removes spaces between Japanese characters (「全 国」→「全国」) and line breaks that cut a sentence
 * (「地域の</p><p>魅力」→「地域の魅力」), keeping spaces between Latin words and breaks after a heading
 * or a sentence (read as one space once collapsed).
 */
export function tightenCjk(text: string): string {
  return joinCutLines(text.replace(SPACE_IN_CJK, ""));
}

/** Plain text of an HTML fragment: no tags, no link URLs, whitespace collapsed. Plain text passes through. */
export function htmlToText(html: string): string {
  if (typeof html !== "string" || html === "") return "";
  if (!/[<&]/.test(html)) return collapseWhitespace(tightenCjk(html));
  try {
    return collapseWhitespace(tightenCjk(convertHtml(html)));
  } catch {
    return collapseWhitespace(tightenCjk(html.replace(/<[^>]*>/g, " ")));
  }
}

/** Cuts text to at most max characters (by code point), ending in "…" when cut. */
export function clip(text: string, max: number): string {
  // No more UTF-16 units than allowed code points: it fits, without splitting a long text into characters.
  if (text.length <= max) return text;
  let count = 0;
  let end = 0;
  for (const char of text) {
    if (count === max) return `${text.slice(0, end).trimEnd()}…`;
    // The kept part: the first max - 1 code points.
    if (count < max - 1) end += char.length;
    count += 1;
  }
  return text;
}

/**
 * A plain-text summary of at most `max` characters: the catch phrase, then as much of the description
 * as fits. The description may be HTML or plain text.
 */
export function summaryOf(
  catchPhrase: string | null | undefined,
  description: string | null | undefined,
  max = 200,
): string {
  const head = typeof catchPhrase === "string" ? tightenCjk(collapseWhitespace(catchPhrase)) : "";
  const body = typeof description === "string" ? htmlToText(description) : "";
  if (head && body && !body.startsWith(head)) return clip(`${head} ${body}`, max);
  return clip(head || body, max);
}
