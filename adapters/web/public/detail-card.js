/**
 * A details card: the list card's facts, then the fields only details have (受付開始, 事業終了期限,
 * 従業員規模, 対象業種, 利用目的, 実施機関, 複数回申請), the attachments by name, the longer 概要 and a
 * link to the portal page. Built from the structured record, text-only DOM.
 */

import { detailRows } from "./card-text.js";
import { cardFacts, cardHead, el, fact } from "./cards.js";
import { safeHref } from "./markdown.js";

/**
 * @param {any} subsidy @param {number} index 0 = no number (one subsidy asked about)
 * @param {boolean} dated put the snapshot's date beside the status
 */
export function detailCard(subsidy, index, dated) {
  const card = el("article", "card details");
  card.setAttribute("aria-label", `詳細: ${String(subsidy.title ?? "")}`);
  card.append(el("p", "card-kind", "補助金の詳細"), cardHead(subsidy, index));
  const facts = cardFacts(subsidy, dated);
  for (const row of detailRows(subsidy)) fact(facts, row.label, row.value, `extra ${row.key}`);
  card.append(facts);

  const files = Array.isArray(subsidy.attachments) ? subsidy.attachments : [];
  if (files.length > 0) {
    const box = el("div", "attachments");
    box.append(el("h4", undefined, "添付資料"));
    const list = el("ul");
    for (const file of files.slice(0, 10)) {
      list.append(el("li", undefined, `${String(file?.kind ?? "資料")}: ${String(file?.name ?? "")}`));
    }
    box.append(list);
    card.append(box);
  }
  if (subsidy.summary) card.append(el("p", "card-summary full", String(subsidy.summary)));
  const href = typeof subsidy.url === "string" ? safeHref(subsidy.url) : null;
  if (href) {
    const link = /** @type {HTMLAnchorElement} */ (el("a", "portal", "Jグランツで見る（申請・公募要領）"));
    link.href = href;
    link.target = "_blank";
    link.rel = "noopener noreferrer";
    card.append(link);
  }
  return card;
}
