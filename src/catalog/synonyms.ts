/**
 * Query expansion: Sudachi's synonym dictionary (npm `sudachi-synonyms-dictionary`, Apache-2.0, by
 * WorksApplications / azu) for general words, plus the domain table (domain-terms.ts) for subsidy
 * vocabulary and the everyday phrases owners use for it. Expanded words weigh less than the user's own.
 */
import { DOMAIN_TERMS, type DomainTerm, domainTermOf } from "./domain-terms.ts";
import { sudachiWords } from "./sudachi.ts";
import { fold } from "./text.ts";

/** Sudachi synonyms of a word (at most `max`, Japanese spellings first). */
export function sudachiSynonyms(word: string, max = 6): string[] {
  const all = sudachiWords(word);
  const japanese = all.filter((w) => !/^[a-z0-9 .'-]+$/.test(w));
  const latin = all.filter((w) => /^[a-z0-9.'-]+$/.test(w) && w.length >= 2);
  // Two-kana clippings (エネ, メンテ) match inside every longer word that contains them.
  return [...japanese, ...latin].filter((w) => !/^[\p{Script=Katakana}ー]{1,2}$/u.test(w)).slice(0, max);
}

/**
 * Everyday phrases → the subsidy vocabulary they mean. Each pattern is a way people describe a need
 * (「人が足りない」, 「電気代を下げたい」, 「跡継ぎがいない」); the words are the catalog's own terms for it.
 */
export const PHRASES: Array<[RegExp, string[], number?]> = [
  [
    /人(手|材)?が?(足りない|不足|集まらない|来ない|いない)|人手不足|求人|人を(雇|採)|雇いたい|採用したい/,
    ["人材確保", "採用", "雇用", "人手不足"],
  ],
  [/電気代|電気料金|光熱費|電力料金|ガス代|燃料費/, ["省エネ", "省エネルギー", "エネルギー"]],
  [/led|照明/, ["省エネ", "led", "照明"]],
  [
    /跡継ぎ|後継ぎ|跡取り|引き継|引継|継が(せ|せる|せたい)|後を継|継いで|廃業|事業を譲|会社を譲|m&a/,
    ["事業承継", "後継者", "承継"],
  ],
  [
    /(店|お店|会社|事業|教室|塾|サロン|事務所|工房|カフェ|クリニック|医院|ゲストハウス|民宿|屋)を?(始め|開き|開く|開業|作り|立ち上げ|起こ|オープン)|独立|開業|起業|創業/,
    ["創業", "起業", "開業"],
  ],
  [
    /ホームページ|ウェブサイト|webサイト|サイト制作|ec(サイト)?|ネット(販売|ショップ)|通販/,
    ["ホームページ", "ウェブサイト", "ec", "販路開拓"],
  ],
  [
    /パソコン|ソフト|アプリ|システム|クラウド|会計ソフト|レジ|キャッシュレス|デジタル|it|ict|dx/,
    ["it導入", "デジタル化", "dx", "itツール"],
  ],
  [
    /お客(さん)?を?増や|売上を?(伸ば|上げ|増や)|集客|新しい客|販路|取引先を?(増|広)|商談|展示会|見本市/,
    ["販路開拓", "販路拡大", "展示会"],
  ],
  [/海外|輸出|外国に|越境/, ["海外展開", "輸出", "海外"]],
  [/機械|設備|装置|導入したい|買い替え|更新したい|新しくしたい/, ["設備投資", "設備導入", "設備"], 0.5],
  // Machines named by their kind: what they are bought with is 設備投資.
  [
    /旋盤|フライス|マシニング|cnc|nc(機|加工)|工作機械|加工機|射出成形|成形機|プレス機|溶接機|裁断機|包装機|3dプリンタ|レーザー(加工|カッター)|フォークリフト|コンプレッサー|乾燥機|検査装置/,
    ["設備投資", "機械装置", "生産性向上"],
  ],
  [/給料|給与|賃金|時給/, ["賃上げ", "賃金", "賃金引上げ"]],
  [/研修|勉強|スキル|資格|教育訓練|育て/, ["人材育成", "研修", "教育訓練"]],
  [/働き方|休み|残業|育休|テレワーク|職場環境|福利厚生/, ["働き方改革", "職場環境", "雇用環境"]],
  [/太陽光|ソーラー|蓄電池|再エネ|再生可能/, ["太陽光", "再生可能エネルギー", "再エネ", "蓄電池"]],
  [/脱炭素|co2|二酸化炭素|温室効果|カーボン/, ["脱炭素", "co2削減", "カーボンニュートラル", "省エネ"]],
  [/電気自動車|ev|充電/, ["ev", "電気自動車", "充電設備"]],
  [/空き(店舗|家)|空家|空き物件/, ["空き店舗", "空き家"]],
  [/改装|改修|リフォーム|内装|店舗を?(直|きれい)/, ["改修", "改装", "リフォーム"]],
  [/観光|インバウンド|外国人(観光)?客|旅行者|宿泊/, ["観光", "インバウンド", "宿泊"]],
  [/特許|商標|知財|知的財産|発明/, ["知的財産", "特許", "商標"]],
  [/新商品|新製品|商品開発|製品開発|試作|研究/, ["新商品開発", "製品開発", "研究開発"]],
  [/(自然)?災害|地震|水害|浸水|大雨|台風|防災|bcp/, ["防災", "災害", "bcp"]],
  [/子育て|育児|保育|出産/, ["子育て", "育児"]],
  [/介護|高齢者|福祉/, ["介護", "福祉"]],
  [/ロボット|自動化|省力化|人手を?減ら/, ["省力化", "自動化", "ロボット"]],
  [/資金繰り|運転資金|借入|融資|利子|保証料/, ["資金繰り", "融資", "利子補給", "保証料"]],
  [/工場を?(建て|新設)|工場|立地|進出|移転/, ["企業立地", "工場", "立地"]],
  [/外国人(材|労働者|従業員)?|技能実習|特定技能/, ["外国人材", "外国人"]],
  [/日本酒|酒蔵|蔵元|清酒|焼酎|ワイナリー|醸造|地ビール|クラフトビール/, ["酒類", "酒蔵", "日本産酒類"]],
  [
    /腰痛|腰を痛め|移乗|介護リフト|見守り(センサー)?|介護(の)?負担/,
    ["介護ロボット", "介護テクノロジー", "負担軽減"],
  ],
  [/停電|非常用電源|発電機|自家発電|非常時の電源/, ["非常用電源", "発電機", "自家発電", "防災"]],
  [/塗装|シンナー|有機溶剤|voc|揮発性/, ["voc", "排出削減", "塗装"]],
  [/値上がり|値上げ|物価|高騰|コスト(が)?(高|上が)/, ["物価高騰", "価格高騰", "高騰"]],
  [/保証料|信用保証|保証協会/, ["信用保証料", "保証料", "資金繰り"]],
  [/エアコン|断熱|二重窓|給湯|ボイラー|冷凍機|ヒートポンプ/, ["省エネ", "高効率", "断熱"], 0.5],
  [/トラック|営業車|社用車|車両|バス|タクシー/, ["車両", "電動化", "次世代自動車"]],
  [/ごみ|廃棄物|リサイクル|食品ロス|プラスチック|資源循環/, ["資源循環", "リサイクル", "廃棄物"]],
  [/水素|燃料電池/, ["水素", "燃料電池"]],
  [/耐震|老朽化/, ["耐震", "改修"], 0.5],
  [/バリアフリー|車いす|車椅子|段差/, ["バリアフリー", "ユニバーサルデザイン"]],
  [/多言語|翻訳|外国語(対応)?/, ["多言語", "インバウンド"]],
  [/女性(の)?活躍|女性(を|が)?(採用|働)|ママ|母親/, ["女性活躍", "女性"]],
  [/障害者|障がい者|障碍者/, ["障害者雇用", "障害者"]],
  [/高齢者(を)?(雇|採用)|シニア(人材|採用)|定年/, ["高齢者雇用", "シニア"]],
  [/非正規|パート|アルバイト|正社員に/, ["正社員化", "キャリアアップ", "非正規"]],
  [/奨学金/, ["奨学金返還", "奨学金"]],
  [/健康経営|メンタル|ストレスチェック|熱中症/, ["健康経営", "健康", "熱中症"]],
  [/セキュリティ|サイバー|情報漏え?い|ウイルス対策/, ["セキュリティ", "サイバーセキュリティ"]],
  [/iso|認証(を)?取得|認証取得|jgap|haccp/, ["認証取得", "認証", "haccp"]],
  [/パッケージ|ブランド|デザイン|商品の?見た目/, ["ブランディング", "デザイン", "商品開発"], 0.5],
  [/移住|uターン|iターン|ujiターン|地方に移/, ["移住", "uijターン", "地方"]],
  [/農機|トラクター|農業機械|ビニールハウス|ハウス栽培|スマート農業/, ["農業機械", "スマート農業", "農業"]],
  [/漁船|養殖|水産加工/, ["漁業", "水産", "養殖"]],
  [/森林|木材|林業|間伐/, ["林業", "森林", "木材"]],
  [/キッチンカー|移動販売|テイクアウト|デリバリー/, ["キッチンカー", "移動販売", "テイクアウト"]],
  [/クラウドファンディング|ふるさと納税|資金調達/, ["資金調達", "クラウドファンディング", "ふるさと納税"]],
  [/診療所|クリニック|開業医|小児科|歯科/, ["診療所", "医療機関", "開設"]],
  [/保育|託児|学童/, ["保育", "子育て"]],
  [/イベント|祭り|マルシェ|催し/, ["イベント", "地域活性化"]],
  [/インターン|新卒|若者|若手/, ["若者", "インターンシップ", "若手人材"]],
  [
    /コワーキング|サテライトオフィス|シェアオフィス|支社|支店を?出|オフィス(を|の)?(借|賃)/,
    ["オフィス", "立地", "サテライトオフィス"],
  ],
];

export interface Expansion {
  word: string;
  /** 0–1: how much a match on this word counts, relative to the user's own words. */
  weight: number;
  /** The user's word or phrase it came from. */
  from: string;
  /** For phrases: how much the need they state counts (generic intents such as 「新しくしたい」 less). */
  needWeight: number;
  /** True when it came from a word inside the user's word (「宇宙旅行」 → 旅行 → 観光): it meets the need less. */
  partial?: boolean;
}

/** Domain neighbours: the canonical term, its spellings and synonyms (never the broader terms). */
function domainNeighbours(entry: DomainTerm): string[] {
  return [entry.term, ...entry.aliases, ...entry.synonyms].map(fold);
}

/** Words the question implies through everyday phrases (weight 0.8: they state the need). */
export function phraseConcepts(folded: string): Expansion[] {
  const out: Expansion[] = [];
  for (const [re, words, needWeight = 1] of PHRASES) {
    const m = re.exec(folded);
    if (m) for (const word of words) out.push({ word, weight: 0.8, from: m[0], needWeight });
  }
  return out;
}

/** Expansions of one of the user's words: the domain table (0.5) and Sudachi synonyms (0.4). */
export function expand(word: string): Expansion[] {
  const out: Expansion[] = [];
  const entry = domainTermOf(word);
  const partial = entry ? !domainNeighbours(entry).includes(fold(word)) : false;
  if (entry) {
    for (const w of domainNeighbours(entry))
      out.push({ word: w, weight: 0.5, from: word, needWeight: 1, partial });
  }
  for (const w of sudachiSynonyms(word)) out.push({ word: w, weight: 0.35, from: word, needWeight: 1 });
  return out.filter((e) => e.word !== fold(word));
}

/** Every domain term (for tests and the README's counts). */
export const DOMAIN_TERM_COUNT = DOMAIN_TERMS.length;
