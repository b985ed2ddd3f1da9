/**
 * Planned calls are checked against each tool's input schema before anything runs, with the host's own
 * ajv validator (tool-catalog.ts), so a model's `keyword: 12345` or an area sent as an array is caught
 * while the planner can still ask for a repair — instead of reaching the tool, failing there, and reading
 * to the agent like a search that found nothing.
 */
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { ArgumentValidator } from "../tools/tool-catalog.ts";
import type { ToolInfo } from "../types.ts";

/** Returns what is wrong with a call's arguments (readable by the model), or undefined when they fit. */
export type ArgsCheck = (tool: ToolInfo, args: Record<string, unknown>) => string | undefined;

/** A checker with one compiled validator per tool schema (the validator caches by schema object). */
export function createArgsCheck(): ArgsCheck {
  const validator = new ArgumentValidator();
  return (tool, args) =>
    validator.check({ name: tool.name, inputSchema: tool.inputSchema as Tool["inputSchema"] }, args);
}
