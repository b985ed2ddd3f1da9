/**
 * Hard filters, kept apart from scoring: area (a prefecture means it, its cities and 全国; a city means that
 * city, its prefecture-wide programmes and 全国, never another city's), head count, industry, and the window.
 */
import type { CatalogEntry } from "./entry.ts";

export interface CatalogFilters {
  /** A prefecture (東京都) or 全国. */
  area?: string;
  /** A city, ward, town or village (福岡市, 宗像市, 港区). */
  city?: string;
  /** The business's head count. */
  employees?: number;
  /** A jGrants industry name (宿泊業、飲食サービス業). */
  industry?: string;
  /** Open on this instant (default: now). Ignored with includeClosed. */
  openOn?: number;
  /** Keep closed and upcoming ones too. */
  includeClosed?: boolean;
  /** Keep upcoming (受付前) ones as well as open ones. */
  includeUpcoming?: boolean;
  /** Only those whose deadline is on or before this instant. */
  closesBy?: number;
  /** Keep procedural pages (withdrawal notices, 交付申請等 …). */
  includeProcedural?: boolean;
}

function areaOk(entry: CatalogEntry, area: string | undefined, city: string | undefined): boolean {
  if (city && entry.city && entry.city !== city) return false;
  if (!area) return true;
  if (entry.areas.length === 0) return true;
  return entry.areas.includes("全国") || entry.areas.includes(area);
}

function windowOk(entry: CatalogEntry, f: CatalogFilters, now: number): boolean {
  if (f.closesBy !== undefined && (entry.end === null || entry.end > f.closesBy)) return false;
  if (f.includeClosed) return true;
  if (entry.end === null || entry.end < now) return false;
  const started = entry.start === null || entry.start <= now;
  return started || f.includeUpcoming === true;
}

/** True when the entry passes every filter. */
export function passes(entry: CatalogEntry, f: CatalogFilters, now: number): boolean {
  if (entry.procedural && !f.includeProcedural) return false;
  if (!areaOk(entry, f.area, f.city)) return false;
  if (f.employees !== undefined && entry.employees) {
    if (f.employees < entry.employees.min || f.employees > entry.employees.max) return false;
  }
  if (f.industry && entry.industries.length > 0 && !entry.industries.includes(f.industry)) return false;
  return windowOk(entry, f, now);
}
