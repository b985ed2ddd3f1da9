/**
 * Minimal safe markdown: **bold**, [text](url), bare URLs, headings, lists, rules.
 * parseMarkdown is pure (tested in Node); renderMarkdown builds DOM nodes with textContent only,
 * so no untrusted text ever reaches innerHTML. Links are http/https only.
 */

/**
 * @typedef {{ type: "text", text: string } | { type: "strong", children: Inline[] } | { type: "link", href: string, children: Inline[] }} Inline
 * @typedef {{ type: "p", lines: Inline[][] } | { type: "h", level: number, children: Inline[] } | { type: "ul" | "ol", items: Inline[][] } | { type: "hr" }} Block
 */

/** Returns the URL when it is absolute http(s), else null. @param {string} raw */
export function safeHref(raw) {
  const text = raw.trim();
  if (!/^https?:\/\//i.test(text)) return null;
  try {
    const url = new URL(text);
    return url.protocol === "http:" || url.protocol === "https:" ? url.href : null;
  } catch {
    return null;
  }
}

// **bold** | [label](target, one level of parentheses allowed) | a bare http(s) URL.
const INLINE =
  /\*\*(.+?)\*\*|\[([^\]\n]+)\]\(((?:[^()\s]|\([^()\s]*\))+)\)|(https?:\/\/[^\s<>"'()（）「」、。]+)/g;

/** @param {string} text @param {boolean} [inStrong] @returns {Inline[]} */
export function parseInline(text, inStrong = false) {
  /** @type {Inline[]} */
  const out = [];
  let last = 0;
  for (const match of text.matchAll(INLINE)) {
    const index = match.index ?? 0;
    if (index > last) out.push({ type: "text", text: text.slice(last, index) });
    const [whole, bold, label, target, bare] = match;
    if (bold !== undefined) {
      if (inStrong) out.push({ type: "text", text: bold });
      else out.push({ type: "strong", children: parseInline(bold, true) });
    } else if (label !== undefined && target !== undefined) {
      const href = safeHref(target);
      // An unsafe target (javascript:, data:, relative) keeps only its label, as plain text.
      out.push(
        href
          ? { type: "link", href, children: [{ type: "text", text: label }] }
          : { type: "text", text: label },
      );
    } else if (bare !== undefined) {
      const href = safeHref(bare);
      out.push(
        href
          ? { type: "link", href, children: [{ type: "text", text: bare }] }
          : { type: "text", text: whole },
      );
    }
    last = index + whole.length;
  }
  if (last < text.length) out.push({ type: "text", text: text.slice(last) });
  return out;
}

/** @param {string} source @returns {Block[]} */
export function parseMarkdown(source) {
  /** @type {Block[]} */
  const blocks = [];
  /** @type {Block | null} */
  let open = null;
  for (const raw of String(source ?? "").split(/\r\n|\r|\n/)) {
    const line = raw.trim();
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    const bullet = /^(?:[-*+]\s+|[・•]\s*)(.*)$/.exec(line);
    const numbered = /^\d{1,3}[.)]\s+(.*)$/.exec(line);
    if (line === "") {
      open = null;
    } else if (/^([-*_])\1{2,}$/.test(line)) {
      blocks.push({ type: "hr" });
      open = null;
    } else if (heading) {
      blocks.push({ type: "h", level: heading[1]?.length ?? 1, children: parseInline(heading[2] ?? "") });
      open = null;
    } else if (bullet) {
      open = listBlock(blocks, open, "ul");
      open.items.push(parseInline(bullet[1] ?? ""));
    } else if (numbered) {
      open = listBlock(blocks, open, "ol");
      open.items.push(parseInline(numbered[1] ?? ""));
    } else if (open && open.type === "p") {
      open.lines.push(parseInline(line));
    } else {
      open = { type: "p", lines: [parseInline(line)] };
      blocks.push(open);
    }
  }
  return blocks;
}

/** @param {Block[]} blocks @param {Block | null} open @param {"ul" | "ol"} type */
function listBlock(blocks, open, type) {
  if (open && open.type === type) return open;
  /** @type {{ type: "ul" | "ol", items: Inline[][] }} */
  const list = { type, items: [] };
  blocks.push(list);
  return list;
}

/** Renders markdown into a fragment of DOM nodes. @param {string} source @param {Document} doc */
export function renderMarkdown(source, doc = document) {
  const fragment = doc.createDocumentFragment();
  for (const block of parseMarkdown(source)) {
    if (block.type === "hr") fragment.append(doc.createElement("hr"));
    else if (block.type === "h") {
      const h = doc.createElement(`h${Math.min(6, Math.max(3, block.level + 2))}`);
      appendInlines(h, block.children, doc);
      fragment.append(h);
    } else if (block.type === "p") {
      const p = doc.createElement("p");
      block.lines.forEach((line, i) => {
        if (i > 0) p.append(doc.createElement("br"));
        appendInlines(p, line, doc);
      });
      fragment.append(p);
    } else {
      const list = doc.createElement(block.type);
      for (const item of block.items) {
        const li = doc.createElement("li");
        appendInlines(li, item, doc);
        list.append(li);
      }
      fragment.append(list);
    }
  }
  return fragment;
}

/** @param {Element} parent @param {Inline[]} inlines @param {Document} doc */
function appendInlines(parent, inlines, doc) {
  for (const node of inlines) {
    if (node.type === "text") parent.append(doc.createTextNode(node.text));
    else if (node.type === "strong") {
      const strong = doc.createElement("strong");
      appendInlines(strong, node.children, doc);
      parent.append(strong);
    } else {
      parent.append(externalLink(node.href, node.children, doc));
    }
  }
}

/** @param {string} href @param {Inline[]} children @param {Document} doc */
function externalLink(href, children, doc) {
  const a = doc.createElement("a");
  a.href = href;
  a.target = "_blank";
  a.rel = "noopener noreferrer";
  appendInlines(a, children, doc);
  return a;
}
