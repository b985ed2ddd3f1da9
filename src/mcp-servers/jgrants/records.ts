/** Record helpers shared by both sources: instants, acceptance status, list-item projection, portal URL. */
import type { Attachment, JgrantsRecord } from "./types.ts";

/** The list-API fields, in the API's order: search results carry only these. */
export const LIST_FIELDS = [
  "id",
  "name",
  "title",
  "target_area_search",
  "subsidy_max_limit",
  "acceptance_start_datetime",
  "acceptance_end_datetime",
  "target_number_of_employees",
  "institution_name",
] as const;

/** The three attachment arrays of the detail API, with their Japanese names. */
export const ATTACHMENT_CATEGORIES = [
  "application_guidelines",
  "outline_of_grant",
  "application_form",
] as const;

const JST_END_OF_DAY = "T14:59:59.999Z";

/** Parses an ISO instant (both API spellings); null when absent or unparsable. */
export function parseInstant(value: unknown): number | null {
  if (typeof value !== "string" || value.trim() === "") return null;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? null : ms;
}

/** The end of the application window, using the snapshot's date-only helpers when the time is unknown. */
export function acceptanceEnd(record: JgrantsRecord): number | null {
  const exact = parseInstant(record.acceptance_end_datetime);
  if (exact !== null) return exact;
  // A JST date means "until 23:59 JST"; an unknown zone is read as JST, the portal's own zone.
  const jst = record._acceptance_end_date_jst ?? record._acceptance_end_date_unknown_tz;
  if (typeof jst === "string") return parseInstant(`${jst}${JST_END_OF_DAY}`);
  const utc = record._acceptance_end_date_utc;
  if (typeof utc === "string") return parseInstant(`${utc}T23:59:59.999Z`);
  return null;
}

/** The start of the application window (date-only helpers read as the start of that UTC day). */
export function acceptanceStart(record: JgrantsRecord): number | null {
  const exact = parseInstant(record.acceptance_start_datetime);
  if (exact !== null) return exact;
  const utc = record._acceptance_start_date_utc;
  return typeof utc === "string" ? parseInstant(`${utc}T00:00:00.000Z`) : null;
}

/** True when the window is open at `now`: started (or start unknown) and not yet ended. */
export function isAccepting(record: JgrantsRecord, now: number): boolean {
  const end = acceptanceEnd(record);
  if (end === null || end < now) return false;
  const start = acceptanceStart(record);
  return start === null || start <= now;
}

/** Four-valued status (our addition); the official `status` keeps its two values. */
export function acceptanceStatus(
  record: JgrantsRecord,
  now: number,
): "受付前" | "受付中" | "受付終了" | "不明" {
  const end = acceptanceEnd(record);
  if (end === null) return "不明";
  if (end < now) return "受付終了";
  const start = acceptanceStart(record);
  return start !== null && start > now ? "受付前" : "受付中";
}

/** The official status rule: "受付中" when the end is not in the past, else "受付終了". */
export function officialStatus(record: JgrantsRecord, now: number): "受付中" | "受付終了" {
  const end = acceptanceEnd(record);
  return end !== null && end >= now ? "受付中" : "受付終了";
}

/** Projects a record onto the list-API fields (search results never carry detail text or files). */
export function toListItem(record: JgrantsRecord): Record<string, unknown> {
  const item: Record<string, unknown> = {};
  for (const field of LIST_FIELDS) item[field] = record[field] ?? null;
  return { ...item, ...dateOnlyFields(record) };
}

const DATE_ONLY_SUFFIXES = ["utc", "jst", "unknown_tz"] as const;

/**
 * The snapshot's date-only acceptance fields (additive, underscore-named as in the data), for records whose
 * full datetime no source kept: without them a known deadline would read as unknown.
 */
export function dateOnlyFields(record: JgrantsRecord): Record<string, string> {
  const out: Record<string, string> = {};
  for (const which of ["start", "end"] as const) {
    if (record[`acceptance_${which}_datetime`]) continue;
    for (const suffix of DATE_ONLY_SUFFIXES) {
      const key = `_acceptance_${which}_date_${suffix}`;
      const value = record[key];
      if (typeof value === "string") out[key] = value;
    }
  }
  return out;
}

/** The portal page of a subsidy, preferring the API's own URL. */
export function portalUrl(record: JgrantsRecord): string {
  const given = record.front_subsidy_detail_page_url;
  if (typeof given === "string" && /^https?:\/\//.test(given)) return given;
  return `https://www.jgrants-portal.go.jp/subsidy/${encodeURIComponent(record.id)}`;
}

/** The official server's file-name sanitising: characters unsafe in paths and spaces become "_". */
export function safeFileName(name: string, fallback: string): string {
  const safe = name.replace(/[<>:"|?*\\/]/g, "_").replace(/ /g, "_");
  return safe === "" || safe === "_" ? fallback : safe;
}

/** Decoded size of a base64 string, computed without decoding it. */
export function base64Size(data: string): number {
  const clean = data.replace(/[\s]/g, "");
  const padding = clean.endsWith("==") ? 2 : clean.endsWith("=") ? 1 : 0;
  return Math.max(0, Math.floor((clean.length * 3) / 4) - padding);
}

/** Finds an attachment by its sanitised or original name across the three categories. */
export function findAttachment(record: JgrantsRecord, filename: string): Attachment | undefined {
  for (const category of ATTACHMENT_CATEGORIES) {
    const list = record[category];
    if (!Array.isArray(list)) continue;
    for (const [index, file] of list.entries()) {
      const original = file?.name ?? "";
      if (original === filename || safeFileName(original, `${category}_${index + 1}.pdf`) === filename) {
        return file;
      }
    }
  }
  return undefined;
}
