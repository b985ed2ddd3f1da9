/**
 * Place names in a question → the jGrants `target_area_search` value: prefectures (with or without
 * 都/府/県), major cities and wards (→ their prefecture), regions and 全国.
 */

export const PREFECTURES = [
  "北海道", "青森県", "岩手県", "宮城県", "秋田県", "山形県", "福島県",
  "茨城県", "栃木県", "群馬県", "埼玉県", "千葉県", "東京都", "神奈川県",
  "新潟県", "富山県", "石川県", "福井県", "山梨県", "長野県",
  "岐阜県", "静岡県", "愛知県", "三重県",
  "滋賀県", "京都府", "大阪府", "兵庫県", "奈良県", "和歌山県",
  "鳥取県", "島根県", "岡山県", "広島県", "山口県",
  "徳島県", "香川県", "愛媛県", "高知県",
  "福岡県", "佐賀県", "長崎県", "熊本県", "大分県", "宮崎県", "鹿児島県", "沖縄県",
]; // biome-ignore format: one line per region reads best

const CITIES: Record<string, string> = {
  札幌: "北海道",
  旭川: "北海道",
  函館: "北海道",
  仙台: "宮城県",
  盛岡: "岩手県",
  郡山: "福島県",
  いわき: "福島県",
  宇都宮: "栃木県",
  前橋: "群馬県",
  高崎: "群馬県",
  水戸: "茨城県",
  つくば: "茨城県",
  さいたま: "埼玉県",
  川越: "埼玉県",
  船橋: "千葉県",
  柏市: "千葉県",
  横浜: "神奈川県",
  川崎: "神奈川県",
  相模原: "神奈川県",
  横須賀: "神奈川県",
  藤沢: "神奈川県",
  鎌倉: "神奈川県",
  八王子: "東京都",
  町田: "東京都",
  立川: "東京都",
  武蔵野: "東京都",
  渋谷: "東京都",
  新宿: "東京都",
  港区: "東京都",
  品川: "東京都",
  世田谷: "東京都",
  千代田: "東京都",
  中央区: "東京都",
  台東: "東京都",
  墨田: "東京都",
  江東: "東京都",
  大田区: "東京都",
  目黒: "東京都",
  杉並: "東京都",
  練馬: "東京都",
  板橋: "東京都",
  足立: "東京都",
  葛飾: "東京都",
  江戸川: "東京都",
  豊島: "東京都",
  池袋: "東京都",
  中野区: "東京都",
  文京: "東京都",
  荒川区: "東京都",
  北区: "東京都",
  新潟市: "新潟県",
  金沢: "石川県",
  富山市: "富山県",
  甲府: "山梨県",
  松本: "長野県",
  浜松: "静岡県",
  静岡市: "静岡県",
  名古屋: "愛知県",
  豊田: "愛知県",
  岡崎: "愛知県",
  岐阜市: "岐阜県",
  四日市: "三重県",
  津市: "三重県",
  大津: "滋賀県",
  京都市: "京都府",
  大阪市: "大阪府",
  堺: "大阪府",
  東大阪: "大阪府",
  豊中: "大阪府",
  吹田: "大阪府",
  枚方: "大阪府",
  神戸: "兵庫県",
  姫路: "兵庫県",
  西宮: "兵庫県",
  尼崎: "兵庫県",
  奈良市: "奈良県",
  和歌山市: "和歌山県",
  岡山市: "岡山県",
  倉敷: "岡山県",
  広島市: "広島県",
  福山: "広島県",
  下関: "山口県",
  松山: "愛媛県",
  高松: "香川県",
  高知市: "高知県",
  福岡市: "福岡県",
  北九州: "福岡県",
  久留米: "福岡県",
  博多: "福岡県",
  天神: "福岡県",
  熊本市: "熊本県",
  鹿児島市: "鹿児島県",
  長崎市: "長崎県",
  佐世保: "長崎県",
  大分市: "大分県",
  那覇: "沖縄県",
  宮崎市: "宮崎県",
  佐賀市: "佐賀県",
};

const REGIONS: Record<string, string> = {
  北海道地方: "北海道地方",
  東北: "東北地方",
  関東: "関東・甲信越地方",
  甲信越: "関東・甲信越地方",
  首都圏: "関東・甲信越地方",
  東海: "東海・北陸地方",
  北陸: "東海・北陸地方",
  近畿: "近畿地方",
  関西: "近畿地方",
  中国地方: "中国地方",
  山陰: "中国地方",
  山陽: "中国地方",
  四国: "四国地方",
  九州: "九州・沖縄地方",
  全国: "全国",
  都内: "東京都",
  道内: "北海道",
  日本全国: "全国",
  国内全域: "全国",
};

/** Spelling in a question → area value, longest spelling first (so 東京都 is never read as 京都). */
const AREA_WORDS: Array<[string, string]> = (() => {
  const pairs: Array<[string, string]> = [];
  for (const p of PREFECTURES) {
    pairs.push([p, p]);
    if (p !== "北海道") pairs.push([p.slice(0, -1), p]);
  }
  for (const [k, v] of Object.entries(CITIES)) pairs.push([k, v]);
  for (const [k, v] of Object.entries(REGIONS)) pairs.push([k, v]);
  return pairs.sort((a, b) => b[0].length - a[0].length);
})();

/** The prefecture of a city written in a record or a question (京都市 → 京都府), when the table knows it. */
export function prefectureOfCity(city: string): string | null {
  const bare = city.replace(/[市区町村]$/, "");
  return CITIES[city] ?? CITIES[bare] ?? null;
}

/** A city, ward, town or village named in a question (福岡市, 宗像市, 港区), or null. */
export function findCity(text: string): string | null {
  const m =
    /([\p{Script=Han}\p{Script=Katakana}\p{Script=Hiragana}ヶ]{1,5}?[市区町村])(?:内|の|で|に|から|在|にある|、|。|\s|$)/u.exec(
      PREFECTURES.reduce((t, p) => t.replaceAll(p, " "), text),
    );
  const city = m?.[1];
  if (
    !city ||
    /^(都|市|各|同|本|当|全|近隣|周辺|地|区|町|村|市区|市町)[市区町村]$|市場|都市|市町村/.test(city)
  )
    return null;
  return city;
}

/**
 * Plain area arguments → catalog filters: a city alone brings its prefecture when known; a prefecture
 * written without 都/府/県 gets it back.
 */
export function areaFilter(
  area: string | undefined,
  city: string | undefined,
): { area?: string; city?: string } {
  const out: { area?: string; city?: string } = {};
  if (city) {
    out.city = city.normalize("NFKC");
    const pref = prefectureOfCity(out.city);
    if (pref) out.area = pref;
  }
  if (area) {
    const a = area.normalize("NFKC").trim();
    const asCity = /[市区町村]$/.test(a) && !PREFECTURES.includes(a) ? a : null;
    if (asCity && !out.city) return areaFilter(undefined, asCity);
    out.area =
      PREFECTURES.includes(a) || a === "全国" ? a : (PREFECTURES.find((p) => p.slice(0, -1) === a) ?? a);
  }
  return out;
}

/** The first area named in the text, and the text with place names blanked out. */
export function findArea(text: string): { area: string | null; rest: string } {
  let rest = text;
  let first: { at: number; area: string } | null = null;
  for (const [word, area] of AREA_WORDS) {
    let at = rest.indexOf(word);
    while (at >= 0) {
      // A city written with its suffix (横浜市, 港区) is blanked whole.
      const end = at + word.length;
      const suffix = /^[市区町村]/.test(rest.slice(end)) ? 1 : 0;
      // A region's name inside a city's (東海市, 中国地方 aside) is the city, not the region.
      if (suffix && area.endsWith("地方")) {
        at = rest.indexOf(word, end);
        continue;
      }
      if (!first || at < first.at) first = { at, area };
      rest = `${rest.slice(0, at)}${"　".repeat(word.length + suffix)}${rest.slice(end + suffix)}`;
      at = rest.indexOf(word, end);
    }
  }
  return { area: first?.area ?? null, rest };
}
