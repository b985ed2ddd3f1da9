/**
 * The platform-agnostic agent: one turn = lock the thread, load history, run the loop, compose the
 * answer, remember the turn. Adapters call `handle()`; it always resolves with a Reply the user can read.
 */
import {
  type Answerer,
  type AnswerOutput,
  MAX_CANDIDATES,
  TEMPLATE_FALLBACK_NOTE,
} from "../answer/answerer.ts";
import { AppError, describeError } from "../errors.ts";
import { type Logger, silentLogger } from "../logger.ts";
import type { Planner } from "../planner/planner.ts";
import type {
  AgentLike,
  HandleOptions,
  HistoryTurn,
  ProgressEvent,
  Reply,
  ThreadStore,
  ToolHost,
  Turn,
} from "../types.ts";
import { parseWatchCommand } from "../watch/commands.ts";
import type { WatchConversation } from "../watch/conversation.ts";
import { SEARCH_TOOL, selectShown, shownLimit } from "./collect.ts";
import { deadlineWindowNote, withinDeadlineWindow } from "./deadline-window.ts";
import { type AgentLimits, DEFAULT_LIMITS } from "./limits.ts";
import { clearedReply, errorReply, helpReply, isClearCommand, watchReply } from "./replies.ts";
import { type LoopOutput, runLoop } from "./run-turn.ts";
import { searchFailed, suggestionsFor } from "./suggest.ts";
import { compactResult, notesFor } from "./turn-report.ts";

export interface AgentDeps {
  planner: Planner;
  /** The offline planner, used when the primary one degrades. */
  fallbackPlanner: Planner;
  answerer: Answerer;
  /** The template answerer, used when the primary one fails. */
  fallbackAnswerer: Answerer;
  tools: ToolHost;
  store: ThreadStore;
  limits?: Partial<AgentLimits>;
  logger?: Logger;
  /** The wall clock (tests inject a fixed one). */
  clock?: () => Date;
  /** Observers of planned and finished tool calls (the web chat's streamed display). */
  onToolEvent?: (event: ToolEvent) => void;
  /** Watch commands (「この条件をウォッチ」, 「ウォッチ一覧」…); without it they are ordinary questions. */
  watches?: WatchConversation;
}

export type ToolEvent =
  | {
      phase: "planned";
      server: string;
      tool: string;
      args: Record<string, unknown>;
      reason: string;
      round: number;
    }
  | {
      phase: "finished";
      server: string;
      tool: string;
      isError: boolean;
      summary: string;
      durationMs: number;
    };

export interface Agent extends AgentLike {
  handle(turn: Turn, options?: HandleOptions & { onToolEvent?: (event: ToolEvent) => void }): Promise<Reply>;
}

const MAX_QUESTION_CHARS = 4000;
const NOTHING_TO_SEARCH =
  "ご質問から探す補助金を読み取れませんでした。地域・業種・やりたいこと（例: 設備投資、IT導入、創業）を添えてお尋ねください。" +
  "申請方法などの一般的なご質問には、Jグランツ（https://www.jgrants-portal.go.jp/）の案内をご覧ください。";
const FAILURE_TEXT =
  "申し訳ありません。回答の作成中に問題が起きました。少し時間をおいてもう一度お試しください。";

/** Creates the agent from its seams. */
export function createAgent(deps: AgentDeps): Agent {
  const limits: AgentLimits = { ...DEFAULT_LIMITS, ...deps.limits };
  const logger = deps.logger ?? silentLogger;
  const clock = deps.clock ?? (() => new Date());
  const mode = deps.planner.mode;
  const model = deps.planner.model;

  async function handle(
    turn: Turn,
    options: HandleOptions & { onToolEvent?: (event: ToolEvent) => void } = {},
  ): Promise<Reply> {
    const started = Date.now();
    const emit = (event: ProgressEvent) => {
      try {
        options.onProgress?.(event);
      } catch (error) {
        logger.warn({ err: error }, "progress listener failed");
      }
    };
    const trimmed = turn.text.trim();
    // Cut by code points, so a long question never ends in half a surrogate pair.
    const text =
      trimmed.length > MAX_QUESTION_CHARS
        ? Array.from(trimmed).slice(0, MAX_QUESTION_CHARS).join("")
        : trimmed;
    if (!text) return helpReply(turn.threadKey, mode, model);
    let entered = false;
    try {
      return await deps.store.withThreadLock(turn.threadKey, async () => {
        entered = true;
        if (isClearCommand(text)) {
          await deps.store.clear(turn.threadKey);
          return clearedReply(turn.threadKey, mode, model);
        }
        const watchCommand = deps.watches ? parseWatchCommand(text) : null;
        if (watchCommand && deps.watches) {
          const said = await deps.watches.handle(turn.threadKey, watchCommand);
          return watchReply(turn.threadKey, said, mode, model);
        }
        return await answer({ ...turn, text }, emit, options, started);
      });
    } catch (error) {
      if (
        !entered &&
        error instanceof AppError &&
        error.code === "STORE_UNAVAILABLE" &&
        !isClearCommand(text)
      ) {
        // The store is down: answer anyway (without the lock); the reply says the turn was not saved.
        logger.error(
          { err: error, threadKey: turn.threadKey },
          "thread lock unavailable; answering unlocked",
        );
        return answer({ ...turn, text }, emit, options, started).catch(() =>
          errorReply(turn.threadKey, FAILURE_TEXT, mode, model, Date.now() - started),
        );
      }
      const userMessage = error instanceof AppError ? error.userMessage : undefined;
      logger.error({ err: error, threadKey: turn.threadKey }, "turn failed");
      const message = userMessage ?? FAILURE_TEXT;
      emit({ type: "error", message });
      return errorReply(turn.threadKey, message, mode, model, Date.now() - started);
    }
  }

  async function answer(
    turn: Turn,
    emit: (event: ProgressEvent) => void,
    options: HandleOptions & { onToolEvent?: (event: ToolEvent) => void },
    started: number,
  ): Promise<Reply> {
    const notes: string[] = [];
    let history: HistoryTurn[] = [];
    let storeDown = false;
    try {
      history = await deps.store.load(turn.threadKey);
    } catch (error) {
      storeDown = true;
      logger.error({ err: error, threadKey: turn.threadKey }, "history could not be loaded");
      notes.push("会話履歴を読み込めなかったため、前の質問を踏まえずにお答えします。");
    }
    const toolEvent = (event: ToolEvent) => {
      deps.onToolEvent?.(event);
      options.onToolEvent?.(event);
    };
    const tools = await deps.tools.listTools(options.signal).catch((error) => {
      logger.error({ err: error }, "tool list unavailable");
      return [];
    });
    if (!tools.some((t) => t.name === SEARCH_TOOL)) {
      const message =
        "申し訳ありません。補助金データ（Jグランツ）に接続できませんでした。しばらくしてからもう一度お試しください。" +
        "Jグランツのサイト（https://www.jgrants-portal.go.jp/）で直接検索することもできます。";
      emit({ type: "error", message });
      return errorReply(turn.threadKey, message, mode, model, Date.now() - started);
    }

    // Status, days left and "open now" are judged on the real date (or JGRANTS_NOW when pinned); a
    // snapshot's date is only a label.
    const now = clock();
    // "今月締切" and the like: only subsidies whose deadline falls in the window (judged on the data's clock).
    const keep = withinDeadlineWindow(turn.text, () => now);
    const loop: LoopOutput = await runLoop({
      keep,
      startedAt: started,
      question: turn.text,
      history,
      tools,
      host: deps.tools,
      planner: deps.planner,
      fallbackPlanner: deps.fallbackPlanner,
      limits,
      now: () => now,
      emit,
      signal: options.signal,
      onPlanned: (e) => toolEvent({ phase: "planned", ...e }),
      onToolSummary: (r, summary) => {
        const { args: _args, ...finished } = compactResult(r, summary);
        toolEvent({ phase: "finished", ...finished });
      },
    });

    const { collected, focus, conditions } = loop;
    if (focus.kind !== "detail" && searchFailed(loop)) {
      // A failed search is not "no results": say what happened, and do not remember it as a zero-hit turn.
      const message =
        "申し訳ありません。補助金データの検索に失敗しました（Jグランツまたは検索サーバーに接続できませんでした）。" +
        "少し時間をおいてもう一度お試しください。Jグランツのサイト（https://www.jgrants-portal.go.jp/）で直接探すこともできます。";
      emit({ type: "error", message });
      return errorReply(turn.threadKey, message, mode, model, Date.now() - started);
    }
    if (loop.plan.length === 0 && !conditions && focus.kind === "search") {
      // The planner found nothing to search for: say so and show what can be asked, not a random list.
      emit({ type: "done" });
      const help = helpReply(turn.threadKey, loop.planner.mode, loop.planner.model, NOTHING_TO_SEARCH);
      // The planner's requests were sent all the same: count them.
      const { llmCalls, promptBytes, rounds } = loop;
      return {
        ...help,
        meta: { ...help.meta, llmCalls, promptBytes, rounds, durationMs: Date.now() - started },
      };
    }
    const pick = () =>
      selectShown(collected, focus, conditions, shownLimit(collected, limits.detailTopN), keep);
    // The answer may start from the hits; the detailed records (rates, summaries) follow when fetched.
    const detailed = loop.detailsPending.then(pick);
    const listed = pick();
    notes.push(...notesFor(loop, collected.source));
    const windowNote = keep ? deadlineWindowNote(turn.text, now) : null;
    if (windowNote) notes.push(windowNote);
    if (focus.kind === "search" && focus.exclude?.length) {
      notes.push(
        listed.length > 0
          ? "これまでに紹介したものを除いてお見せします。"
          : "これまでに紹介したもの以外には見つかりませんでした。",
      );
    }

    const match =
      focus.kind === "detail" ? undefined : (collected.match ?? (listed.length > 0 ? "good" : "none"));
    const suggestions = match && match !== "good" ? suggestionsFor(conditions) : [];
    // A plain search that fits: an LLM answerer may choose and order among the best ranked hits.
    const choose = focus.kind === "search" && !conditions?.sort && match === "good" && listed.length > 0;
    const candidates = choose ? selectShown(collected, focus, conditions, MAX_CANDIDATES, keep) : undefined;
    const detailsOf = async (ids: string[]) => {
      await loop.fetchDetails(ids);
      return ids.map((id) => collected.get(id)).filter((s) => s !== undefined);
    };
    const answerInput = {
      match,
      suggestions,
      question: turn.text,
      subsidies: listed,
      detailed,
      totalCount:
        focus.kind === "detail"
          ? listed.length
          : keep
            ? collected.all().filter(keep).length
            : Math.max(
                0,
                collected.totalCount - (focus.kind === "search" ? (focus.exclude?.length ?? 0) : 0),
              ),
      conditions,
      focus,
      history,
      source: collected.source,
      notes,
      now,
      startedAt: started,
      ...(candidates ? { candidates, detailsOf } : {}),
    };
    // "Composing" once the details are in: until then the progress line counts them (3/5).
    const counts =
      focus.kind === "detail" || listed.length === 0
        ? {}
        : { found: answerInput.totalCount, shown: listed.length };
    void loop.detailsPending.then(
      () => emit({ type: "composing", ...counts }),
      () => undefined,
    );
    const useFallback = loop.planner === deps.fallbackPlanner && deps.planner !== deps.fallbackPlanner;
    const answerer = useFallback ? deps.fallbackAnswerer : deps.answerer;
    let composed: AnswerOutput;
    try {
      composed = await answerer.compose(answerInput, {
        onDelta: (delta) => emit({ type: "answer-delta", text: delta }),
        signal: options.signal,
      });
    } catch (error) {
      logger.warn({ err: error }, "answerer failed; using the template");
      composed = await deps.fallbackAnswerer.compose({
        ...answerInput,
        notes: [...notes, TEMPLATE_FALLBACK_NOTE],
      });
      composed.degraded = describeError(error);
    }

    // The subsidies the answer chose, or the search's top ones.
    const shown = composed.subsidies ?? (await detailed);
    // The answerer fell back to the template on its own: say so once (the planner's fallback has its note).
    const fallbackNote = composed.fallbackNote ?? TEMPLATE_FALLBACK_NOTE;
    if (composed.degraded && !loop.degraded && !notes.includes(fallbackNote)) notes.push(fallbackNote);
    let historyNotSaved = storeDown;
    const record: HistoryTurn = {
      question: turn.text,
      answer: composed.text.slice(0, 2000),
      subsidies: shown.map((s) => ({ id: s.id, title: s.title })),
      conditions,
      messageIds: turn.messageId ? [turn.messageId] : undefined,
      at: clock().toISOString(),
    };
    // A turn the user abandoned (or that shutdown cut short) is not remembered.
    if (!storeDown && !options.signal?.aborted) {
      try {
        await deps.store.append(turn.threadKey, record);
      } catch (error) {
        historyNotSaved = true;
        logger.error({ err: error, threadKey: turn.threadKey }, "turn could not be saved");
      }
    }
    const finalNotes = historyNotSaved ? [...notes, "※この回答は会話履歴に保存できませんでした。"] : notes;
    const text = historyNotSaved
      ? `${composed.text}\n\n※この回答は会話履歴に保存できませんでした。`
      : composed.text;
    const degraded = loop.degraded ?? composed.degraded;
    emit({ type: "done" });
    return {
      threadKey: turn.threadKey,
      text,
      subsidies: shown,
      totalCount: answerInput.totalCount,
      conditions,
      plan: loop.plan,
      toolResults: loop.results.map((r) => compactResult(r, loop.summaries.get(r))),
      meta: {
        mode: loop.planner.mode,
        model: loop.planner.model,
        rounds: loop.rounds,
        llmCalls: loop.llmCalls + composed.llmCalls,
        toolCalls: loop.results.length,
        promptBytes: loop.promptBytes + composed.promptBytes,
        durationMs: Date.now() - started,
        ...(degraded ? { degraded } : {}),
        ...(historyNotSaved ? { historyNotSaved } : {}),
        ...(match ? { match } : {}),
      },
      kind: "answer",
      view: focus.kind === "detail" ? "details" : "list",
      notes: finalNotes,
      ...(suggestions.length > 0 ? { suggestions } : {}),
    };
  }

  return { handle };
}
