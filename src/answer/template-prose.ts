/**
 * The answer's prose for a surface that shows the subsidies as cards (Slack blocks, LINE bubbles): the
 * paragraphs the cards, the header and the footer do not already say. A fact said by a card (its link, a
 * "**1. …**" heading, "- 上限額:" lines), the count line, "他にN件", the notes and the attribution go.
 */
import type { Reply } from "../types.ts";

const FACTS = /^(#+\s*)?\*\*\d+\.\s|^\s*[-*•]\s*(上限額|補助率|締切)\s*[:：]/m;
const COUNT_LINE = /^[^\n]*\d+件見つかりました。[^\n]*$/;
const MORE_LINE = /^他に\d+件あります。$/;

/** The paragraphs of `reply.text` worth showing beside the cards ("" when none is left). */
export function proseBesideCards(reply: Pick<Reply, "text" | "subsidies" | "notes">): string {
  if (reply.subsidies.length === 0) return reply.text;
  const urls = reply.subsidies.map((s) => s.url);
  const isNote = (line: string) => reply.notes.some((n) => n.trim() && line.includes(n.trim().slice(0, 16)));
  return reply.text
    .split(/\n\s*\n/)
    .filter((paragraph) => {
      const t = paragraph.trim();
      if (t === "" || urls.some((u) => t.includes(u)) || FACTS.test(t)) return false;
      if (COUNT_LINE.test(t) || MORE_LINE.test(t)) return false;
      if (t.startsWith("※") && t.split("\n").every((l) => isNote(l) || /時点のデータです。$/.test(l)))
        return false;
      return !/^出典[:：]/.test(t);
    })
    .join("\n\n");
}

/** What to do next ("💡 …" tips): read after the cards, so the cards come first. */
const NEXT_STEP = /^💡/;

/** Splits prose into what goes above the cards and the next-step tips that go below them. */
export function splitNextSteps(prose: string): { above: string; below: string } {
  const paragraphs = prose.split(/\n\s*\n/);
  return {
    above: paragraphs.filter((p) => !NEXT_STEP.test(p.trim())).join("\n\n"),
    below: paragraphs.filter((p) => NEXT_STEP.test(p.trim())).join("\n\n"),
  };
}
