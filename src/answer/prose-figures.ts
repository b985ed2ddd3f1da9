/**
 * The figures a user might act on, read out of Japanese text: amounts (「1,000万円」「1億5千万円」「999億」),
 * rates (「2/3」「3分の2」「50%」) and dates (「2026年8月31日」「8月31日」「2026/08/31」「12/17」). The prose
 * guard reads them from the model's prose and from the shown data, and lets through only the ones the data
 * has. Values are normalised (yen, reduced fractions, month-day) so that 「3分の2」 matches 「2/3」.
 */

/** One figure, as its comparable keys ("yen:10000000", "rate:2/3", "date:8-31"): any one may match. */
export type Figure = string[];

const UNITS: Record<string, number> = { 兆: 1e12, 億: 1e8, 万: 1e4, 千: 1e3 };
const num = (text: string) => Number(text.replace(/[,，]/g, ""));

/** Compound amounts such as 「1億5,000万円」, 「300万」, 「50,000円」 (a bare number needs 円). */
const AMOUNT = /(?:\d[\d,，]*(?:\.\d+)?\s*[兆億万千]\s*)+(?:\d[\d,，]*\s*)?円?|\d[\d,，]*(?:\.\d+)?\s*円/g;
const YMD = /(\d{4})\s*[年/\-.]\s*(\d{1,2})\s*[月/\-.]\s*(\d{1,2})\s*日?/g;
const MD_KANJI = /(\d{1,2})\s*月\s*(\d{1,2})\s*日/g;
const FRACTION = /(\d{1,3})\s*\/\s*(\d{1,3})(?![\d/])/g;
const BUNNO = /(\d{1,3})\s*分の\s*(\d{1,3})/g;
const PERCENT = /(\d{1,3}(?:\.\d+)?)\s*[%％]/g;

function amountYen(text: string): number | null {
  let total = 0;
  let rest = text.replace(/[\s円]/g, "");
  for (const [unit, value] of Object.entries(UNITS)) {
    const at = rest.indexOf(unit);
    if (at < 0) continue;
    total += num(rest.slice(0, at)) * value;
    rest = rest.slice(at + 1);
  }
  if (rest) total += num(rest);
  return Number.isFinite(total) && total > 0 ? Math.round(total) : null;
}

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}

function rateKey(numerator: number, denominator: number): string | null {
  if (denominator === 0 || numerator > denominator) return null;
  if (numerator === denominator) return "rate:1/1";
  const g = gcd(numerator, denominator);
  return `rate:${numerator / g}/${denominator / g}`;
}

/** Reads the figures of a text (NFKC-normalised first, so full-width digits count). */
export function readFigures(raw: string): Figure[] {
  let text = raw.normalize("NFKC");
  const figures: Figure[] = [];
  const take = (keys: Array<string | null>) => {
    const kept = keys.filter((k): k is string => k !== null);
    if (kept.length > 0) figures.push(kept);
    return " ";
  };
  // Dates first, and blanked out, so that 「2026/08/31」 is not also read as a fraction or an amount.
  text = text.replace(YMD, (_m, y: string, m: string, d: string) =>
    take([`date:${y}-${Number(m)}-${Number(d)}`, `date:${Number(m)}-${Number(d)}`]),
  );
  text = text.replace(MD_KANJI, (_m, m: string, d: string) => take([`date:${Number(m)}-${Number(d)}`]));
  text = text.replace(BUNNO, (_m, d: string, n: string) => take([rateKey(Number(n), Number(d))]));
  // 「12/17」 may be a rate or a date: it stands for both, and either may match.
  text = text.replace(FRACTION, (_m, a: string, b: string) => {
    const [x, y] = [Number(a), Number(b)];
    return take([rateKey(x, y), x >= 1 && x <= 12 && y >= 1 && y <= 31 ? `date:${x}-${y}` : null]);
  });
  text = text.replace(PERCENT, (_m, p: string) => take([`percent:${Number(p)}`]));
  for (const match of text.matchAll(AMOUNT)) {
    const yen = amountYen(match[0]);
    if (yen !== null) figures.push([`yen:${yen}`]);
  }
  return figures;
}

/** Every key the data's figures stand for; a fraction also stands for its percentage (2/3 = 66.7%). */
export function knownKeys(figures: Figure[]): Set<string> {
  const keys = new Set(figures.flat());
  for (const key of [...keys]) {
    const fraction = /^rate:(\d+)\/(\d+)$/.exec(key);
    if (fraction) keys.add(`percent:${Math.round((Number(fraction[1]) / Number(fraction[2])) * 1000) / 10}`);
  }
  return keys;
}

/** The figures of the prose that the data does not have (as their first key, for the log). */
export function unknownFigures(claimed: Figure[], known: Set<string>): string[] {
  return claimed.filter((keys) => !keys.some((k) => known.has(k))).map((keys) => keys[0] ?? "");
}
