/**
 * Plain-text helpers for LINE, which shows no markdown: grapheme-safe truncation and a small
 * markdown → plain text conversion (no **, links on their own line, tables as lists).
 */

const segmenter = new Intl.Segmenter("ja", { granularity: "grapheme" });

/** The user-perceived characters of a string (an emoji family or a flag is one). */
export function graphemes(text: string): string[] {
  return Array.from(segmenter.segment(text), (s) => s.segment);
}

/**
 * Cuts text to at most `max` graphemes and `maxUtf16` UTF-16 units (LINE counts the latter), ending
 * with an ellipsis when it was cut. Never splits a surrogate pair or a combined emoji.
 */
export function truncate(text: string, max: number, maxUtf16 = Number.POSITIVE_INFINITY): string {
  if (text.length <= max && text.length <= maxUtf16) return text;
  const kept: string[] = [];
  let units = 0;
  let cut = false;
  // The segmenter iterates lazily: only the kept part of a long text is segmented.
  for (const { segment } of segmenter.segment(text)) {
    if (kept.length + 1 > max || units + segment.length > maxUtf16) {
      cut = true;
      break;
    }
    kept.push(segment);
    units += segment.length;
  }
  if (!cut) return text;
  while (kept.length > 0 && (kept.length + 1 > max || units + 1 > maxUtf16)) units -= kept.pop()?.length ?? 0;
  return `${kept.join("").trimEnd()}…`;
}

/** The first sentence (up to 。) of a text, for one-line summaries. */
export function firstSentence(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  const end = flat.indexOf("。");
  return end >= 0 ? flat.slice(0, end + 1) : flat;
}

const TABLE_ROW = /^\s*\|(.+)\|\s*$/;
const TABLE_SEPARATOR = /^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$/;

function cells(row: string): string[] {
  const match = TABLE_ROW.exec(row);
  return (match?.[1] ?? row).split("|").map((c) => c.trim());
}

/** Turns a markdown table (header, separator, rows) into "・header: value / …" lines. */
function tableToList(lines: string[]): string[] {
  const [head, , ...rows] = lines;
  const headers = cells(head ?? "");
  return rows.map((row) => {
    const values = cells(row);
    const pairs = values.map((v, i) => (headers[i] ? `${headers[i]}: ${v}` : v)).filter((p) => p.trim());
    return `・${pairs.join(" / ")}`;
  });
}

const URL_PATTERN = /[ \t]*(https?:\/\/[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=%]+)[ \t]*/g;

/** Puts every URL on a line of its own, so LINE links it cleanly and no text sticks to it. */
function isolateUrls(text: string): string {
  return text.replace(URL_PATTERN, (match: string, url: string, offset: number, whole: string) => {
    const end = offset + match.length;
    const before = offset > 0 && whole[offset - 1] !== "\n" ? "\n" : "";
    const after = end < whole.length && whole[end] !== "\n" ? "\n" : "";
    return `${before}${url}${after}`;
  });
}

function inline(line: string): string {
  const text = line
    // [text](url) → text, then the url (on its own line, see isolateUrls).
    .replace(/\[([^\]]+)\]\((https?:\/\/[^\s)]+)\)/g, (_m, label: string, url: string) =>
      label.trim() === url ? url : `${label} ${url} `,
    )
    .replace(/\*\*([^*]+)\*\*/g, "$1")
    .replace(/__([^_]+)__/g, "$1")
    .replace(/\*\*/g, "")
    .replace(/`([^`]+)`/g, "$1");
  return isolateUrls(text);
}

/** Converts the agent's markdown-ish text into plain text that reads well in LINE. */
export function markdownToPlain(markdown: string): string {
  const lines = markdown.replace(/\r\n?/g, "\n").split("\n");
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? "";
    if (TABLE_ROW.test(line) && TABLE_SEPARATOR.test(lines[i + 1] ?? "")) {
      const table: string[] = [];
      while (i < lines.length && TABLE_ROW.test(lines[i] ?? "")) table.push(lines[i++] ?? "");
      i--;
      out.push(...tableToList(table));
      continue;
    }
    if (/^\s*```/.test(line)) continue;
    if (/^\s*([-*_])(\s*\1){2,}\s*$/.test(line)) {
      out.push("");
      continue;
    }
    const heading = /^\s*#{1,6}\s+(.*)$/.exec(line);
    if (heading) {
      out.push(
        `【${inline(heading[1] ?? "")
          .replace(/\n+/g, " ")
          .trim()}】`,
      );
      continue;
    }
    const bullet = /^(\s*)[-*+]\s+(.*)$/.exec(line);
    if (bullet) {
      out.push(`${bullet[1] ?? ""}・${inline(bullet[2] ?? "")}`);
      continue;
    }
    out.push(inline(line.replace(/^\s*>\s?/, "")));
  }
  return out
    .join("\n")
    .split("\n")
    .map((l) => l.replace(/[ \t]+$/, ""))
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}
