/**
 * Tool declarations for Gemini: MCP input schemas made Gemini-safe and small. They are sent as
 * `parametersJsonSchema` (which accepts JSON Schema), with `$schema`/`$id`/`title` stripped, `anyOf`
 * with null collapsed to the other branch (the official jGrants server publishes every optional
 * parameter as `anyOf: [string, null]`, which Gemini's classic format rejects), and long descriptions
 * clipped, because declarations are resent with every planning request and count against the prompt.
 * For the same reason an enum longer than LONG_ENUM values (e.g. every prefecture) becomes a few examples
 * in the description: the model knows such names, and the server still validates them.
 */
import type { ToolInfo } from "../types.ts";

/** The extra argument every declaration gets, so each call carries its reason. */
export const REASON_ARG = "reason";

const TOOL_DESCRIPTION_MAX = 80;
const PARAM_DESCRIPTION_MAX = 64;
/** A first sentence this short is a label, and the sentences after it carry the hint. */
const LABEL_MAX = 16;
const LONG_ENUM = 8;
const ENUM_EXAMPLES = 2;
/**
 * Tools whose results a plan cannot use are not offered, to save prompt bytes: a liveness check, and
 * attachment contents (planners see only a short summary of a result, and answers are built from records).
 */
const NOT_OFFERED = new Set(["ping", "get_file_content"]);
const DROPPED_KEYS = new Set([
  "$schema",
  "$id",
  "title",
  "examples",
  "$comment",
  "additionalProperties",
  "default",
  "minLength",
  "maxLength",
]);
/** Parameters the agent sets itself (result size), so the model need not read about them. */
const HIDDEN_PARAMS = new Set(["limit", "all_ranked"]);

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** Clips text to max characters, marking the cut. */
export function clipText(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}

/** A JSON schema made Gemini-safe (recursively). */
export function geminiSafeSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(geminiSafeSchema);
  if (!isObject(schema)) return schema;
  let node: Json = schema;
  for (const key of ["anyOf", "oneOf"] as const) {
    const branches = node[key];
    if (!Array.isArray(branches)) continue;
    let nonNull = branches.filter((b) => !(isObject(b) && b.type === "null"));
    // "One enum value, or several joined by a pattern": Gemini gets the enum (joins stay allowed server-side).
    const enumBranch = nonNull.find((b) => isObject(b) && Array.isArray(b.enum));
    if (enumBranch && nonNull.every((b) => isObject(b) && b.type === "string")) nonNull = [enumBranch];
    if (nonNull.length === 1 && nonNull.length < branches.length) {
      const { [key]: _dropped, ...rest } = node;
      node = { ...(nonNull[0] as Json), ...rest };
    }
  }
  const out: Json = {};
  for (const [key, value] of Object.entries(node)) {
    if (DROPPED_KEYS.has(key)) continue;
    if (key === "type" && Array.isArray(value)) {
      const types = value.filter((t) => t !== "null");
      out.type = types.length === 1 ? types[0] : types;
    } else if (key === "description" && typeof value === "string") {
      out.description = clipText(leadingSentences(value, PARAM_DESCRIPTION_MAX), PARAM_DESCRIPTION_MAX);
    } else if (key === "properties" && isObject(value)) {
      out.properties = Object.fromEntries(
        Object.entries(value)
          .filter(([k]) => !HIDDEN_PARAMS.has(k))
          .map(([k, v]) => [k, geminiSafeSchema(v)]),
      );
    } else {
      out[key] = geminiSafeSchema(value);
    }
  }
  return Array.isArray(out.enum) && out.enum.length > LONG_ENUM ? enumAsExamples(out, out.enum) : out;
}

/** The first sentence of a description: the rest is usually detail the model can do without. */
function firstSentence(text: string): string {
  const match = /^[\s\S]*?(?:。|\.\s)/.exec(text);
  return match ? match[0].trim() : text;
}

/**
 * The first sentence; and when that is only a label ("補助対象地域。"), the next ones while they fit in
 * max characters, so the hint that follows a label is not lost (add「 / 全国」to keep nationwide ones).
 */
function leadingSentences(text: string, max: number): string {
  const sentences = text.split(/(?<=。|\.\s)/).filter((s) => s.trim() !== "");
  let out = sentences[0]?.trim() ?? "";
  if (out.length > LABEL_MAX) return out;
  for (const sentence of sentences.slice(1)) {
    if (out.length + sentence.trim().length > max) break;
    out += sentence.trim();
  }
  return out;
}

function enumAsExamples(node: Json, values: unknown[]): Json {
  const { enum: _values, ...rest } = node;
  const examples = values.slice(0, ENUM_EXAMPLES).map(String).join(", ");
  const description = typeof rest.description === "string" ? `${rest.description} ` : "";
  return { ...rest, description: `${description}(e.g. ${examples}, …)` };
}

/** One function declaration per tool, named by qualifiedName, with a required `reason` argument. */
export function toFunctionDeclarations(tools: ToolInfo[]) {
  return (
    tools
      // Only read-only tools are offered: tool output may carry injected instructions, and it must never be
      // able to steer the bot into writing anywhere.
      .filter((tool) => tool.readOnly && !NOT_OFFERED.has(tool.name))
      .map((tool) => {
        const safe = geminiSafeSchema(tool.inputSchema);
        const schema: Json = isObject(safe) ? safe : {};
        const properties = isObject(schema.properties) ? schema.properties : {};
        const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
        return {
          name: tool.qualifiedName,
          description: clipText(firstSentence(tool.description || tool.name), TOOL_DESCRIPTION_MAX),
          parametersJsonSchema: {
            ...schema,
            type: "object",
            properties: {
              ...properties,
              // Its name says enough (the system prompt asks for a short reason): no description to resend.
              [REASON_ARG]: { type: "string" },
            },
            required: [...required.filter((name) => name !== REASON_ARG), REASON_ARG],
          },
        };
      })
  );
}
