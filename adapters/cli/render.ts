/** Renders an answer's markdown-ish text for a terminal: no markup characters, links spelled out. */
export function toTerminalText(markdown: string): string {
  return markdown
    .replace(/\*\*(.+?)\*\*/g, "$1")
    .replace(/\[([^\]]+)\]\((https?:\/\/[^)\s]+)\)/g, "$1 <$2>")
    .replace(/^#{1,6}\s+/gm, "■ ")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}
