/**
 * What the catalog keeps of an API record: attachments reduced to names and sizes (the detail API sends
 * whole files as base64, often megabytes), and a stable hash of the list-API fields to detect changes.
 */
import { createHash } from "node:crypto";
import { htmlToPlainText } from "../../mcp-servers/jgrants/format-detail.ts";
import { ATTACHMENT_CATEGORIES, base64Size, LIST_FIELDS } from "../../mcp-servers/jgrants/records.ts";
import type { JgrantsRecord } from "../../mcp-servers/jgrants/types.ts";

/** A stored attachment: its name and decoded size; get_file_content fetches the body on demand. */
export interface StoredAttachment {
  name: string | null;
  size?: number;
}

/** A copy of the record whose attachment items keep only `name` and `size`. */
export function stripAttachments(record: JgrantsRecord): JgrantsRecord {
  const out: JgrantsRecord = { ...record };
  for (const category of ATTACHMENT_CATEGORIES) {
    const list = record[category];
    if (!Array.isArray(list)) continue;
    out[category] = list.map((file) => {
      const item: StoredAttachment = { name: typeof file?.name === "string" ? file.name : null };
      if (typeof file?.data === "string" && file.data !== "") item.size = base64Size(file.data);
      else if (typeof (file as StoredAttachment | null)?.size === "number")
        item.size = (file as StoredAttachment).size;
      return item;
    });
  }
  return out;
}

/** Longest `_detail_text` kept (the snapshot keeps 1,500 characters). */
export const DETAIL_TEXT_MAX = 3_000;

/**
 * A detail record as the catalog stores it: attachments stripped, and `_detail_text`, the plain text of the
 * detail HTML (as in the snapshot), for the search index.
 */
export function storedDetail(record: JgrantsRecord): JgrantsRecord {
  const out = stripAttachments(record);
  if (typeof record.detail === "string" && record.detail !== "") {
    const text = htmlToPlainText(record.detail).replace(/\s+/g, " ").trim();
    out._detail_text = text.length > DETAIL_TEXT_MAX ? `${text.slice(0, DETAIL_TEXT_MAX - 1)}…` : text;
  } else {
    delete out._detail_text;
  }
  return out;
}

/** Hash of the list-API fields of an item: a different value means the record changed. */
export function listHash(item: Record<string, unknown>): string {
  const fields = LIST_FIELDS.map((field) => item[field] ?? null);
  return createHash("sha1").update(JSON.stringify(fields)).digest("hex");
}

/** The list fields of an item laid over a stored record (list values are the newer ones). */
export function mergeListItem(base: JgrantsRecord | undefined, item: Record<string, unknown>): JgrantsRecord {
  const merged: JgrantsRecord = { ...(base ?? {}), id: String(item.id) };
  for (const field of LIST_FIELDS) if (field in item) merged[field] = item[field] as never;
  return merged;
}
