/**
 * Markdown-ish LLM text → Slack mrkdwn (pure). Slack has no tables or headings, and treats `&`, `<`, `>`
 * as control characters, so everything from data or users is escaped before any markup is added.
 */

/** Escapes the three characters Slack reserves (in data, user text and link labels). */
export function escapeMrkdwn(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** A link `<url|label>` for http(s) URLs only; anything else is shown as plain, escaped text. */
export function mrkdwnLink(url: string, label: string): string {
  const safeLabel = escapeMrkdwn(label.replace(/\|/g, "｜").replace(/\s+/g, " ").trim());
  if (!/^https?:\/\/[^\s|<>]+$/i.test(url)) return safeLabel;
  return `<${escapeMrkdwn(url)}|${safeLabel || escapeMrkdwn(url)}>`;
}

const BOLD = "\u0001";

/** Inline markup of one line: links, bold, italics, strikethrough; the rest escaped. */
function inline(line: string): string {
  const parts: string[] = [];
  // Links first, on the raw text, so URLs are not mangled by the emphasis rules.
  const linkPattern = /\[([^\]]+)\]\((https?:\/\/[^)\s]+)\)/g;
  let last = 0;
  for (const match of line.matchAll(linkPattern)) {
    parts.push(emphasis(escapeMrkdwn(line.slice(last, match.index))));
    parts.push(mrkdwnLink(match[2] ?? "", match[1] ?? ""));
    last = (match.index ?? 0) + match[0].length;
  }
  parts.push(emphasis(escapeMrkdwn(line.slice(last))));
  return parts.join("");
}

function emphasis(text: string): string {
  return text
    .replace(/\*\*(.+?)\*\*/g, `${BOLD}$1${BOLD}`)
    .replace(/__(.+?)__/g, `${BOLD}$1${BOLD}`)
    .replace(/(^|[^*\w])\*([^*\s][^*]*?)\*(?!\w)/g, "$1_$2_")
    .replace(/~~(.+?)~~/g, "~$1~")
    .replaceAll(BOLD, "*");
}

const cells = (row: string): string[] =>
  row
    .trim()
    .replace(/^\|/, "")
    .replace(/\|$/, "")
    .split("|")
    .map((c) => c.trim());

const isTableSeparator = (row: string): boolean =>
  /^\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?$/.test(row.trim());

/** A markdown table as a bulleted list: "• *first cell* — header: value、header: value". */
function tableToList(rows: string[]): string[] {
  const body = rows.filter((r) => !isTableSeparator(r));
  const header = cells(body[0] ?? "");
  const hasHeader = rows.length > 1 && isTableSeparator(rows[1] ?? "");
  const dataRows = hasHeader ? body.slice(1) : body;
  return dataRows.map((row) => {
    const values = cells(row);
    const [first, ...rest] = values;
    const details = rest
      .map((v, i) =>
        hasHeader && header[i + 1] ? `${inline(header[i + 1] ?? "")}: ${inline(v)}` : inline(v),
      )
      .filter((s) => s.trim() !== "");
    return `• *${inline(first ?? "")}*${details.length > 0 ? ` — ${details.join("、")}` : ""}`;
  });
}

/** Converts markdown-ish text (bold, links, headings, lists, tables, code) to Slack mrkdwn. */
export function markdownToMrkdwn(markdown: string): string {
  const lines = markdown.replace(/\r\n?/g, "\n").split("\n");
  const out: string[] = [];
  let inCode = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? "";
    if (/^\s*```/.test(line)) {
      inCode = !inCode;
      out.push("```");
      continue;
    }
    if (inCode) {
      out.push(escapeMrkdwn(line));
      continue;
    }
    if (/^\s*\|.*\|\s*$/.test(line)) {
      const rows: string[] = [];
      while (i < lines.length && /^\s*\|.*\|\s*$/.test(lines[i] ?? "")) rows.push(lines[i++] ?? "");
      i--;
      out.push(...tableToList(rows));
      continue;
    }
    const heading = /^\s{0,3}#{1,6}\s+(.+?)\s*#*\s*$/.exec(line);
    if (heading) {
      out.push(`*${inline(heading[1] ?? "").replace(/\*/g, "")}*`);
      continue;
    }
    if (/^\s*([-*_])(\s*\1){2,}\s*$/.test(line)) {
      out.push("──────────");
      continue;
    }
    const quote = /^\s*>\s?(.*)$/.exec(line);
    if (quote) {
      out.push(`> ${inline(quote[1] ?? "")}`);
      continue;
    }
    const bullet = /^(\s*)[-*+]\s+(.*)$/.exec(line);
    if (bullet) {
      out.push(`${bullet[1] ?? ""}• ${inline(bullet[2] ?? "")}`);
      continue;
    }
    out.push(inline(line));
  }
  return out.join("\n");
}

/**
 * Plain text of markdown-ish text (for notifications and `text` fallbacks): markup removed, escaped, and
 * each link spelled out ("Jグランツで見る: https://…"), since a reader without blocks has no other way there.
 */
export function markdownToPlain(markdown: string): string {
  return escapeMrkdwn(
    markdown
      .replace(/\[([^\]]+)\]\((https?:\/\/[^)\s]+)\)/g, (_m, label: string, url: string) =>
        label.trim() === url ? url : `${label}: ${url}`,
      )
      .replace(/\*\*(.+?)\*\*/g, "$1")
      .replace(/^\s{0,3}#{1,6}\s+/gm, "")
      .replace(/`{3}/g, ""),
  );
}
