/** Watch commands are recognised in their usual wordings, and ordinary questions are never taken for one. */
import { describe, expect, it } from "vitest";
import { QUESTIONS } from "../../bench/questions.ts";
import { EXAMPLE_QUESTIONS } from "../../src/agent/replies.ts";
import { parseWatchCommand } from "../../src/watch/commands.ts";

describe("parseWatchCommand", () => {
  it.each([
    ["この条件で新しいのが出たら教えて", { kind: "set" }],
    ["この条件をウォッチ", { kind: "set" }],
    ["新しい補助金が出たら知らせて", { kind: "set" }],
    ["毎週月曜に教えて", { kind: "set", weekday: 1 }],
    ["毎週金曜日に知らせて", { kind: "set", weekday: 5 }],
    ["新着がなくても毎週月曜に教えて", { kind: "set", weekday: 1, nothingNewLine: true }],
    ["締切の1週間前に知らせて", { kind: "set", remindDays: 7 }],
    ["締め切りの３日前に教えて", { kind: "set", remindDays: 3 }],
    ["締切の二週間前に知らせて", { kind: "set", remindDays: 14 }],
    ["ウォッチ一覧", { kind: "list" }],
    ["ウォッチの一覧を見せて", { kind: "list" }],
    ["ウォッチを止めて", { kind: "stop" }],
    ["ウォッチを全部止めて", { kind: "stop" }],
    ["ウォッチ2を止めて", { kind: "stop", number: 2 }],
    ["ウォッチ２番を解除", { kind: "stop", number: 2 }],
    ["新着は？", { kind: "news" }],
    ["新着ある?", { kind: "news" }],
    ["通知をオン", { kind: "push", on: true }],
    ["LINEの通知をオンにして", { kind: "push", on: true }],
    ["通知をオフ", { kind: "push", on: false }],
  ])("reads %s", (text, command) => {
    expect(parseWatchCommand(text)).toEqual(command);
  });

  it("leaves ordinary questions and follow-ups to the planner", () => {
    const questions = [
      ...EXAMPLE_QUESTIONS,
      ...QUESTIONS.map((q) => q.question),
      "2番目の詳細は？",
      "大阪府なら？",
      "締切が近い順に並べて",
      "今月締切の補助金を教えて",
      "新しい設備を入れたいので補助金を教えて",
      "新着の補助金を教えて",
      "履歴を消して",
      "通知がオンになる補助金の申請方法は？",
    ];
    expect(questions.filter((q) => parseWatchCommand(q) !== null)).toEqual([]);
  });
});
