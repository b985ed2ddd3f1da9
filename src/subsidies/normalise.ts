/**
 * jGrants records → Subsidy. Reads the REST list/detail shapes, the official MCP server's detail shape
 * ({description, acceptance_start, target:{…}}) and our server's additive fields, leniently by name.
 */

import type { DataSource, DisplayDate, Subsidy, SubsidyStatus } from "../types.ts";
import {
  attachmentsOf,
  cityOf,
  institutionOf,
  multipleApplicationsOf,
  projectEndOf,
} from "./detail-fields.ts";
import { dateOnlyDisplay, daysLeft, formatAmount, portalUrl, statusOf, toJstDisplay } from "./format.ts";
import { rankingFields } from "./ranking-fields.ts";
import { summaryOf } from "./text.ts";

type Rec = Record<string, unknown>;

export const isRecord = (v: unknown): v is Rec => typeof v === "object" && v !== null && !Array.isArray(v);

/** The first non-empty string among the named fields. */
export function pickString(rec: Rec, ...names: string[]): string | null {
  for (const n of names) {
    const v = rec[n];
    if (typeof v === "string" && v.trim() !== "") return v.trim();
    if (Array.isArray(v) && v.length > 0 && v.every((x) => typeof x === "string")) return v.join(" / ");
  }
  return null;
}

/** The first finite number among the named fields (numeric strings accepted). */
function pickNumber(rec: Rec, ...names: string[]): number | null {
  for (const n of names) {
    const v = rec[n];
    if (typeof v === "number" && Number.isFinite(v)) return v;
    if (typeof v === "string" && /^\d+(\.\d+)?$/.test(v.trim())) return Number(v);
  }
  return null;
}

/** A jGrants id: 18 alphanumerics in practice; accept any short token to stay lenient. */
const ID_RE = /^[A-Za-z0-9_-]{5,40}$/;

const STATUSES: SubsidyStatus[] = ["受付前", "受付中", "受付終了"];

function dates(rec: Rec, which: "start" | "end"): DisplayDate | null {
  const full = pickString(
    rec,
    `acceptance_${which}_datetime`,
    `acceptance_${which}`,
    `acceptance${which === "start" ? "Start" : "End"}Datetime`,
  );
  const shown = toJstDisplay(full);
  if (shown) return shown;
  const dateOnly = pickString(
    rec,
    `_acceptance_${which}_date_utc`,
    `_acceptance_${which}_date_jst`,
    `_acceptance_${which}_date_unknown_tz`,
  );
  return dateOnlyDisplay(dateOnly, which);
}

/** The portal page: our server's field names first, then the REST field, then the known pattern. */
function urlOf(rec: Rec, id: string): string {
  const u = pickString(
    rec,
    "front_subsidy_detail_page_url",
    "portal_url",
    "url",
    "frontSubsidyDetailPageUrl",
  );
  return u && /^https:\/\//.test(u) ? u : portalUrl(id);
}

/** The shared reader of every record shape; `detailed` says whether it came from a detail call. */
function toSubsidy(raw: unknown, source: DataSource, now: Date, detailed: boolean): Subsidy | null {
  if (!isRecord(raw)) return null;
  const id = pickString(raw, "id", "subsidy_id");
  const title = pickString(raw, "title", "subsidy_title");
  if (!id || !ID_RE.test(id) || !title) return null;
  const target = isRecord(raw.target) ? raw.target : {};
  const yenRaw = pickNumber(raw, "subsidy_max_limit", "subsidyMaxLimit");
  const maxAmountYen = yenRaw && yenRaw > 0 ? yenRaw : null;
  const start = dates(raw, "start");
  const end = dates(raw, "end");
  let status = statusOf(start, end, now);
  const given = pickString(raw, "acceptance_status", "status");
  if (status === "不明" && given && (STATUSES as string[]).includes(given)) status = given as SubsidyStatus;
  const text = pickString(raw, "description_text", "detail_text", "_detail_text");
  const html = pickString(raw, "description", "detail");
  const area =
    pickString(raw, "target_area_search", "targetAreaSearch") ??
    pickString(target, "area") ??
    pickString(raw, "target_area_detail");
  const programme = pickString(raw, "institution_name", "institutionName");
  const attachments = attachmentsOf(raw);
  const city = pickString(raw, "city") ?? cityOf(title, programme, area);
  return {
    id,
    title,
    name: pickString(raw, "name") ?? undefined,
    maxAmountYen,
    maxAmountText: formatAmount(maxAmountYen),
    rate: pickString(raw, "subsidy_rate", "subsidyRate"),
    start,
    end,
    status,
    daysLeft: status === "受付終了" ? null : daysLeft(end, now),
    area,
    employees:
      pickString(raw, "target_number_of_employees", "targetNumberOfEmployees") ??
      pickString(target, "employees"),
    industry: pickString(raw, "industry") ?? pickString(target, "industry"),
    purpose: pickString(raw, "use_purpose", "usePurpose") ?? pickString(target, "purpose"),
    institution: institutionOf(programme),
    summary: summaryOf(
      pickString(raw, "subsidy_catch_phrase", "subsidyCatchPhrase", "catch_phrase"),
      text ?? html,
    ),
    url: urlOf(raw, id),
    source,
    detailed,
    ...rankingFields(raw),
    ...(city ? { city } : {}),
    ...(attachments.length > 0 ? { attachments } : {}),
    ...(detailed ? { projectEnd: projectEndOf(raw), multipleApplications: multipleApplicationsOf(raw) } : {}),
  };
}

/** A search-result item (REST list shape, or any richer record) → Subsidy; null when it has no id/title. */
export function subsidyFromListItem(item: unknown, source: DataSource, now: Date): Subsidy | null {
  return toSubsidy(item, source, now, false);
}

/** A detail record (REST detail, official MCP detail, or ours) → Subsidy marked detailed. */
export function subsidyFromDetail(detail: unknown, source: DataSource, now: Date): Subsidy | null {
  return toSubsidy(detail, source, now, true);
}

/** The list record enriched by its detail: detail values win where present, list values fill gaps. */
export function mergeSubsidy(base: Subsidy, detail: Subsidy): Subsidy {
  const pick = <K extends keyof Subsidy>(k: K): Subsidy[K] => {
    const d = detail[k];
    return d === null || d === undefined || d === "" ? base[k] : d;
  };
  const maxAmountYen = pick("maxAmountYen");
  return {
    ...base,
    title: pick("title"),
    name: pick("name"),
    maxAmountYen,
    maxAmountText: formatAmount(maxAmountYen),
    rate: pick("rate"),
    start: pick("start"),
    end: pick("end"),
    status: detail.status === "不明" ? base.status : detail.status,
    daysLeft: detail.end ? detail.daysLeft : base.daysLeft,
    // The list's " / "-joined area is the searchable one; the official detail drops separators.
    area: base.area ?? detail.area,
    employees: pick("employees"),
    industry: pick("industry"),
    purpose: pick("purpose"),
    institution: pick("institution"),
    summary: detail.summary.length >= base.summary.length ? detail.summary : base.summary,
    url: pick("url"),
    source: detail.source,
    detailed: true,
    city: base.city ?? detail.city,
    attachments: detail.attachments ?? base.attachments,
    projectEnd: detail.projectEnd ?? base.projectEnd ?? null,
    multipleApplications: detail.multipleApplications ?? base.multipleApplications ?? null,
  };
}
