/** Subsidy cards, built from structured Subsidy records (never from LLM prose), text-only DOM. */
import { areaText, matchText, statusText } from "./card-text.js";
import { daysLeftText } from "./format.js";
import { safeHref } from "./markdown.js";

/**
 * @param {string} tag @param {string} [className] @param {string} [text]
 * @returns {HTMLElement}
 */
export function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

const STATUS_CLASS = { 受付中: "open", 受付前: "soon", 受付終了: "closed" };

/**
 * The card's head: its number (0 = none), the linked title, the status badge, and the matched words.
 * @param {any} subsidy @param {number} index
 */
export function cardHead(subsidy, index) {
  const head = el("div", "card-head");
  if (index > 0) head.append(el("span", "card-index", String(index)));
  const title = el("h3", "card-title");
  const href = typeof subsidy.url === "string" ? safeHref(subsidy.url) : null;
  if (href) {
    const a = /** @type {HTMLAnchorElement} */ (el("a", undefined, String(subsidy.title ?? "")));
    a.href = href;
    a.target = "_blank";
    a.rel = "noopener noreferrer";
    title.append(a);
  } else {
    title.textContent = String(subsidy.title ?? "");
  }
  head.append(title);
  const status = String(subsidy.status ?? "不明");
  head.append(
    el("span", `badge ${STATUS_CLASS[/** @type {keyof STATUS_CLASS} */ (status)] ?? "unknown"}`, status),
  );
  return head;
}

/**
 * The facts every card shows: amount, rate, deadline, status (with the data's date when `dated`), area.
 * @param {any} subsidy @param {boolean} dated
 */
export function cardFacts(subsidy, dated) {
  const facts = el("dl", "facts");
  const end = subsidy.end?.jst ? String(subsidy.end.jst) : "公募要領を確認";
  const left = daysLeftText(subsidy.daysLeft);
  fact(facts, "上限額", String(subsidy.maxAmountText ?? "公募要領を確認"), "amount");
  fact(facts, "補助率", subsidy.rate ? String(subsidy.rate) : "公募要領を確認", "rate");
  fact(
    facts,
    "締切",
    left ? `${end}（${left}）` : end,
    left && subsidy.daysLeft <= 7 ? "deadline urgent" : "deadline",
  );
  const status = statusText(subsidy, dated);
  // With the data's date beside it, the status takes the whole row instead of wrapping in half of it.
  fact(facts, "受付状況", status, status.includes("時点:") ? "status dated" : "status");
  fact(facts, "対象地域", areaText(subsidy), "area");
  return facts;
}

/**
 * One list card for a Subsidy. @param {any} subsidy @param {number} index 1-based
 * @param {boolean} [dated] put the snapshot's date beside the status (the first card only)
 */
export function subsidyCard(subsidy, index, dated = false) {
  const card = el("article", "card");
  card.setAttribute("aria-label", `${index}件目: ${String(subsidy.title ?? "")}`);
  card.append(cardHead(subsidy, index));
  const match = matchText(subsidy);
  if (match) card.append(el("p", "card-match", match));
  card.append(cardFacts(subsidy, dated));
  // A list card is for scanning: a short summary (the details card shows it all).
  if (subsidy.summary) card.append(el("p", "card-summary", clipText(String(subsidy.summary), 90)));
  return card;
}

/** Cuts text to `max` characters, ending in "…" when cut. @param {string} text @param {number} max */
function clipText(text, max) {
  const chars = Array.from(text);
  return chars.length <= max
    ? text
    : `${chars
        .slice(0, max - 1)
        .join("")
        .trimEnd()}…`;
}

/** @param {HTMLElement} list @param {string} label @param {string} value @param {string} className */
export function fact(list, label, value, className) {
  const row = el("div", `fact ${className}`);
  row.append(el("dt", undefined, label), el("dd", undefined, value));
  list.append(row);
}
