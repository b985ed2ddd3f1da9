/** get_file_content: decodes one base64 attachment on demand and converts it to text, with size caps. */
import { htmlToPlainText } from "./format-detail.ts";
import { base64Size } from "./records.ts";
import type { ToolPayload } from "./types.ts";

/** Size caps for attachments; the defaults suit an LLM context. */
export interface FileLimits {
  /** Largest decoded file we accept at all (the official server's default cap is 20 MB). */
  maxFileBytes: number;
  /** Largest decoded file returned as base64. */
  maxBase64Bytes: number;
  /** Longest text returned; longer text is cut and flagged `truncated`. */
  maxTextChars: number;
}

export const DEFAULT_FILE_LIMITS: FileLimits = {
  maxFileBytes: 20 * 1024 * 1024,
  maxBase64Bytes: 1024 * 1024,
  maxTextChars: 100_000,
};

const MIME: Record<string, string> = {
  pdf: "application/pdf",
  txt: "text/plain",
  csv: "text/csv",
  md: "text/markdown",
  html: "text/html",
  htm: "text/html",
  xml: "application/xml",
  doc: "application/msword",
  docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  xls: "application/vnd.ms-excel",
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  ppt: "application/vnd.ms-powerpoint",
  pptx: "application/vnd.openxmlformats-officedocument.presentationml.presentation",
  zip: "application/zip",
};

function extensionOf(filename: string): string {
  const match = /\.([A-Za-z0-9]+)$/.exec(filename);
  return match ? match[1]!.toLowerCase() : "";
}

async function pdfToMarkdown(bytes: Uint8Array): Promise<string> {
  const { extractText } = await import("unpdf");
  const { text } = await extractText(bytes, { mergePages: false });
  return text
    .map((page, i) => ({ page: page.trim(), n: i + 1 }))
    .filter(({ page }) => page !== "")
    .map(({ page, n }) => `## ページ ${n}\n\n${page}`)
    .join("\n\n---\n\n");
}

function decodeText(bytes: Uint8Array): string {
  return new TextDecoder("utf-8").decode(bytes).replace(/^\uFEFF/, "");
}

/** Converts one attachment; every failure is a `{ error }` result, never a throw. */
export async function convertAttachment(
  filename: string,
  base64: string,
  format: "markdown" | "base64",
  limits: FileLimits = DEFAULT_FILE_LIMITS,
): Promise<ToolPayload> {
  const size = base64Size(base64);
  if (size > limits.maxFileBytes) {
    return { error: `ファイルサイズが上限を超えています (${size} > ${limits.maxFileBytes} bytes)` };
  }
  const ext = extensionOf(filename);
  const mimeType = MIME[ext] ?? "application/octet-stream";
  if (format === "base64") {
    if (size > limits.maxBase64Bytes) {
      return {
        error: `base64 で返せるのは ${limits.maxBase64Bytes} バイトまでです（${filename}: ${size} バイト）。return_format="markdown" でテキストとして取得してください`,
      };
    }
    const content = Buffer.from(base64, "base64").toString("base64");
    const dataUri = `data:${mimeType};base64,${content.length > 100 ? `${content.slice(0, 100)}...` : content}`;
    return { filename, content_base64: content, mime_type: mimeType, size_bytes: size, data_uri: dataUri };
  }
  const bytes = new Uint8Array(Buffer.from(base64, "base64"));
  let text: string;
  let method: string;
  try {
    if (ext === "pdf") {
      text = await pdfToMarkdown(bytes);
      method = "unpdf_pdf";
    } else if (ext === "html" || ext === "htm") {
      text = htmlToPlainText(decodeText(bytes));
      method = "html_to_text";
    } else if (["txt", "csv", "md", "xml"].includes(ext)) {
      text = decodeText(bytes);
      method = "text_file";
    } else {
      return {
        error: `この形式（${ext ? `.${ext}` : "拡張子なし"}）のテキスト変換には対応していません。PDF・テキスト・HTML・CSV に対応しています。公式ページで確認するか、return_format="base64" を指定してください`,
        filename,
        mime_type: mimeType,
        size_bytes: size,
      };
    }
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { error: `ファイル読み込みエラー: ${reason}`, filename, mime_type: mimeType, size_bytes: size };
  }
  if (text.trim() === "") {
    return {
      error: `ファイルからテキストを抽出できませんでした（${filename}）。画像だけのPDFの可能性があります`,
      filename,
      mime_type: mimeType,
      size_bytes: size,
    };
  }
  const truncated = text.length > limits.maxTextChars;
  return {
    filename,
    content_markdown: truncated ? text.slice(0, limits.maxTextChars) : text,
    mime_type: mimeType,
    size_bytes: size,
    extraction_method: method,
    ...(truncated ? { truncated: true, total_chars: text.length } : {}),
  };
}
