/**
 * Watch commands in plain Japanese, recognised before planning (like 「履歴を消して」). Patterns are
 * narrow on purpose: an ordinary subsidy question must never be taken for a command.
 */
import { WEEKDAYS } from "./types.ts";

export type WatchCommand =
  | {
      kind: "set";
      /** 0–6 (日–土) for a weekly schedule. */
      weekday?: number;
      remindDays?: number;
      nothingNewLine?: boolean;
    }
  | { kind: "list" }
  | { kind: "stop"; number?: number }
  | { kind: "news" }
  /** LINE: opt in to (or out of) pushed digests. */
  | { kind: "push"; on: boolean };

const toHalfWidth = (s: string) =>
  s.replace(/[０-９]/g, (d) => String.fromCharCode(d.charCodeAt(0) - 0xfee0)).replace(/\s+/g, "");

const KANJI_NUMBERS: Record<string, number> = { 一: 1, 二: 2, 三: 3, 四: 4, 五: 5, 六: 6, 七: 7, 十: 10 };
const numberOf = (s: string) => KANJI_NUMBERS[s] ?? Number(s);

const TELL = "(?:教えて|知らせて|お知らせ|通知)";
const SAVE = new RegExp(`(?:この条件(?:を|で)?ウォッチ|新しい(?:の|もの|補助金)?が(?:出|で)たら${TELL})`);
const WEEKLY = new RegExp(`毎週([日月火水木金土])曜(?:日)?(?:の朝)?に?${TELL}`);
const REMIND = new RegExp(`締(?:め)?切(?:り)?の?(\\d+|[一二三四五六七十])(日|週間)前に?${TELL}`);
const LIST = /^(?:ウォッチ(?:の)?(?:一覧|リスト)|ウォッチ(?:を)?(?:見せて|確認))/;
const STOP = /^ウォッチ(\d+)?(?:番)?(?:を)?(?:全部|すべて)?(?:止めて|とめて|停止|解除|やめて|削除)/;
const PUSH =
  /^(?:LINEの)?(?:通知|プッシュ通知)を?(オン|ON|有効|受け取る|オフ|OFF|無効|止めて|とめて)(?:にして|にする|して|する)?[。!！]*$/i;
const NEWS = /^(?:新着(?:は|ある|ありますか)?|新着を見せて)[?？。!！]*$/;

/** The watch command in `text`, or null for an ordinary question. */
export function parseWatchCommand(raw: string): WatchCommand | null {
  const text = toHalfWidth(raw.trim());
  if (LIST.test(text)) return { kind: "list" };
  const stop = STOP.exec(text);
  if (stop) return stop[1] ? { kind: "stop", number: Number(stop[1]) } : { kind: "stop" };
  if (NEWS.test(text)) return { kind: "news" };
  const push = PUSH.exec(text);
  if (push) return { kind: "push", on: /^(?:オン|ON|有効|受け取る)$/i.test(push[1]!) };
  const weekly = WEEKLY.exec(text);
  const remind = REMIND.exec(text);
  if (!weekly && !remind && !SAVE.test(text)) return null;
  const command: WatchCommand = { kind: "set" };
  if (weekly) command.weekday = WEEKDAYS.indexOf(weekly[1] as (typeof WEEKDAYS)[number]);
  if (remind) command.remindDays = numberOf(remind[1]!) * (remind[2] === "週間" ? 7 : 1);
  if (/(?:なくても|無くても|ない週も)/.test(text)) command.nothingNewLine = true;
  return command;
}
