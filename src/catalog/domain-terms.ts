/**
 * The domain table of the offline planner: subsidy topics, the words users write for them, and the
 * neighbours a zero-hit word is retried as (synonyms first, then broader terms).
 */

export interface DomainTerm {
  /** The keyword searched for this topic. */
  term: string;
  /** Other spellings found in questions (also searched as-is when they appear). */
  aliases: string[];
  /** Same meaning, other words: tried after a zero-hit search. */
  synonyms: string[];
  /** Wider topics: tried last. */
  broader: string[];
}

const t = (term: string, aliases: string[], synonyms: string[], broader: string[] = []): DomainTerm => ({
  term,
  aliases,
  synonyms,
  broader,
});

/** The topics, most specific first where they overlap. */
export const DOMAIN_TERMS: DomainTerm[] = [
  t(
    "IT導入",
    ["ITツール", "IT化", "システム導入", "ソフトウェア", "クラウド", "インボイス"],
    ["ITツール", "DX", "デジタル化"],
    ["IT"],
  ),
  t("DX", ["デジタルトランスフォーメーション"], ["デジタル化", "IT導入"], ["IT"]),
  t("デジタル化", ["デジタル"], ["DX", "IT導入"], ["IT"]),
  t("省エネ", ["省エネルギー", "節電"], ["脱炭素", "省エネルギー"], ["設備", "環境"]),
  t("脱炭素", ["カーボンニュートラル", "GX", "CO2削減", "温室効果ガス"], ["省エネ", "再エネ"], ["環境"]),
  t(
    "再エネ",
    ["再生可能エネルギー", "太陽光", "蓄電池", "太陽光発電"],
    ["太陽光", "蓄電池", "脱炭素"],
    ["エネルギー"],
  ),
  t("EV", ["電気自動車", "充電設備", "充電インフラ"], ["電気自動車", "充電"], ["脱炭素"]),
  t("創業", ["開業"], ["起業", "スタートアップ"], ["新事業"]),
  t("起業", ["起業家"], ["創業", "スタートアップ"], ["新事業"]),
  t("スタートアップ", ["ベンチャー"], ["創業", "起業"], ["新事業"]),
  t("新事業", ["新規事業", "新分野", "事業転換", "第二創業"], ["新分野展開", "事業再構築"], ["事業"]),
  t("販路開拓", ["販路", "集客", "マーケティング", "PR"], ["販路拡大", "展示会", "持続化"], ["販売"]),
  t("販路拡大", [], ["販路開拓", "展示会"], ["販売"]),
  t("展示会", ["見本市", "商談会"], ["販路開拓", "出展"], ["販路"]),
  t("海外展開", ["海外進出", "海外販路", "越境EC"], ["輸出", "海外"], ["国際"]),
  t("輸出", [], ["海外展開", "海外"], ["国際"]),
  t("人材育成", ["研修", "リスキリング", "教育訓練"], ["研修", "人材"], ["雇用"]),
  t("人材", ["人手不足", "採用"], ["雇用", "研修", "人材育成"], ["働き方"]),
  t("雇用", ["正社員化", "採用"], ["人材", "キャリアアップ"], ["働き方"]),
  t("賃上げ", ["賃金引上げ", "給与アップ", "ベースアップ"], ["賃金", "最低賃金", "業務改善"], ["雇用"]),
  t("事業承継", ["後継者", "事業継承", "M&A", "引継ぎ"], ["承継", "M&A", "引継ぎ"], ["経営"]),
  t("観光", ["インバウンド", "旅行", "観光客"], ["インバウンド", "宿泊"], ["地域"]),
  t("農業", ["農家", "農業者", "就農", "スマート農業"], ["農林", "農業者", "6次産業"], ["農林水産"]),
  t("漁業", ["水産業", "漁業者"], ["水産", "漁船"], ["農林水産"]),
  t("子育て", ["育児", "保育", "出産"], ["少子化", "保育", "出産"], ["子ども"]),
  t("空き家", ["空家", "古民家"], ["住宅", "改修", "リフォーム"], ["住まい"]),
  t("ものづくり", ["モノづくり", "製品開発", "試作"], ["設備投資", "製造"], ["設備"]),
  t("設備投資", ["設備導入", "機械導入", "設備更新"], ["設備", "ものづくり"], ["投資"]),
  t("省力化", ["自動化", "ロボット", "人手不足対策"], ["省力化投資", "ロボット", "自動化"], ["生産性"]),
  t("研究開発", ["R&D", "技術開発", "実証"], ["技術開発", "実証"], ["開発"]),
  t("防災", ["BCP", "耐震", "災害対策"], ["BCP", "耐震"], ["安全"]),
  t("商店街", ["まちづくり", "地域活性化", "中心市街地"], ["まちづくり", "地域振興"], ["地域"]),
  t("医療", ["病院", "クリニック", "医療機関"], ["医療機関", "福祉"], ["健康"]),
  t("介護", ["福祉", "介護事業所"], ["福祉", "介護ロボット"], ["医療"]),
  t("知的財産", ["特許", "商標", "知財"], ["特許", "知財"], ["技術"]),
  t("働き方改革", ["テレワーク", "職場環境"], ["テレワーク", "職場環境"], ["雇用"]),
  t("資金繰り", ["運転資金", "資金調達"], ["融資", "資金"], ["経営"]),
  t("文化", ["芸術", "伝統工芸", "文化財"], ["芸術", "伝統"], ["地域"]),
  t("スポーツ", [], ["スポーツ振興", "体育"], ["健康"]),
];

const byWord = new Map<string, DomainTerm>();
for (const entry of DOMAIN_TERMS) {
  for (const w of [entry.term, ...entry.aliases])
    if (!byWord.has(w.toLowerCase())) byWord.set(w.toLowerCase(), entry);
}
/** Every known word, longest first (so "省エネルギー" wins over "省エネ"). */
const WORDS = [...byWord.keys()].sort((a, b) => b.length - a.length);

/** The domain entry a word belongs to (exact match, or the longest known word it contains). */
export function domainTermOf(word: string): DomainTerm | null {
  const w = word.toLowerCase();
  const exact = byWord.get(w);
  if (exact) return exact;
  const inner = WORDS.find((k) => k.length >= 2 && containsWord(w, k));
  return inner ? (byWord.get(inner) ?? null) : null;
}

/** Whether `word` contains `k`; a Latin `k` ("ev", "pr") only as a whole word, not inside "previous". */
function containsWord(word: string, k: string): boolean {
  if (!/^[a-z0-9]+$/.test(k)) return word.includes(k);
  return new RegExp(`(?<![a-z0-9])${k}(?![a-z0-9])`).test(word);
}

/** Known domain words found in a text, in order of appearance (longest match wins at each place). */
export function domainWordsIn(text: string): string[] {
  const lower = text.toLowerCase();
  const hits: Array<{ at: number; word: string }> = [];
  const taken: boolean[] = [];
  for (const word of WORDS) {
    let at = lower.indexOf(word);
    while (at >= 0) {
      const free = !taken.slice(at, at + word.length).some(Boolean);
      const glued =
        /^[a-z0-9]+$/.test(word) && /[a-z0-9]/.test((lower[at - 1] ?? "") + (lower[at + word.length] ?? ""));
      if (free && !glued) {
        hits.push({ at, word: text.slice(at, at + word.length) });
        for (let i = at; i < at + word.length; i++) taken[i] = true;
      }
      at = lower.indexOf(word, at + 1);
    }
  }
  return hits.sort((a, b) => a.at - b.at).map((h) => h.word);
}

/** Neighbours of a keyword to retry after zero hits: the canonical term, synonyms, then broader terms. */
export function neighboursOf(keyword: string): string[] {
  const entry = domainTermOf(keyword);
  if (!entry) return [];
  const out = [entry.term, ...entry.synonyms, ...entry.broader];
  return [...new Set(out)].filter((w) => w.toLowerCase() !== keyword.toLowerCase());
}
