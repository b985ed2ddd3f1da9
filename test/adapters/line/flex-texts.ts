/** Every `text` inside rendered LINE JSON (messages, bubbles, boxes), for assertions on what users read. */

// biome-ignore lint/suspicious/noExplicitAny: rendered LINE JSON is inspected freely
export type Any = any;

export function texts(node: Any): string[] {
  if (Array.isArray(node)) return node.flatMap(texts);
  if (node && typeof node === "object") {
    return [...(typeof node.text === "string" ? [node.text] : []), ...Object.values(node).flatMap(texts)];
  }
  return [];
}
