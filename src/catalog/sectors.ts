/**
 * Sectors a programme is aimed at, read from its title (「医療機関等における…」, 「建築ＧＸ・ＤＸ推進事業」,
 * 「商用車等の電動化促進事業」), and the sectors a question places the business in (「小児科を開業」,
 * 「工務店です」). A programme for one sector is a weaker fit for a question that does not place the
 * business there: it stays in the list, below the ones anyone can use.
 */

interface Sector {
  name: string;
  /** A programme's title that names the sector as its target. */
  programme: RegExp;
  /** A question that places the business in the sector (or asks about it). */
  question: RegExp;
}

const SECTORS: Sector[] = [
  {
    name: "医療",
    programme: /医療(?!費)|病院|診療所|クリニック|小児科|産科|歯科|薬局|医師|看護|救急/,
    question: /医療|病院|診療所|クリニック|小児科|産科|歯科|薬局|医師|看護|開業医|医院/,
  },
  {
    name: "介護・福祉・保育",
    programme: /介護(事業|施設|サービス|職員|人材)|障害福祉|福祉(施設|事業)|保育(所|園|士|施設)|幼稚園/,
    question: /介護|福祉|保育|幼稚園|グループホーム|老人ホーム|デイサービス|訪問看護|障害者施設|児童館|学童/,
  },
  {
    name: "建設",
    // Not 建築物: programmes for buildings (ZEB, 省CO2改修) are for their owners, any business.
    programme: /建築(?!物)|建設(業|機械|産業|事業者|工事)|工務店|土木/,
    question: /建築|建設|工務店|土木|大工|リフォーム|住宅|建て替え|建替|新築|改築/,
  },
  {
    name: "農林水産",
    programme: /農業|農家|農林|畜産|酪農|林業|森林|木材|漁業|水産|漁船|養殖|農地|営農|就農|中山間|農村|園芸/,
    question:
      /農業|農家|農園|農産|畜産|酪農|林業|森林|木材|漁業|漁師|水産|養殖|就農|野菜|果樹|米作|稲作|園芸/,
  },
  {
    name: "運輸",
    programme: /運送|トラック|タクシー|バス事業|商用車|物流|倉庫|海運|船舶|鉄道|航空/,
    question: /運送|トラック|タクシー|バス|物流|倉庫|配送|運輸|船舶|海運|鉄道|航空|商用車/,
  },
  {
    name: "宿泊・観光",
    programme: /旅館|ホテル|宿泊|観光産業|観光事業者|観光地/,
    question: /旅館|ホテル|宿泊|民宿|観光|旅行|ゲストハウス/,
  },
  {
    name: "金融",
    programme: /フィンテック|金融機関|金融業|保険業|証券|資産運用/,
    question: /フィンテック|金融|保険|証券|資産運用/,
  },
  {
    name: "エネルギー事業",
    programme: /発電事業|電気事業|小売電気|データセンター|原子力|水力発電|地熱|洋上風力/,
    question: /発電|電力|データセンター|原子力|水力|地熱|風力/,
  },
  {
    name: "研究機関",
    programme: /大学|研究機関|研究開発法人|高専/,
    question: /大学|研究機関|研究所|高専/,
  },
];

/** The sectors a programme's title names as its target. */
export function programmeSectors(title: string): string[] {
  return SECTORS.filter((s) => s.programme.test(title)).map((s) => s.name);
}

/** The sectors a question places the business in (or asks about). */
export function questionSectors(question: string): Set<string> {
  return new Set(SECTORS.filter((s) => s.question.test(question)).map((s) => s.name));
}

/** True when a programme is aimed at sectors the question never mentions. */
export function outOfSector(programme: string[], question: Set<string>): boolean {
  return programme.length > 0 && !programme.some((s) => question.has(s));
}
