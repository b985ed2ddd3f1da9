/**
 * The deterministic Japanese answerer: a summary line with the conditions and the data's date, one
 * facts block per subsidy, "他にN件", a tip for narrowing, notes and attribution. No LLM, no I/O.
 */
import { neighboursOf } from "../catalog/domain-terms.ts";
import { isDataDateNote } from "../subsidies/present.ts";
import type { SearchConditions } from "../types.ts";
import type { Answerer, AnswerInput, AnswerOutput } from "./answerer.ts";
import {
  ATTRIBUTION,
  conditionsText,
  dataDateText,
  deadlineText,
  renderSubsidyDetail,
  renderSubsidyFacts,
} from "./template-facts.ts";

export { renderSubsidyFacts } from "./template-facts.ts";

/** A tip naming the conditions the user could still add; the "2番目" example only when there is a second. */
function narrowingTip(c: SearchConditions | null, shown: number): string | null {
  const missing = [
    c?.area ? null : "地域（例:「東京都で」）",
    c?.employees ? null : "従業員数（例:「従業員20人」）",
    c?.industry ? null : "業種（例:「製造業」）",
  ].filter(Boolean);
  const ask = shown > 1 ? "「2番目の詳細は？」" : "「詳しく教えて」";
  if (missing.length === 0) return shown > 1 ? `「締切が近い順にして」や${ask}のようにも聞けます。` : null;
  return `${missing.join("、")}を加えると絞り込めます。${ask}のようにも聞けます。`;
}

/** A direct answer to "それの補助率は？"-style questions, from the data. */
function directAnswer(input: AnswerInput): string | null {
  const s = input.subsidies[0];
  if (!s) return null;
  const q = input.question;
  if (/補助率|助成率/.test(q))
    return s.rate
      ? `補助率は **${s.rate}** です。`
      : "補助率はJグランツのデータに記載がありません。公募要領でご確認ください。";
  if (/上限|金額|いくら/.test(q))
    return s.maxAmountYen
      ? `上限額は **${s.maxAmountText}** です。`
      : "上限額はJグランツのデータに記載がありません。公募要領でご確認ください。";
  if (/締切|締め切り|期限|いつまで/.test(q)) return `締切は **${deadlineText(s)}** です。`;
  return null;
}

/** What to ask instead, as one line (the adapters also offer them as buttons / quick replies). */
function suggestionLine(input: AnswerInput): string | null {
  const s = input.suggestions ?? [];
  return s.length > 0 ? `💡 こんな聞き方もできます: ${s.map((x) => `「${x}」`).join("")}` : null;
}

/** The honest "nothing fits" answer: what was looked for, that nothing open clearly fits, what to try. */
function zeroHitText(input: AnswerInput): string[] {
  const c = input.conditions;
  const ideas = [...new Set((c?.keywords ?? []).flatMap(neighboursOf))].slice(0, 3);
  const example = ideas.length > 0 ? ideas.map((w) => `「${w}」`).join("") : "「設備投資」「販路開拓」「DX」";
  const hasFilters = Boolean(c?.area || c?.city || c?.employees || c?.industry || c?.purpose);
  const open = c?.acceptance === "0" ? "" : "受付中の";
  const lines = [
    `${conditionsText(c) || "この条件"}で探しましたが、ご質問にはっきり合う${open}補助金は見つかりませんでした。`,
  ];
  const tip = suggestionLine(input);
  lines.push(
    tip ??
      `別の言葉（例: ${example}）${hasFilters ? "や、地域・業種などの条件を広げて" : "で"}もう一度お試しください。`,
  );
  return lines;
}

/** The whole answer text for one turn. */
export function renderTemplateAnswer(input: AnswerInput): string {
  const parts: string[] = [];
  const date = dataDateText(input.source);
  const shown = input.subsidies;
  // A snapshot's date is said once: beside the first card's status.
  const dated = (i: number) => i === 0 && input.source?.mode === "snapshot";
  if (input.focus.kind === "detail" && shown.length > 0) {
    const direct = directAnswer(input);
    parts.push(
      direct ?? (shown.length === 1 ? "ご質問の補助金の詳細です。" : `ご質問の${shown.length}件の詳細です。`),
    );
    parts.push(...shown.map((s, i) => renderSubsidyDetail(s, shown.length > 1 ? i + 1 : 0, dated(i))));
  } else if (input.focus.kind === "detail" && input.focus.ids.length === 0) {
    parts.push(
      "どの補助金のことか分かりませんでした。この会話ではまだ補助金を紹介していないか、その番号の補助金がありません。" +
        "探したい内容を教えてください（例:「東京都でIT導入に使える補助金」）。",
    );
  } else if (input.focus.kind === "detail") {
    const ids = input.focus.ids.join("、");
    parts.push(
      `ご指定の補助金${ids ? `（ID: ${ids}）` : ""}の情報が見つかりませんでした。IDをご確認のうえ、もう一度お試しください。`,
    );
  } else if (shown.length === 0 || input.match === "none") {
    parts.push(zeroHitText(input).join("\n"));
  } else if (input.match === "weak") {
    const cond = conditionsText(input.conditions);
    const when = date ? `（${date}）` : "";
    parts.push(
      `${cond ? `${cond}で` : ""}探しましたが、ご質問にぴったり合う受付中の補助金は見つかりませんでした${when}。` +
        `近いものを参考に${shown.length}件紹介します。対象になるかは各ページでご確認ください。`,
    );
    parts.push(...shown.map((s, i) => renderSubsidyFacts(s, i + 1)));
    const tip = suggestionLine(input);
    if (tip) parts.push(tip);
  } else {
    const cond = conditionsText(input.conditions);
    const order = input.focus.kind === "resort" ? "並べ替えて" : "";
    const found = `${cond ? `${cond}で` : ""}${input.totalCount}件見つかりました。`;
    const top = shown.length < input.totalCount ? `${order}上位${shown.length}件を紹介します。` : "";
    parts.push(`${found}${top}`);
    parts.push(...shown.map((s, i) => renderSubsidyFacts(s, i + 1, dated(i))));
    const more = input.totalCount - shown.length;
    if (more > 0) parts.push(`他に${more}件あります。`);
    const tip = narrowingTip(input.conditions, shown.length);
    if (tip) parts.push(`💡 ${tip}`);
  }
  // Without a card the data's date goes in a note, unless the agent's notes already say it.
  const asOf = input.source?.asOf;
  const noted = Boolean(asOf && input.notes.some((n) => n.includes(asOf.slice(0, 10))));
  const notes = [
    date && shown.length === 0 && !noted ? `※ ${date}です。` : null,
    ...input.notes
      .filter((n) => shown.length === 0 || !isDataDateNote(n, input.source))
      .map((n) => `※ ${n.replace(/^※\s*/, "")}`),
  ].filter(Boolean);
  if (notes.length > 0) parts.push(notes.join("\n"));
  parts.push(ATTRIBUTION);
  return parts.join("\n\n");
}

/** Creates the template answerer (mode "offline"; no LLM calls, deterministic output). */
export function createTemplateAnswerer(): Answerer {
  return {
    mode: "offline",
    async compose(pending): Promise<AnswerOutput> {
      const input = pending.detailed ? { ...pending, subsidies: await pending.detailed } : pending;
      return { text: renderTemplateAnswer(input), llmCalls: 0, promptBytes: 0 };
    },
  };
}
