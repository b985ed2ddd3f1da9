/**
 * The fields a details answer adds (attachments by name, project end date, multiple applications), and
 * two readings that need judgement: whether 実施機関 names an institution or only the programme, and the
 * city of a city's programme.
 */
import type { DisplayDate, SubsidyAttachment } from "../types.ts";
import { dateOnlyDisplay, toJstDisplay } from "./format.ts";

type Rec = Record<string, unknown>;
const isRecord = (v: unknown): v is Rec => typeof v === "object" && v !== null && !Array.isArray(v);

/** The API's attachment arrays, in the order users look for them. */
const ATTACHMENT_KINDS: Record<string, string> = {
  application_guidelines: "公募要領",
  outline_of_grant: "交付要綱",
  application_form: "申請様式",
};

const fileName = (file: unknown): string | null => {
  if (typeof file === "string") return file.trim() || null;
  if (!isRecord(file)) return null;
  for (const key of ["original_name", "name", "filename"]) {
    const v = file[key];
    if (typeof v === "string" && v.trim()) return v.trim();
  }
  return null;
};

/**
 * Attachments by name: the REST detail's arrays ({name, data}), or a `files` map by category (our server's
 * and the official server's shape). Never the base64 bodies; at most 20 names.
 */
export function attachmentsOf(rec: Rec): SubsidyAttachment[] {
  const out: SubsidyAttachment[] = [];
  const seen = new Set<string>();
  const add = (category: string, list: unknown) => {
    if (!Array.isArray(list)) return;
    for (const file of list) {
      const name = fileName(file);
      if (!name || seen.has(name)) continue;
      seen.add(name);
      out.push({ kind: ATTACHMENT_KINDS[category] ?? category, name });
    }
  };
  const files = isRecord(rec.files) ? rec.files : {};
  for (const category of Object.keys(ATTACHMENT_KINDS)) {
    add(category, rec[category]);
    add(category, files[category]);
  }
  for (const [category, list] of Object.entries(files))
    if (!(category in ATTACHMENT_KINDS)) add(category, list);
  return out.slice(0, 20);
}

/** 事業終了期限: the full datetime, or the snapshot's date-only helper. */
export function projectEndOf(rec: Rec): DisplayDate | null {
  const full = rec.project_end_deadline ?? rec.projectEndDeadline;
  const shown = typeof full === "string" ? toJstDisplay(full) : null;
  if (shown) return shown;
  const day = rec._project_end_date_jst;
  return typeof day === "string" ? dateOnlyDisplay(day, "end") : null;
}

/** 複数回申請: true/false, or null when the record does not say. */
export function multipleApplicationsOf(rec: Rec): boolean | null {
  const v = rec.is_enable_multiple_request ?? rec.isEnableMultipleRequest;
  if (typeof v === "boolean") return v;
  if (v === "true" || v === "1" || v === 1) return true;
  if (v === "false" || v === "0" || v === 0) return false;
  return null;
}

/** Words that make a name a programme (制度), not an institution (機関). */
const PROGRAMME_WORDS =
  /補助|助成|奨励|事業|制度|交付金|給付金|支援金|基金|利子補給|条例|プログラム|募集|^P\d|【/;
/** How institution names end: ministries, local governments, agencies, chambers, foundations. */
const INSTITUTION_END =
  /(省|庁|府|県|都|道|市|区|町|村|機構|協会|財団|センター|局|部|課|室|公社|会議所|商工会|連合会|事務局|法人|組合|振興会|本部|委員会|公庫|大学|研究所)$/;

/**
 * The 実施機関 to show, or null: jGrants' `institution_name` often holds the programme's own name
 * (「ものづくり補助金」), which is not an institution and would only repeat the title.
 */
export function institutionOf(name: string | null): string | null {
  if (!name) return null;
  const n = name.trim();
  if (!n || PROGRAMME_WORDS.test(n) || !INSTITUTION_END.test(n)) return null;
  return n;
}

/** A 市区町村 name at the start of a text (「宗像市がんばる…」→ 宗像市), not words like 都市 or 市町村. */
const CITY_AT_START = /^([一-龥々ぁ-んァ-ヶー]{1,6}?[市区町村])(?!町村|区町村|場|民|内|街|況)/;
const NOT_CITIES = new Set(["都市", "市町村", "区市町村", "各市", "全市", "市区", "特別区"]);

function cityIn(text: string, prefecture: string): string | null {
  const bracket = /【([^】]{2,16})】/.exec(text)?.[1];
  for (const candidate of [bracket, text]) {
    if (!candidate) continue;
    const rest = candidate.startsWith(prefecture) ? candidate.slice(prefecture.length) : candidate;
    const m = CITY_AT_START.exec(rest);
    const city = m?.[1];
    if (city && !NOT_CITIES.has(city) && city !== prefecture && !/[都道府県]$/.test(city)) return city;
  }
  return null;
}

/**
 * The city of a city's programme, read from the title (「【福岡県宗像市】…」「宗像市創業応援補助金」) or the
 * programme name, when the area is a single prefecture. Null for national and prefectural programmes.
 */
export function cityOf(title: string, programme: string | null, area: string | null): string | null {
  if (!area || !/^[^/\s]{2,4}[都道府県]$/.test(area.trim())) return null;
  const prefecture = area.trim();
  return cityIn(title, prefecture) ?? (programme ? cityIn(programme, prefecture) : null);
}
