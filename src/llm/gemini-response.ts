/**
 * Reading a GenerateContentResponse (unary or streamed) into what the planner and answerer need: the
 * model's content verbatim, its function calls, its visible text, and — when the reply carries nothing
 * usable — why (a block, or no candidate or parts), so callers degrade instead of reading "no calls" as
 * "nothing to do".
 */
import type { Content, Part } from "@google/genai";

/** The fields of a response this module reads (unary and streamed chunks alike). */
export interface ResponseLike {
  candidates?: Array<{ content?: Content; finishReason?: string }>;
  promptFeedback?: { blockReason?: string };
}

/** A reply as read, before the client adds its counters. */
export interface ReadReply {
  content: Content | undefined;
  functionCalls: Array<{ name: string; args: Record<string, unknown> }>;
  text: string;
  finishReason: string | undefined;
  withheld?: string;
}

/** Finish reasons that end a reply without usable content (a retry would be refused the same way). */
const BLOCKING = new Set([
  "SAFETY",
  "RECITATION",
  "LANGUAGE",
  "OTHER",
  "BLOCKLIST",
  "PROHIBITED_CONTENT",
  "SPII",
  "IMAGE_SAFETY",
  "IMAGE_PROHIBITED_CONTENT",
]);

/** Reads a unary response. */
export function readResponse(response: ResponseLike): ReadReply {
  const candidate = response.candidates?.[0];
  const parts = candidate?.content?.parts ?? [];
  const finishReason = candidate?.finishReason;
  return {
    content: candidate?.content,
    functionCalls: parts.flatMap((part) =>
      part.functionCall?.name
        ? [{ name: part.functionCall.name, args: (part.functionCall.args ?? {}) as Record<string, unknown> }]
        : [],
    ),
    text: visibleText(parts),
    finishReason,
    withheld: withheldReason(response.promptFeedback?.blockReason, Boolean(candidate), parts, finishReason),
  };
}

/** Consumes a streamed response, passing visible text deltas to onDelta as they come. */
export async function readStream(
  stream: AsyncIterable<ResponseLike>,
  onDelta: (text: string) => void,
): Promise<ReadReply> {
  let text = "";
  let finishReason: string | undefined;
  let blockReason: string | undefined;
  let sawCandidate = false;
  const parts: Part[] = [];
  for await (const chunk of stream) {
    blockReason = chunk.promptFeedback?.blockReason ?? blockReason;
    const candidate = chunk.candidates?.[0];
    if (candidate) sawCandidate = true;
    parts.push(...(candidate?.content?.parts ?? []));
    const delta = visibleText(candidate?.content?.parts ?? []);
    if (delta) {
      text += delta;
      onDelta(delta);
    }
    finishReason = candidate?.finishReason ?? finishReason;
  }
  return {
    content: { role: "model", parts: [{ text }] },
    functionCalls: [],
    text,
    finishReason,
    withheld: withheldReason(blockReason, sawCandidate, parts, finishReason),
  };
}

function withheldReason(
  blockReason: string | undefined,
  hasCandidate: boolean,
  parts: Part[],
  finishReason: string | undefined,
): string | undefined {
  if (blockReason) return `prompt blocked (${blockReason})`;
  if (!hasCandidate) return "no candidates";
  if (finishReason && BLOCKING.has(finishReason)) return `reply blocked (${finishReason})`;
  // A malformed function call has no parts either; the planner repairs that one itself.
  if (parts.length === 0 && finishReason !== "MALFORMED_FUNCTION_CALL") return "empty reply";
  return undefined;
}

function visibleText(parts: Part[]): string {
  return parts
    .filter((part) => typeof part.text === "string" && !part.thought)
    .map((part) => part.text)
    .join("");
}
