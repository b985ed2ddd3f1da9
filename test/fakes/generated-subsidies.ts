/**
 * Deterministic jGrants-shaped records in any number, for the sync tests and the bench: list fields plus
 * detail fields, broad words in every title (so the sync's keywords find them), some with base64
 * attachments, a mix of open, upcoming and closed windows around a given day.
 */
const PREFECTURES = ["全国", "東京都", "大阪府", "福岡県", "北海道", "愛知県", "京都府", "宮城県"];
const TOPICS = [
  ["省エネ設備導入", "補助金"],
  ["人材確保", "助成金"],
  ["創業", "支援事業"],
  ["販路開拓", "補助金"],
  ["DX推進", "奨励金"],
  ["事業承継", "補助金"],
  ["観光振興", "支援補助金"],
  ["研究開発", "助成事業"],
] as const;

const DAY = 86_400_000;

/** The id of the i-th generated record (18 characters, like the real ids). */
export function generatedId(i: number): string {
  return `a0WJ2000GEN${String(i).padStart(6, "0")}X`;
}

/** `count` records around `now`: most open, one in ten upcoming, one in ten closed. */
export function generateSubsidies(count: number, now: Date): Record<string, unknown>[] {
  const at = now.getTime();
  const out: Record<string, unknown>[] = [];
  for (let i = 0; i < count; i++) {
    const area = PREFECTURES[i % PREFECTURES.length]!;
    const [topic, kind] = TOPICS[i % TOPICS.length]!;
    const phase = i % 10;
    const start = phase === 8 ? at + 10 * DAY : at - 30 * DAY;
    const end = phase === 9 ? at - 2 * DAY : at + (20 + (i % 90)) * DAY;
    const attachment = i % 5 === 0;
    out.push({
      id: generatedId(i),
      name: `S-${String(100_000 + i)}`,
      title: `令和8年度 ${area} ${topic}${kind} 第${i + 1}号`,
      target_area_search: area,
      subsidy_max_limit: (i % 7) * 1_000_000,
      acceptance_start_datetime: new Date(start).toISOString(),
      acceptance_end_datetime: new Date(end).toISOString(),
      target_number_of_employees: i % 3 === 0 ? "20名以下" : "従業員数の制約なし",
      institution_name: `${area}産業振興課`,
      subsidy_catch_phrase: `${topic}に取り組む中小企業を応援します`,
      detail: `<p>${area}の中小企業による${topic}の取り組みを${kind}で支援します。</p>`,
      use_purpose: "設備整備・IT導入をしたい",
      industry: "製造業 / 卸売業、小売業",
      subsidy_rate: "1/2 以内",
      front_subsidy_detail_page_url: `https://www.jgrants-portal.go.jp/subsidy/${generatedId(i)}`,
      application_guidelines: attachment
        ? [{ name: `公募要領${i}.pdf`, data: Buffer.alloc(3_000 + i, i % 251).toString("base64") }]
        : [],
    });
  }
  return out;
}
