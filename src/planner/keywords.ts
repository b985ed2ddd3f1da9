/**
 * Japanese keyword extraction without a dictionary download: Intl.Segmenter words, re-joined into
 * compounds (so "ITツール導入" stays one search word), stop words dropped, known domain words kept.
 */
import { domainWordsIn } from "../catalog/domain-terms.ts";

// One segmenter for the process: building it per question would cost more than segmenting.
const segmenter = new Intl.Segmenter("ja", { granularity: "word" });

/** Words that say "subsidy" or "please" rather than what the subsidy is for. */
export const STOP_WORDS = new Set([
  "補助金", "助成金", "補助", "助成", "支援金", "給付金", "交付金", "奨励金", "補助事業", "補助制度", "助成制度",
  "制度", "支援制度", "教えて", "ください", "下さい", "ある", "あります", "使える", "使えます", "探して", "探す",
  "知りたい", "情報", "対象", "申請", "募集", "公募", "一覧", "おすすめ", "オススメ", "方法", "場合", "関連",
  "向け", "ため", "できる", "会社", "企業", "弊社", "当社", "うち", "私", "自分", "中小企業", "小規模事業者",
  "事業者", "中小", "何か", "なにか", "どれ", "どんな", "どの", "いつ", "詳細", "詳しく", "内容", "今", "現在",
  "利用", "活用", "受付中", "募集中", "検索", "調べて", "近い", "もの", "こと", "など", "とか", "支援", "過去",
  // Attributes asked about ("それの補助率は？"), not topics to search for.
  "含め", "締切", "締め切り", "期限", "補助率", "助成率", "上限", "上限額", "金額", "要件", "条件", "書類",
  "必要書類", "対象者", "対象経費", "申請方法", "概要", "比較",
  // References and rankings ("最初のやつ", "一番おすすめ", "トップ3", "その他"), not topics either.
  "最初", "最後", "一番", "トップ", "先頭", "やつ", "ほう", "その他", "ほか", "以外", "他", "すべき", "べき",
]); // biome-ignore format: a dense word list

/** Endings that add nothing to a search word ("省エネ補助金" → "省エネ"). */
const SUFFIXES = [
  "補助金",
  "助成金",
  "支援金",
  "給付金",
  "補助",
  "助成",
  "支援",
  "制度",
  "関連",
  "向け",
  "等",
  "など",
];

/** Generic parts that are useless alone when a compound is split ("導入", "推進"). */
const GENERIC_PARTS = new Set([
  "導入",
  "推進",
  "促進",
  "整備",
  "対策",
  "活用",
  "事業",
  "支援",
  "強化",
  "向上",
  "化",
  "対応",
  "設置",
  "実施",
  "購入",
  "取得",
  "改善",
  "検討",
  "開始",
  "予定",
  "相談",
  "作成",
  "必要",
]);

const CONTENT = /[\p{Script=Han}\p{Script=Katakana}A-Za-z0-9ー々&]/u;
const HIRAGANA_ONLY = /^[\p{Script=Hiragana}ー]+$/u;
/** Verb and adjective forms end in kana okurigana ("使える", "始め"); domain words like 子育て are matched apart. */
const INFLECTED = /\p{Script=Hiragana}$/u;
/** Ordinals, counts and amounts are not topics. */
const NOT_TOPIC = /^\d+(番目?|つ目|個目|件目?|人|名|円|万円?|億円?|年|月|日)?$/;

const len = (s: string): number => Array.from(s).length;
const MAX_WORD_CHARS = 30;

/** Removes stop suffixes repeatedly, keeping at least 2 characters. */
function trimSuffixes(word: string): string {
  let w = word;
  for (let changed = true; changed; ) {
    changed = false;
    for (const s of SUFFIXES) {
      if (w.endsWith(s) && len(w) - len(s) >= 2) {
        w = w.slice(0, -s.length);
        changed = true;
      }
    }
  }
  return w;
}

/** Runs of content segments (kanji, katakana, latin, digits) between particles and punctuation. */
export function compoundsOf(text: string): string[][] {
  const runs: string[][] = [];
  let run: string[] = [];
  for (const { segment, isWordLike } of segmenter.segment(text)) {
    const isContent =
      isWordLike && CONTENT.test(segment) && !HIRAGANA_ONLY.test(segment) && !INFLECTED.test(segment);
    if (isContent) run.push(segment);
    else if (run.length > 0 && segment === "&") run.push(segment);
    else {
      runs.push(run);
      run = [];
    }
  }
  runs.push(run);
  // Stop words at the edges of a run go ("省エネ|補助金" → "省エネ"); inside they stay ("事業|承継").
  return runs
    .map((r) => {
      let a = 0;
      let b = r.length;
      while (a < b && STOP_WORDS.has(r[a] ?? "")) a++;
      while (b > a && STOP_WORDS.has(r[b - 1] ?? "")) b--;
      return r.slice(a, b);
    })
    .filter((r) => r.length > 0);
}

/** Search words of a question, most useful first: known domain words, then compounds in reading order. */
export function extractKeywords(text: string, max = 3): string[] {
  const normalised = text.normalize("NFKC");
  const out: string[] = [];
  const add = (w: string) => {
    // The API takes 2–255 characters; a run this long is pasted text, not a search word.
    const word = Array.from(trimSuffixes(w.trim())).slice(0, MAX_WORD_CHARS).join("");
    if (len(word) < 2 || STOP_WORDS.has(word) || GENERIC_PARTS.has(word) || NOT_TOPIC.test(word)) return;
    if (out.some((o) => o.toLowerCase() === word.toLowerCase())) return;
    out.push(word);
  };
  const domain = domainWordsIn(normalised);
  const compounds = compoundsOf(normalised).map((parts) => parts.join(""));
  for (const c of compounds) {
    // A compound that merely wraps a known word ("省エネ補助金") is searched as that word.
    const inner = domain.find((d) => c.includes(d));
    if (inner && len(trimSuffixes(c)) > len(inner)) add(c);
    else if (!inner) add(c);
  }
  for (const d of domain) {
    if (!out.some((o) => o.includes(d))) add(d);
  }
  const order = (w: string) => normalised.indexOf(w);
  return out.sort((a, b) => order(a) - order(b)).slice(0, max);
}

/** Shorter search words from a compound: its meaningful parts and leading prefixes ("ITツール導入" → "ITツール", "IT"). */
export function shorterWordsOf(keyword: string): string[] {
  const parts = compoundsOf(keyword.normalize("NFKC")).flat();
  const out: string[] = [];
  for (let n = parts.length - 1; n >= 1; n--) out.push(parts.slice(0, n).join(""));
  for (const p of parts) if (!GENERIC_PARTS.has(p)) out.push(p);
  return [...new Set(out)].filter(
    (w) => len(w) >= 2 && w !== keyword && !STOP_WORDS.has(w) && !GENERIC_PARTS.has(w),
  );
}
