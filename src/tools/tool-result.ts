/** Turns an MCP CallToolResult into the project's ToolResult: text capped, JSON parsed, `{"error"}` recognised. */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { ToolCall, ToolResult } from "../types.ts";

/** Caps text at `max` characters with a visible marker. */
export function capText(text: string, max: number): { text: string; truncated: boolean } {
  if (text.length <= max) return { text, truncated: false };
  return { text: `${text.slice(0, max)}…[truncated ${text.length - max} chars]`, truncated: true };
}

/** Converts a successful MCP response; `isError` results and `{"error": …}` payloads become tool errors. */
export function toToolResult(
  call: ToolCall,
  result: CallToolResult,
  maxChars: number,
  durationMs: number,
): ToolResult {
  const texts: string[] = [];
  for (const block of result.content ?? []) {
    if (block.type === "text") texts.push(block.text);
    else if (block.type === "resource") texts.push(`[resource ${block.resource.uri}]`);
    else if (block.type === "resource_link") texts.push(`[resource ${block.uri}]`);
    else texts.push(`[${block.type}]`);
  }
  const fullText = texts.join("\n");
  const data = result.structuredContent ?? parseJson(texts[0]);
  const { text, truncated } = capText(fullText, maxChars);
  const base = {
    call,
    text,
    durationMs,
    ...(data === undefined ? {} : { data }),
    ...(truncated ? { truncated } : {}),
  };
  if (result.isError) return { ...base, isError: true, error: capText(fullText || "tool error", 2000).text };
  const conventional = errorField(data);
  if (conventional) return { ...base, isError: true, error: conventional };
  return { ...base, isError: false };
}

/** Builds an error result for failures before or around the call. */
export function errorResult(call: ToolCall, error: string, durationMs: number): ToolResult {
  return { call, isError: true, error, text: error, durationMs };
}

function parseJson(text: string | undefined): unknown {
  if (!text) return undefined;
  const trimmed = text.trim();
  if (!trimmed.startsWith("{") && !trimmed.startsWith("[")) return undefined;
  try {
    return JSON.parse(trimmed);
  } catch {
    return undefined;
  }
}

// The official jGrants server reports failures as ordinary results shaped {"error": "…"}.
function errorField(data: unknown): string | undefined {
  if (!data || typeof data !== "object" || Array.isArray(data)) return undefined;
  const value = (data as Record<string, unknown>).error;
  if (typeof value === "string" && value.trim()) return value;
  if (value && typeof value === "object") return JSON.stringify(value).slice(0, 2000);
  return undefined;
}
