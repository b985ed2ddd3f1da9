/**
 * The formatting rules users act on: amounts in 万円/億円, UTC → Asia/Tokyo dates, acceptance status and
 * days left. Pure functions of their inputs (and an injected "now"), so every renderer shows the same text.
 */
import type { DisplayDate, SubsidyStatus } from "../types.ts";

const JST_OFFSET_MS = 9 * 60 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;
const WEEKDAYS = ["日", "月", "火", "水", "木", "金", "土"];

/** Shown when the amount is 0 or missing: jGrants uses 0 for "not set", not for ¥0. */
export const AMOUNT_UNSET = "公募要領を確認";

/** 1234567 → "1,234,567" (a regex: toLocaleString is slow enough to matter over hundreds of hits). */
const group = (n: number): string => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ",");

/** Yen as Japanese users read it: 1,500万円, 1億2,000万円, 123万4,567円; 0/null → 公募要領を確認. */
export function formatAmount(yen: number | null | undefined): string {
  if (yen === null || yen === undefined || !Number.isFinite(yen) || yen <= 0) return AMOUNT_UNSET;
  const whole = Math.round(yen);
  const oku = Math.floor(whole / 100_000_000);
  const man = Math.floor((whole % 100_000_000) / 10_000);
  const rest = whole % 10_000;
  let text = "";
  if (oku > 0) text += `${group(oku)}億`;
  if (man > 0) text += `${group(man)}万`;
  if (rest > 0) text += group(rest);
  return `${text}円`;
}

/** A date-only value (YYYY-MM-DD). */
const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Parses the API's datetimes: "…T08:30:00.000Z", "…T08:30Z", "…T08:30:00" (UTC assumed), offsets. */
export function parseApiDate(iso: string | null | undefined): Date | null {
  if (typeof iso !== "string") return null;
  let s = iso.trim();
  if (s === "") return null;
  if (DATE_ONLY.test(s)) s = `${s}T00:00:00Z`;
  else if (/^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(s)) s = `${s.replace(" ", "T")}Z`;
  const t = Date.parse(s);
  return Number.isNaN(t) ? null : new Date(t);
}

/** The Asia/Tokyo calendar parts of a moment (Japan has no DST, so a fixed offset is exact). */
function jstParts(d: Date): { y: number; m: number; day: number; wd: string; hh: number; mm: number } {
  const j = new Date(d.getTime() + JST_OFFSET_MS);
  return {
    y: j.getUTCFullYear(),
    m: j.getUTCMonth() + 1,
    day: j.getUTCDate(),
    wd: WEEKDAYS[j.getUTCDay()] ?? "",
    hh: j.getUTCHours(),
    mm: j.getUTCMinutes(),
  };
}

const pad = (n: number): string => String(n).padStart(2, "0");

/** "2026/12/17(木)" in Asia/Tokyo. */
export function jstDateText(d: Date): string {
  const p = jstParts(d);
  return `${p.y}/${pad(p.m)}/${pad(p.day)}(${p.wd})`;
}

/** YYYY-MM-DD of a moment in Asia/Tokyo. */
export function jstDayKey(d: Date): string {
  const p = jstParts(d);
  return `${p.y}-${pad(p.m)}-${pad(p.day)}`;
}

/** A UTC ISO string as shown to users: "2026/12/17(木) 23:59" in Asia/Tokyo; null when unparseable. */
export function toJstDisplay(iso: string | null | undefined): DisplayDate | null {
  const d = parseApiDate(iso);
  if (!d || typeof iso !== "string") return null;
  const p = jstParts(d);
  return { iso: iso.trim(), jst: `${jstDateText(d)} ${pad(p.hh)}:${pad(p.mm)}` };
}

/**
 * A date known only by its day (the snapshot's `_acceptance_end_date_*` helpers). The instant is the end
 * (23:59 JST) or the start (00:00 JST) of that day; the display has no time, since none is known.
 */
export function dateOnlyDisplay(date: string | null | undefined, edge: "start" | "end"): DisplayDate | null {
  if (typeof date !== "string") return null;
  const m = DATE_ONLY.exec(date.trim().slice(0, 10));
  if (!m) return null;
  const instant = Date.parse(`${m[1]}-${m[2]}-${m[3]}T${edge === "end" ? "23:59:00" : "00:00:00"}+09:00`);
  if (Number.isNaN(instant)) return null;
  const d = new Date(instant);
  return { iso: d.toISOString(), jst: jstDateText(d) };
}

type DateInput = string | DisplayDate | null | undefined;
const toDate = (v: DateInput): Date | null => parseApiDate(typeof v === "object" && v ? v.iso : v);

/** 受付前 / 受付中 / 受付終了 at `now`; 不明 when neither date is known. */
export function statusOf(start: DateInput, end: DateInput, now: Date): SubsidyStatus {
  const s = toDate(start);
  const e = toDate(end);
  if (e && now.getTime() > e.getTime()) return "受付終了";
  if (s && now.getTime() < s.getTime()) return "受付前";
  if (s || e) return "受付中";
  return "不明";
}

/** Calendar days in Asia/Tokyo from now until the deadline (0 = today); null when unknown or passed. */
export function daysLeft(endIso: DateInput, now: Date): number | null {
  const e = toDate(endIso);
  if (!e || now.getTime() > e.getTime()) return null;
  const dayNo = (d: Date) => Math.floor((d.getTime() + JST_OFFSET_MS) / DAY_MS);
  return dayNo(e) - dayNo(now);
}

/** The jGrants portal page of a subsidy. */
export function portalUrl(id: string): string {
  return `https://www.jgrants-portal.go.jp/subsidy/${encodeURIComponent(id)}`;
}
