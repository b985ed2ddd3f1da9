/** Tool naming across servers, allow/block filters and argument validation against inputSchema (ajv). */
import { createHash } from "node:crypto";
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import type { ToolInfo } from "../types.ts";
import type { McpServerConfig } from "./mcp-config.ts";

const MAX_NAME = 64;

/** `${server}__${tool}`, limited to [A-Za-z0-9_] and 64 characters (a hash keeps long names unique). */
export function qualifyName(server: string, tool: string): string {
  const raw = `${server}__${tool}`;
  // Gemini function names must not start with a digit.
  const clean = raw.replace(/[^A-Za-z0-9_]/g, "_").replace(/^(?=[0-9])/, "s_");
  if (clean === raw && clean.length <= MAX_NAME) return clean;
  const hash = createHash("sha256").update(raw).digest("hex").slice(0, 8);
  return clean.length <= MAX_NAME - 9 ? `${clean}_${hash}` : `${clean.slice(0, MAX_NAME - 9)}_${hash}`;
}

/** The planner's view of one tool. Built-in tools are read-only by construction. */
export function toToolInfo(server: McpServerConfig, tool: Tool): ToolInfo {
  return {
    server: server.name,
    name: tool.name,
    qualifiedName: qualifyName(server.name, tool.name),
    description: tool.description ?? tool.title ?? "",
    inputSchema: tool.inputSchema as Record<string, unknown>,
    readOnly:
      isBuiltinReadOnly(server) || server.readOnly === true || tool.annotations?.readOnlyHint === true,
  };
}

// Our built-ins only read; http-api tools follow their HTTP method (its annotations say so).
function isBuiltinReadOnly(server: McpServerConfig): boolean {
  return server.kind === "builtin" && server.builtin !== "http-api";
}

/** Applies the server's allowTools / blockTools. */
export function isToolAllowed(server: McpServerConfig, toolName: string): boolean {
  if (server.allowTools && !server.allowTools.includes(toolName)) return false;
  return !server.blockTools?.includes(toolName);
}

/** Compiles each tool's inputSchema once and checks arguments before the call. */
export class ArgumentValidator {
  private readonly ajv = new AjvJsonSchemaValidator();
  private readonly cache = new WeakMap<
    object,
    (input: unknown) => { valid: boolean; errorMessage?: string }
  >();

  /** An error message readable by a planner, or undefined when the arguments fit. */
  check(tool: Tool, args: Record<string, unknown>): string | undefined {
    let validate = this.cache.get(tool.inputSchema);
    if (!validate) {
      try {
        validate = this.ajv.getValidator(
          tool.inputSchema as Parameters<AjvJsonSchemaValidator["getValidator"]>[0],
        );
      } catch {
        // A schema ajv cannot compile is the server's problem; let the server judge the arguments.
        validate = () => ({ valid: true });
      }
      this.cache.set(tool.inputSchema, validate);
    }
    const result = validate(args);
    if (result.valid) return undefined;
    return `invalid arguments for ${tool.name}: ${readable(result.errorMessage, tool.inputSchema)}`;
  }
}

/** ajv's text, minus the anyOf/null noise of optional parameters, plus the allowed values of enums. */
function readable(message: string | undefined, schema: Tool["inputSchema"]): string {
  const parts = (message ?? "invalid arguments").replace(/\bdata\b/g, "args").split(", ");
  const useful = parts.filter(
    (p) => !/must match (a schema in anyOf|exactly one schema in oneOf)|must be null$/.test(p),
  );
  const kept = [...new Set(useful.length ? useful : parts)];
  return kept
    .map((part) => {
      const name = /^args\/([^/ ]+) must be equal to one of the allowed values$/.exec(part)?.[1];
      const values = name ? enumValues(schema.properties?.[name]) : [];
      if (!values.length) return part;
      const shown = values.slice(0, 20).map(String).join(", ");
      return `${part} (${shown}${values.length > 20 ? ", …" : ""})`;
    })
    .join("; ");
}

function enumValues(property: unknown): unknown[] {
  if (!property || typeof property !== "object") return [];
  const node = property as { enum?: unknown[]; anyOf?: unknown[]; oneOf?: unknown[] };
  if (Array.isArray(node.enum)) return node.enum;
  return [...(node.anyOf ?? []), ...(node.oneOf ?? [])].flatMap(enumValues);
}
