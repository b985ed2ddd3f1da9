/** Shapes one jGrants record into the official get_subsidy_detail result, plus our additive fixes. */
import { compile } from "html-to-text";
import {
  ATTACHMENT_CATEGORIES,
  acceptanceStatus,
  base64Size,
  dateOnlyFields,
  officialStatus,
  portalUrl,
  safeFileName,
} from "./records.ts";
import type { DataSourceInfo, JgrantsRecord, ToolPayload } from "./types.ts";

const CATEGORY_LABELS: Record<(typeof ATTACHMENT_CATEGORIES)[number], string> = {
  application_guidelines: "申請ガイドライン",
  outline_of_grant: "補助金概要",
  application_form: "申請書",
};

// Compiled once: convert() would build its selector tree again on every call (most of a detail's cost).
const convertDetailHtml = compile({
  wordwrap: false,
  selectors: [
    { selector: "img", format: "skip" },
    { selector: "a", options: { hideLinkHrefIfSameAsText: true } },
  ],
});

/** Plain text of the detail HTML (links kept as text, images dropped). */
export function htmlToPlainText(html: string): string {
  return convertDetailHtml(html).trim();
}

/**
 * Plain texts of recently shown details, by their HTML, least recently used dropped first. Popular
 * programmes are shown again and again, and converting is most of a detail's cost. The key is the HTML
 * itself, so a record whose HTML changed converts afresh. Bounded by characters held (HTML and text).
 */
const DETAIL_TEXTS_MAX_CHARS = 1_000_000;
const detailTexts = new Map<string, string>();
let detailTextChars = 0;

function detailText(html: string): string {
  const known = detailTexts.get(html);
  if (known !== undefined) {
    detailTexts.delete(html);
    detailTexts.set(html, known);
    return known;
  }
  const text = htmlToPlainText(html);
  detailTexts.set(html, text);
  detailTextChars += html.length + text.length;
  for (const [oldest, oldText] of detailTexts) {
    if (detailTextChars <= DETAIL_TEXTS_MAX_CHARS) break;
    detailTexts.delete(oldest);
    detailTextChars -= oldest.length + oldText.length;
  }
  return text;
}

/** The `files` map: names and sizes only, never the base64 bodies. */
function describeFiles(record: JgrantsRecord, subsidyId: string): Record<string, unknown[]> {
  const files: Record<string, unknown[]> = {};
  for (const category of ATTACHMENT_CATEGORIES) {
    const list = record[category];
    if (!Array.isArray(list) || list.length === 0) continue;
    files[category] = list.map((file, index) => {
      const original = typeof file?.name === "string" ? file.name : "";
      const name = safeFileName(original, `${CATEGORY_LABELS[category]}_${index + 1}.pdf`);
      const hasData = typeof file?.data === "string" && file.data.length > 0;
      // The live catalog keeps names and sizes only; the body is still fetched on demand.
      const stored = (file as { size?: unknown } | null)?.size;
      const size = hasData ? base64Size(file.data as string) : typeof stored === "number" ? stored : null;
      return {
        name,
        original_name: original || name,
        size,
        ...(size !== null ? {} : { content_available: false }),
        mcp_access: {
          tool: "get_file_content",
          params: { subsidy_id: subsidyId, filename: name },
          description: "このファイルにアクセスするには get_file_content ツールを使用してください",
        },
      };
    });
  }
  return files;
}

/** The detail result: the official keys first, then the fields the official server leaves out. */
export function formatDetail(record: JgrantsRecord, now: number, dataSource: DataSourceInfo): ToolPayload {
  const id = record.id;
  const html = typeof record.detail === "string" ? record.detail : "";
  const portal = portalUrl(record);
  return {
    id,
    title: record.title ?? "",
    description: html,
    subsidy_max_limit: record.subsidy_max_limit ?? null,
    acceptance_start: record.acceptance_start_datetime ?? null,
    acceptance_end: record.acceptance_end_datetime ?? null,
    target: {
      area: record.target_area_search ?? null,
      industry: record.industry ?? record.target_industry ?? null,
      employees: record.target_number_of_employees ?? null,
      purpose: record.use_purpose ?? null,
    },
    application_url: record.inquiry_url ?? portal,
    last_updated: record.update_datetime ?? null,
    status: officialStatus(record, now),
    files: describeFiles(record, id),
    save_directory: null,
    // Additive fields (absent from the official server).
    name: record.name ?? null,
    description_text: html ? detailText(html) : "",
    description_truncated: record._detail_truncated === true,
    acceptance_status: acceptanceStatus(record, now),
    subsidy_rate: record.subsidy_rate ?? null,
    subsidy_catch_phrase: record.subsidy_catch_phrase ?? null,
    use_purpose: record.use_purpose ?? null,
    industry: record.industry ?? null,
    target_area_detail: record.target_area_detail ?? null,
    project_end_deadline: record.project_end_deadline ?? null,
    institution_name: record.institution_name ?? null,
    request_reception_presence: record.request_reception_presence ?? null,
    is_enable_multiple_request: record.is_enable_multiple_request ?? null,
    portal_url: portal,
    ...dateOnlyFields(record),
    data_source: dataSource,
  };
}
