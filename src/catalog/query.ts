/**
 * Reads a plain, conversational question into weighted concepts: the user's own content words (compounds
 * kept whole, their parts weighing less), the needs its everyday phrases imply, and expansions. Place names,
 * head counts, deadline words and generic subsidy vocabulary are left out: they are filters or noise.
 */
import { findArea } from "./areas.ts";
import { expand, phraseConcepts } from "./synonyms.ts";
import { fold, icuWords } from "./text.ts";

/** One word to look for: the user's own, a part of a compound, or an expansion. */
export interface Alternative {
  /** Folded text searched for. */
  text: string;
  /** 0–1: how much a match on this word scores (1 for the user's own word). */
  weight: number;
  /** 0–1: how far a match on this word meets the need, for "good" vs "weak" (a part of a compound meets
   *  it less than it scores: 「宇宙旅行」 is not met by 旅行). */
  cover: number;
}

/**
 * One need the question states ("電気代を下げたい", "電子カルテ"): any of its alternatives meets it, the best
 * one counts, so synonyms never add up. Needs do add up: a record that meets more of them ranks higher.
 */
export interface Concept {
  /** The user's word or phrase (shown as 「…」に一致). */
  from: string;
  /** How much this need counts: 1 for the point of the question, less for business kinds. */
  weight: number;
  /** True when it is the point of the question (it decides "good" vs "weak"). */
  own: boolean;
  /** The user named a programme (「IT導入補助金」): only that programme meets the need fully. */
  named?: boolean;
  alternatives: Alternative[];
}

/** Generic words of subsidy questions: they match nearly every record or say nothing about the need. */
const STOP = new Set(
  (
    "補助金 助成金 奨励金 支援金 給付金 交付金 補助 助成 支援 制度 事業 申請 対象 利用 活用 使える 使う 探す 探し 教え 知り " +
    "会社 企業 中小企業 小規模 事業者 事業所 法人 個人 従業員 社員 スタッフ 人数 規模 名 人 今 何 方法 場合 予定 検討 考え 相談 " +
    "弊社 当社 うち 私 自分 経営 費用 経費 一部 お金 助け サポート 今年 来年 年度 今月 来月 今週 締切 締め切り 期限 受付 " +
    "中 以内 以上 以下 程度 くらい 位 ほど 円 万円 方 もの 物 こと 件 等 など 関係 関連 向け 用 的 化 系 型 地域 地元 市内 県内 都内 " +
    "市 区 町 村 県 府 都 道 全国 国 自治体 おすすめ 一覧 情報 詳細 条件 内容 いい 良い ある ない いる する できる なる 欲しい ほしい " +
    "募集 公募 開始 始まる 準備 予約 管理 対応 整備 導入 実施 取組 取り組み 活動 運営 相談先 窓口 " +
    "したい たい 新しい 受け 取れ 取り 出せ 出し もらえ 貰え 合う 該当 使え 何か 何が 誰 どれ どの どう どんな 営む 営ん やって 経営者 代表 " +
    // Who the asker is talking about, not what they need (「息子に継がせたい」 is about 事業承継).
    "息子 娘 父 母 父親 母親 親 両親 妻 夫 主人 家族 親族 身内 兄 弟 姉 妹 知人 友人 知り合い"
  ).split(/\s+/),
);

/** Business kinds: useful for ranking (飲食店向け), but a filter first, so they weigh less. */
const KIND =
  /飲食店|飲食|レストラン|カフェ|居酒屋|製造業|町工場|工場|小売|商店|建設業|工務店|美容室|美容院|理容|介護事業所|病院|クリニック|診療所|歯科|農家|旅館|ホテル|民宿|運送|物流|不動産|学習塾|保育園|ラーメン|パン屋|花屋|酒屋|漁業|林業|農業法人/;

/** How far a phrase's words meet a longer word of the user's that contains the phrase. */
const HOSTED_PHRASE_COVER = 0.5;

/** A programme's own name ends like this (「IT導入補助金」, 「事業承継支援助成金」). */
const NAMED = /(補助金|助成金|奨励金|支援金|給付金)$/;
const SUFFIXES = /(補助金|助成金|奨励金|支援金|補助|助成|支援|制度|事業|関係|関連)+$/;
const PREFIXES = /^(補助金|助成金|新規|今回)/;
const JAPANESE_OR_LATIN_RUN = /[\p{Script=Han}\p{Script=Katakana}ー々ヶa-z0-9&+\-.]+/gu;

/** Head counts, amounts and dates: numbers the filters read, never words to match. */
const NUMBERS =
  /(従業員|社員|スタッフ|職員)?(数は?|は|が)?\s*(約|およそ)?\s*[0-9]{1,6}\s*(人|名|社|万円|円|億円|日|年|月|か月|ヶ月)(程度|くらい|ぐらい|ほど|規模)?/g;

function trimGeneric(run: string): string {
  let word = run;
  for (let i = 0; i < 3; i++) word = word.replace(SUFFIXES, "").replace(PREFIXES, "");
  return word;
}

const usable = (w: string) => [...w].length >= 2 && !STOP.has(w) && !/^[0-9.]+$/.test(w);

/** The needs of a question, most important first. */
export function analyseQuery(question: string): Concept[] {
  const folded = fold(question).replace(NUMBERS, " ");
  const { rest } = findArea(folded);
  const needs: Concept[] = [];
  const seen = new Set<string>();
  for (const run of rest.match(JAPANESE_OR_LATIN_RUN) ?? []) {
    const word = trimGeneric(run);
    if (!usable(word) || seen.has(word)) continue;
    seen.add(word);
    const kind = KIND.test(word);
    const named = NAMED.test(run) && word !== run;
    const alternatives: Alternative[] = [{ text: word, weight: 1, cover: 1 }];
    const parts = icuWords(word).filter(usable);
    if (parts.length > 1) for (const p of parts) alternatives.push({ text: p, weight: 0.6, cover: 0.3 });
    needs.push({ from: word, weight: kind ? 0.4 : 1, own: !kind, named, alternatives });
  }
  for (const phrase of phrases(folded)) {
    // A phrase inside one of the user's words adds its meaning to that need; otherwise it is a need itself.
    const host = needs.find((n) => n.from.includes(phrase.from) || phrase.from.includes(n.from));
    // Inside a longer word of the user's (「搾乳ロボット」 ⊃ ロボット, 「パソコン教室」 ⊃ パソコン) the phrase
    // names only part of what they want: related, not the same.
    // (Unless one of the phrase's words names more of it: 「it」 in 「itツール導入」 means ITツール.)
    const inside =
      host !== undefined &&
      host.from.length > phrase.from.length &&
      host.from.includes(phrase.from) &&
      !phrase.words.some((w) => w.length > phrase.from.length && host.from.includes(w));
    const cover = host?.named ? 0.3 : inside ? HOSTED_PHRASE_COVER : 0.8;
    const alts = phrase.words.map((text) => ({ text, weight: 0.8, cover }));
    if (host) host.alternatives.push(...alts);
    else needs.push({ from: phrase.from, weight: phrase.weight, own: true, alternatives: alts });
  }
  for (const need of needs) {
    const base = [...need.alternatives];
    for (const alt of base) {
      if (alt.weight < 0.6) continue;
      for (const e of expand(alt.text)) {
        const weight = e.weight * alt.weight;
        const cover = need.named || e.partial ? Math.min(weight, 0.3) : Math.min(weight, alt.cover);
        need.alternatives.push({ text: e.word, weight, cover });
      }
    }
    need.alternatives = dedupe(need.alternatives);
  }
  return needs.sort((a, b) => b.weight - a.weight);
}

function phrases(folded: string): Array<{ from: string; words: string[]; weight: number }> {
  const byFrom = new Map<string, { words: string[]; weight: number }>();
  for (const p of phraseConcepts(folded)) {
    const have = byFrom.get(p.from) ?? { words: [], weight: p.needWeight };
    have.words.push(p.word);
    byFrom.set(p.from, have);
  }
  return [...byFrom.entries()].map(([from, v]) => ({ from, ...v }));
}

function dedupe(alternatives: Alternative[]): Alternative[] {
  const best = new Map<string, Alternative>();
  for (const a of alternatives) {
    if (!usable(a.text)) continue;
    const have = best.get(a.text);
    if (!have || have.weight < a.weight) best.set(a.text, a);
  }
  return [...best.values()].sort((a, b) => b.weight - a.weight);
}
