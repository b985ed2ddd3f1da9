/** Allowed filter values of the jGrants list API, read from data/jgrants-enums.json. */
import { readFileSync } from "node:fs";

interface EnumsFile {
  sort: string[];
  order: string[];
  use_purpose: string[];
  industry: string[];
  target_number_of_employees: string[];
  target_area_search: { nationwide: string[]; regions: string[]; prefectures: string[]; overseas: string[] };
}

const raw = JSON.parse(
  readFileSync(new URL("./data/jgrants-enums.json", import.meta.url), "utf8"),
) as EnumsFile;

/** Allowed values per filter parameter (target_area_search flattened: 全国, regions, prefectures, 海外). */
export const FILTER_ENUMS = {
  use_purpose: raw.use_purpose,
  industry: raw.industry,
  target_number_of_employees: raw.target_number_of_employees,
  target_area_search: [
    ...raw.target_area_search.nationwide,
    ...raw.target_area_search.regions,
    ...raw.target_area_search.prefectures,
    ...raw.target_area_search.overseas,
  ],
} as const;

export type FilterName = keyof typeof FILTER_ENUMS;

export const SORT_VALUES = raw.sort;
export const ORDER_VALUES = raw.order;
