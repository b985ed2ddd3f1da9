/** Turns a fetched body into readable text: charset-aware decoding, HTML to plain text, a title. */
import { compile } from "html-to-text";

const toText = compile({
  wordwrap: false,
  selectors: [
    { selector: "a", options: { ignoreHref: true } },
    { selector: "img", format: "skip" },
    { selector: "script", format: "skip" },
    { selector: "style", format: "skip" },
    { selector: "nav", format: "skip" },
    { selector: "header", format: "skip" },
    { selector: "footer", format: "skip" },
  ],
});

/** Content types the fetch tool reads; anything else (PDF, images, archives) is refused. */
export const READABLE_TYPES = [
  "text/html",
  "application/xhtml+xml",
  "text/plain",
  "text/markdown",
  "text/csv",
  "application/json",
  "application/xml",
  "text/xml",
];

/** The media type without parameters, lower-cased. */
export function mediaType(contentType: string): string {
  return contentType.split(";")[0]!.trim().toLowerCase();
}

/** Decodes with the declared charset (Content-Type or <meta charset>), falling back to UTF-8. */
export function decodeBody(body: Buffer, contentType: string): string {
  const declared =
    /charset=["']?([\w-]+)/i.exec(contentType)?.[1] ??
    /<meta[^>]+charset=["']?([\w-]+)/i.exec(body.subarray(0, 4096).toString("latin1"))?.[1];
  try {
    return new TextDecoder(declared ?? "utf-8").decode(body);
  } catch {
    return new TextDecoder("utf-8").decode(body);
  }
}

/** Readable text and title of a document of the given media type. */
export function readable(text: string, type: string): { title?: string; text: string } {
  if (type !== "text/html" && type !== "application/xhtml+xml") return { text };
  const title = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(text)?.[1]?.replace(/\s+/g, " ").trim();
  const body = toText(text)
    .replace(/\n{3,}/g, "\n\n")
    .trim();
  return { title: title || undefined, text: body };
}
