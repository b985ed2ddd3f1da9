/**
 * Slack's message limits, and a checker that lists every violation of a rendered message. The renderer
 * splits messages to stay inside these; tests and the shared adapter contract run the checker.
 */
import type { types } from "@slack/bolt";

/** A message as posted: Block Kit blocks plus the plain `text` fallback (notifications, screen readers). */
export interface SlackMessage {
  text: string;
  blocks: types.KnownBlock[];
}

/** Documented Block Kit limits, plus a practical cap on one message's serialised blocks. */
export const SLACK_LIMITS = {
  maxBlocks: 50,
  sectionText: 3000,
  fieldText: 2000,
  maxFields: 10,
  contextElements: 10,
  contextText: 3000,
  buttonText: 75,
  buttonValue: 2000,
  actionId: 255,
  actionsElements: 25,
  /** Slack truncates `text` at 40,000 characters; a fallback this long would be unreadable anyway. */
  fallbackText: 4000,
  /** Not documented as a hard limit; large payloads start failing with msg_too_long/invalid_blocks. */
  blocksJsonChars: 16_000,
} as const;

type AnyBlock = Record<string, unknown>;

function textOf(value: unknown): string {
  return typeof value === "object" && value !== null && typeof (value as { text?: unknown }).text === "string"
    ? ((value as { text: string }).text ?? "")
    : "";
}

function checkElement(element: AnyBlock, where: string, problems: string[]): void {
  if (element.type !== "button") return;
  if (textOf(element.text).length > SLACK_LIMITS.buttonText) problems.push(`${where}: button text too long`);
  if (typeof element.value === "string" && element.value.length > SLACK_LIMITS.buttonValue) {
    problems.push(`${where}: button value too long`);
  }
  if (typeof element.action_id === "string" && element.action_id.length > SLACK_LIMITS.actionId) {
    problems.push(`${where}: action_id too long`);
  }
}

/** Every limit a message breaks, as readable strings; [] when the message is valid. */
export function checkSlackMessage(message: SlackMessage): string[] {
  const problems: string[] = [];
  const blocks = message.blocks as unknown as AnyBlock[];
  if (message.text.trim() === "") problems.push("missing text fallback");
  if (message.text.length > SLACK_LIMITS.fallbackText) problems.push("text fallback too long");
  if (blocks.length > SLACK_LIMITS.maxBlocks)
    problems.push(`${blocks.length} blocks > ${SLACK_LIMITS.maxBlocks}`);
  if (JSON.stringify(blocks).length > SLACK_LIMITS.blocksJsonChars) problems.push("blocks payload too large");
  const actionIds = new Set<string>();
  blocks.forEach((block, i) => {
    const where = `block ${i} (${String(block.type)})`;
    if (textOf(block.text).length > SLACK_LIMITS.sectionText) problems.push(`${where}: text too long`);
    const fields = (block.fields as AnyBlock[] | undefined) ?? [];
    if (fields.length > SLACK_LIMITS.maxFields) problems.push(`${where}: too many fields`);
    for (const field of fields) {
      if (textOf(field).length > SLACK_LIMITS.fieldText) problems.push(`${where}: field too long`);
    }
    const elements = (block.elements as AnyBlock[] | undefined) ?? [];
    if (block.type === "context" && elements.length > SLACK_LIMITS.contextElements) {
      problems.push(`${where}: too many context elements`);
    }
    if (block.type === "context" && elements.some((e) => textOf(e).length > SLACK_LIMITS.contextText)) {
      problems.push(`${where}: context text too long`);
    }
    if (block.type === "actions" && elements.length > SLACK_LIMITS.actionsElements) {
      problems.push(`${where}: too many actions`);
    }
    const accessory = block.accessory as AnyBlock | undefined;
    for (const element of accessory ? [...elements, accessory] : elements) {
      checkElement(element, where, problems);
      const id = element.action_id;
      if (typeof id === "string") {
        if (actionIds.has(id)) problems.push(`${where}: duplicate action_id ${id}`);
        actionIds.add(id);
      }
    }
  });
  return problems;
}
