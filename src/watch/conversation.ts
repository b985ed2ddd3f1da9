/**
 * The watch conversation: save (or update) a watch of the thread's last search, list, stop, and 「新着は？」.
 * Each command answers with a fixed Japanese text that says what was saved, when it runs and how to stop.
 */
import type { HistoryTurn, SearchConditions, ThreadStore, ToolHost } from "../types.ts";
import type { WatchCommand } from "./commands.ts";
import { buildDigest, watchConditionsText } from "./digest.ts";
import { digestTurn } from "./digest-turn.ts";
import { isLine, lineNotice, pushCommand } from "./line-push.ts";
import type { PushGate } from "./push-gate.ts";
import { nextRunAfter, scheduleText } from "./schedule.ts";
import { searchForWatch, WatchSearchError } from "./search.ts";
import type { Watch, WatchSchedule } from "./types.ts";
import type { WatchStore } from "./watch-store.ts";

export interface WatchConversationDeps {
  watches: WatchStore;
  history: ThreadStore;
  tools: ToolHost;
  clock: () => Date;
  /** Watches allowed per thread. */
  maxPerThread: number;
  /** LINE pushes: opt-in and the monthly cap. */
  push?: PushGate;
}

const STOP_HINT =
  "止めるときは「ウォッチ番号を止めて」（例: ウォッチ1を止めて）、すべて止めるときは「ウォッチを止めて」と送ってください。";
const NO_SEARCH =
  "ウォッチする検索条件がまだありません。先に「東京都でIT導入に使える補助金は？」のように探してから、「この条件で新しいのが出たら教えて」と送ってください。";
const SEARCH_DOWN =
  "補助金データ（Jグランツ）を検索できなかったため、いまはウォッチを保存・確認できません。少し時間をおいてもう一度お試しください。";
const NO_WATCHES =
  "このスレッドにウォッチはありません。検索のあとに「この条件をウォッチ」と送ると登録できます。";

/** The fields that define a watch's search (sort order and keywords follow from the query). */
const sameSearch = (a: SearchConditions, b: SearchConditions) =>
  (["query", "area", "city", "employees", "industry"] as const).every(
    (k) => (a[k] ?? null) === (b[k] ?? null),
  );

/** The conditions of the thread's most recent search, or null. */
export function lastConditions(history: HistoryTurn[]): SearchConditions | null {
  for (let i = history.length - 1; i >= 0; i--) {
    const c = history[i]!.conditions;
    if (c && (c.query || c.keywords.length > 0)) return c;
  }
  return null;
}

/** One watch in a list line: 「1. 「IT導入」（東京都）— 毎日9時（日本時間）・締切7日前にお知らせ」. */
function describe(watch: Watch, number: number): string {
  const remind = watch.remindDays === null ? "" : `・締切${watch.remindDays}日前にお知らせ`;
  return `${number}. ${watchConditionsText(watch.conditions)} — ${scheduleText(watch.schedule)}${remind}`;
}

/** Creates the command handler; `handle` returns the reply text. */
export function createWatchConversation(deps: WatchConversationDeps) {
  const { watches, clock } = deps;

  async function set(threadKey: string, command: Extract<WatchCommand, { kind: "set" }>): Promise<string> {
    const conditions = lastConditions(await deps.history.load(threadKey));
    if (!conditions) return NO_SEARCH;
    const list = await watches.list(threadKey);
    const now = clock();
    let index = list.findIndex((w) => sameSearch(w.conditions, conditions));
    const existed = index >= 0;
    if (index < 0) {
      if (list.length >= deps.maxPerThread) {
        return `ウォッチはこのスレッドで${deps.maxPerThread}件までです。「ウォッチ一覧」で確認し、不要なものを「ウォッチ番号を止めて」で止めてから登録してください。`;
      }
      // What matches today is the baseline: only later arrivals are news.
      const baseline = await searchForWatch(deps.tools, conditions, now);
      list.push({
        id: `w${now.getTime().toString(36)}${list.length}`,
        conditions,
        schedule: { kind: "daily" },
        remindDays: null,
        nothingNewLine: false,
        createdAt: now.toISOString(),
        seen: baseline.subsidies.map((s) => s.id),
        reminded: [],
        nextRunAt: nextRunAfter({ kind: "daily" }, now).toISOString(),
      });
      index = list.length - 1;
    }
    const watch = list[index]!;
    const schedule: WatchSchedule =
      command.weekday === undefined ? watch.schedule : { kind: "weekly", weekday: command.weekday };
    list[index] = {
      ...watch,
      schedule,
      remindDays: command.remindDays ?? watch.remindDays,
      nothingNewLine: command.nothingNewLine ?? watch.nothingNewLine,
      nextRunAt: nextRunAfter(schedule, now).toISOString(),
    };
    await watches.save(threadKey, list);
    const saved = list[index]!;
    const lines = [
      `ウォッチ${index + 1}を${existed ? "更新" : "保存"}しました。`,
      `- 条件: ${watchConditionsText(saved.conditions)}`,
      `- 確認: ${scheduleText(saved.schedule)}。新しく条件に合う補助金が出たらこのスレッドでお知らせします${saved.nothingNewLine ? "（新着がない回もお知らせします）" : ""}。`,
      saved.remindDays === null
        ? "- 締切のお知らせ: なし（「締切の1週間前に知らせて」で設定できます）"
        : `- 締切のお知らせ: 締切の${saved.remindDays}日前から`,
      STOP_HINT,
    ];
    if (isLine(threadKey)) lines.push(await lineNotice(deps.push, threadKey));
    return lines.join("\n");
  }

  async function list(threadKey: string): Promise<string> {
    const all = await watches.list(threadKey);
    if (all.length === 0) return NO_WATCHES;
    return [
      `このスレッドのウォッチ（${all.length}件）:`,
      ...all.map((w, i) => describe(w, i + 1)),
      STOP_HINT,
    ].join("\n");
  }

  async function stop(threadKey: string, number?: number): Promise<string> {
    const all = await watches.list(threadKey);
    if (all.length === 0) return NO_WATCHES;
    if (number === undefined) {
      await watches.save(threadKey, []);
      return `このスレッドのウォッチ${all.length}件をすべて止めました。`;
    }
    const target = all[number - 1];
    if (!target) {
      const range = all.length === 1 ? "1番だけ" : `1〜${all.length}番`;
      return `ウォッチ${number}はありません。このスレッドのウォッチは${range}です。「ウォッチ一覧」で確認できます。`;
    }
    await watches.save(
      threadKey,
      all.filter((w) => w !== target),
    );
    return `ウォッチ${number}（${watchConditionsText(target.conditions)}）を止めました。`;
  }

  /**
   * The thread's kept digests, oldest first, written into its history (the caller holds the thread's
   * lock): shown when the thread is opened again or asks 「新着は？」.
   */
  async function takeKept(threadKey: string): Promise<string[]> {
    const kept = await watches.takeInbox(threadKey);
    for (const digest of kept) await deps.history.append(threadKey, digestTurn(digest, clock()));
    return kept.map((d) => d.text);
  }

  /** 「新着は？」: the kept digests, then every watch of the thread run now (web chat and CLI). */
  async function news(threadKey: string): Promise<string> {
    const all = await watches.list(threadKey);
    const texts = await takeKept(threadKey);
    if (all.length === 0 && texts.length === 0) return NO_WATCHES;
    const updated: Watch[] = [];
    for (const [i, watch] of all.entries()) {
      const digest = await buildDigest(deps.tools, { ...watch, nothingNewLine: false }, i + 1, clock());
      updated.push({ ...digest.watch, nothingNewLine: watch.nothingNewLine });
      if (!digest.text) continue;
      texts.push(digest.text);
      const shown = { text: digest.text, listed: digest.listed, conditions: watch.conditions };
      await deps.history.append(threadKey, digestTurn(shown, clock()));
    }
    await watches.save(threadKey, updated);
    return texts.length > 0 ? texts.join("\n\n") : "ウォッチの条件に合う新着はありません。";
  }

  return {
    takeKept,
    async handle(threadKey: string, command: WatchCommand): Promise<string> {
      try {
        return await run(threadKey, command);
      } catch (error) {
        if (error instanceof WatchSearchError) return SEARCH_DOWN;
        throw error;
      }
    },
  };

  function run(threadKey: string, command: WatchCommand): Promise<string> {
    switch (command.kind) {
      case "set":
        return set(threadKey, command);
      case "list":
        return list(threadKey);
      case "stop":
        return stop(threadKey, command.number);
      case "news":
        return news(threadKey);
      case "push":
        return pushCommand(deps.push, threadKey, command.on);
    }
  }
}

export type WatchConversation = ReturnType<typeof createWatchConversation>;
