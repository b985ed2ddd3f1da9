/** One assistant message: live progress lines, the tool-call panel, the answer, cards and footer. */

import { notesBesideCards } from "./card-text.js";
import { el, subsidyCard } from "./cards.js";
import { detailCard } from "./detail-card.js";
import { argsText, doneText, durationText, progressText, proseOf } from "./format.js";
import { renderMarkdown } from "./markdown.js";

/** The user's bubble. @param {string} text */
export function userMessage(text) {
  const node = el("div", "msg user");
  node.append(el("span", "visually-hidden", "あなた: "), el("p", "bubble", text));
  return node;
}

/** The command a list answer's watch button sends: the same words as typing it. */
export const WATCH_COMMAND = "この条件をウォッチ";

/** Said above the cards when nothing clearly fits and only the nearest subsidies are shown. */
export const WEAK_MATCH_TEXT =
  "条件にぴったり合う受付中の補助金は見つかりませんでした。近いものを参考に表示します。";

/**
 * Builds an assistant message and returns the handlers that fill it from the stream.
 * @param {(question: string) => void} [ask] sends a suggested question
 */
export function assistantMessage(ask) {
  const root = el("div", "msg bot");
  root.setAttribute("aria-busy", "true");
  const progress = el("ul", "progress");
  progress.setAttribute("aria-live", "polite");
  progress.setAttribute("aria-label", "進捗");
  // Raw tool ids and arguments are for the curious: one click away, closed by default.
  const tools = /** @type {HTMLDetailsElement} */ (el("details", "tools"));
  tools.open = false;
  const toolsSummary = el("summary", undefined, "ツール呼び出し");
  const toolCount = el("span", "tool-count", "");
  toolsSummary.append(toolCount);
  const toolList = el("ol", "tool-list");
  tools.append(toolsSummary, toolList);
  tools.hidden = true;
  const answer = el("div", "answer streaming");
  const cards = el("div", "cards");
  const after = el("div", "answer-after");
  const suggestions = el("div", "suggestions");
  const footer = el("p", "source");
  footer.hidden = true;
  root.append(progress, tools, answer, cards, after, suggestions, footer);
  let toolTotal = 0;

  return {
    root,
    /** @param {any} event */
    progress(event) {
      if (event?.type === "answer-delta" && typeof event.text === "string") {
        answer.append(document.createTextNode(event.text));
        return;
      }
      const text = progressText(event);
      if (text) progress.append(el("li", `step ${String(event.type)}`, text));
    },
    /** A tool call was planned ({phase?, server, tool, args, reason, round}) or finished ({…, isError, durationMs}). @param {any} event */
    tool(event) {
      tools.hidden = false;
      const finished = event?.phase ? event.phase === "finished" : typeof event?.isError === "boolean";
      if (finished && finishTool(toolList, event)) return;
      toolTotal += 1;
      toolCount.textContent = `（${toolTotal}）`;
      const row = el("li", "tool-row pending");
      row.dataset.key = `${event?.server}/${event?.tool}`;
      row.append(
        el("span", "tool-name", `${String(event?.server ?? "?")} / ${String(event?.tool ?? "?")}`),
        el("span", "tool-status", "実行中…"),
        el("span", "tool-ms", ""),
        el("code", "tool-args", argsText(event?.args)),
      );
      if (event?.reason) row.append(el("span", "tool-reason", String(event.reason)));
      toolList.append(row);
      // A finished event without its planned one still gets a row.
      if (finished) finishTool(toolList, event);
    },
    /** The final reply: answer from markdown, cards from structured subsidies. @param {any} reply */
    reply(reply) {
      answer.classList.remove("streaming");
      const subsidies = Array.isArray(reply?.subsidies) ? reply.subsidies : [];
      const notes = notesBesideCards(reply);
      const details = reply?.view === "details";
      // The cards and the footer carry the facts and notes; the answer keeps only its prose.
      const text =
        typeof reply?.answer === "string" ? proseOf(reply.answer, subsidies, reply.notes ?? []) : "";
      // What to do next ("他にN件", the 💡 tip) reads after the cards, so the cards come first.
      const paragraphs = text.split(/\n{2,}/);
      const isNext = (/** @type {string} */ p) => subsidies.length > 0 && /^(💡|他に\d+件)/.test(p);
      const head = paragraphs.filter((p) => !isNext(p)).join("\n\n");
      const tail = paragraphs.filter(isNext).join("\n\n");
      if (text) answer.replaceChildren(renderMarkdown(head));
      if (tail) after.replaceChildren(renderMarkdown(tail));
      if (reply?._meta?.match === "weak" && subsidies.length > 0 && !text.includes("近いもの"))
        answer.prepend(el("p", "weak", WEAK_MATCH_TEXT));
      // The snapshot's date is said once: beside the first card's status.
      const numbered = !details || subsidies.length > 1;
      cards.classList.toggle("details", details);
      cards.replaceChildren(
        ...subsidies.map((s, i) =>
          details ? detailCard(s, numbered ? i + 1 : 0, i === 0) : subsidyCard(s, i + 1, i === 0),
        ),
      );
      const asks = Array.isArray(reply?.suggestions)
        ? reply.suggestions.filter((q) => typeof q === "string")
        : [];
      const chip = (/** @type {string} */ label, /** @type {string} */ q, className = "chip suggestion") => {
        const button = /** @type {HTMLButtonElement} */ (el("button", className, label));
        button.type = "button";
        button.addEventListener("click", () => ask?.(q));
        return button;
      };
      // After a list, its search can be watched: the button sends the typed command.
      const watchable = reply?.kind === "answer" && !details && subsidies.length > 0;
      suggestions.replaceChildren(
        ...asks.slice(0, 5).map((q) => chip(q, q)),
        ...(watchable ? [chip(`🔔 ${WATCH_COMMAND}`, WATCH_COMMAND, "chip watch")] : []),
      );
      footer.textContent = ["出典: Jグランツ", ...notes].filter(Boolean).join("　|　");
      footer.hidden = false;
      // The progress lines collapse into one, so they no longer push the answer down (the steps stay in
      // the DOM, hidden, for the record).
      if (progress.childElementCount > 0) {
        for (const line of progress.children) /** @type {HTMLElement} */ (line).hidden = true;
        progress.append(el("li", "step done", doneText(reply)));
      }
    },
    /** Shows an error inside this message. @param {string} message */
    fail(message) {
      answer.classList.remove("streaming");
      const box = el("p", "error", message);
      box.setAttribute("role", "alert");
      root.append(box);
      return box;
    },
    /** The turn is over (success or not). */
    finish() {
      root.removeAttribute("aria-busy");
      progress.removeAttribute("aria-live");
      answer.classList.remove("streaming");
    },
  };
}

/** Marks the oldest pending row of the same server/tool as finished. @param {HTMLElement} list @param {any} event */
function finishTool(list, event) {
  const key = `${event?.server}/${event?.tool}`;
  const row = [...list.querySelectorAll("li.pending")].find(
    (li) => li instanceof HTMLElement && li.dataset.key === key,
  );
  if (!(row instanceof HTMLElement)) return false;
  row.classList.remove("pending");
  row.classList.add(event.isError ? "failed" : "ok");
  const status = row.querySelector(".tool-status");
  if (status) status.textContent = event.isError ? "❌ 失敗" : "✅ 完了";
  const ms = row.querySelector(".tool-ms");
  if (ms) ms.textContent = durationText(event.durationMs);
  if (event.summary) row.append(el("span", "tool-summary", String(event.summary)));
  return true;
}
