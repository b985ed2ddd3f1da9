/** The fixed benchmark questions: multi-keyword, plus one that needs a zero-hit retry. */
export interface BenchQuestion {
  question: string;
  /** What a planner would search first (one call per keyword). */
  keywords: string[];
  /** What it searches after zero hits. */
  broader?: string[];
}

export const QUESTIONS: BenchQuestion[] = [
  { question: "事業承継やM&Aに使える補助金を教えて", keywords: ["事業承継", "M&A"] },
  { question: "省エネ設備や脱炭素の投資に使える補助金は？", keywords: ["省エネ", "脱炭素"] },
  { question: "創業・起業したばかりの会社向けの支援金", keywords: ["創業", "起業"] },
  { question: "観光やインバウンド対応の補助金を探して", keywords: ["観光", "インバウンド"] },
  {
    question: "量子コンピュータ導入の補助金はある？",
    keywords: ["量子コンピュータ"],
    broader: ["DX", "デジタル"],
  },
];
