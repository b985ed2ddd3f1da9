/** Calendar arithmetic in Asia/Tokyo. JST has no daylight saving, so a fixed +9 h offset is exact. */

const JST_OFFSET_MS = 9 * 3_600_000;
const WEEKDAYS = ["日", "月", "火", "水", "木", "金", "土"];

const pad = (n: number) => String(n).padStart(2, "0");

/** The JST calendar view of a moment. */
export function jstParts(at: Date) {
  const shifted = new Date(at.getTime() + JST_OFFSET_MS);
  const y = shifted.getUTCFullYear();
  const m = shifted.getUTCMonth() + 1;
  const d = shifted.getUTCDate();
  const date = `${y}-${pad(m)}-${pad(d)}`;
  const weekday = WEEKDAYS[shifted.getUTCDay()]!;
  const time = `${pad(shifted.getUTCHours())}:${pad(shifted.getUTCMinutes())}`;
  const lastDay = new Date(Date.UTC(y, m, 0)).getUTCDate();
  return {
    date,
    time,
    weekday,
    /** e.g. "2026/11/30(月) 04:44" */
    jst: `${y}/${pad(m)}/${pad(d)}(${weekday}) ${time}`,
    monthStart: `${y}-${pad(m)}-01`,
    monthEnd: `${y}-${pad(m)}-${pad(lastDay)}`,
  };
}

/** A YYYY-MM-DD in JST from "YYYY-MM-DD" (taken as a JST date) or an ISO datetime; undefined when invalid. */
export function parseDateInput(input: string): string | undefined {
  const trimmed = input.trim();
  const plain = /^(\d{4})-(\d{2})-(\d{2})$/.exec(trimmed) ?? /^(\d{4})\/(\d{1,2})\/(\d{1,2})$/.exec(trimmed);
  if (plain) {
    const [y, m, d] = [Number(plain[1]), Number(plain[2]), Number(plain[3])];
    const check = new Date(Date.UTC(y, m - 1, d));
    if (check.getUTCMonth() !== m - 1 || check.getUTCDate() !== d) return undefined;
    return `${y}-${pad(m)}-${pad(d)}`;
  }
  if (!/^\d{4}-\d{2}-\d{2}T/.test(trimmed)) return undefined;
  const at = new Date(trimmed);
  return Number.isNaN(at.getTime()) ? undefined : jstParts(at).date;
}

/** Whole calendar days from `from` to `to` (both YYYY-MM-DD). */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

/** The fiscal year (April–March) containing a YYYY-MM-DD date, with its era label. */
export function fiscalYearOf(date: string) {
  const [y, m] = date.split("-").map(Number) as [number, number];
  const fiscalYear = m >= 4 ? y : y - 1;
  const reiwa = fiscalYear - 2018;
  const label = reiwa >= 1 ? `令和${reiwa === 1 ? "元" : reiwa}年度` : `平成${fiscalYear - 1988}年度`;
  return { fiscalYear, label, start: `${fiscalYear}-04-01`, end: `${fiscalYear + 1}-03-31` };
}
