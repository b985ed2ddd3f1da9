/**
 * API descriptions → tool definitions. The seed's simple form (name, description, url, method, params with
 * types and required flags) and OpenAPI 3 documents both end up as ApiTool records.
 */
import { z } from "zod";
import { openApiTools } from "./openapi.ts";

/** Where an argument goes in the request. */
export type ParamLocation = "path" | "query" | "header" | "body";

/** One generated tool: its MCP face and how to build its request. */
export interface ApiTool {
  name: string;
  description: string;
  inputSchema: { type: "object"; properties: Record<string, unknown>; required?: string[] };
  method: string;
  /** Full URL, possibly with {path} placeholders. */
  urlTemplate: string;
  /** Requests must stay under this prefix. */
  baseUrl: string;
  params: Array<{ name: string; in: ParamLocation }>;
  /** OpenAPI request bodies arrive whole in the "body" argument; simple-form body params are collected. */
  wholeBody?: boolean;
  bodyType: "json" | "form";
  /** Header values may hold ${VAR}, filled from env at call time so secrets never sit in descriptions. */
  headers: Record<string, string>;
}

const paramSchema = z.object({
  type: z.enum(["string", "number", "integer", "boolean", "array", "object"]).default("string"),
  required: z.boolean().default(false),
  description: z.string().optional(),
  enum: z.array(z.union([z.string(), z.number()])).optional(),
  in: z.enum(["path", "query", "header", "body"]).optional(),
});

/** The seed's simple form of one API. */
export const simpleApiSchema = z.object({
  name: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, "must be 1-64 letters, digits, _ or -"),
  description: z.string().default(""),
  url: z.url({ protocol: /^https?$/, error: "must be an http(s) URL" }),
  method: z
    .string()
    .transform((m) => m.toUpperCase())
    .pipe(z.enum(["GET", "POST", "PUT", "PATCH", "DELETE"]))
    .default("GET"),
  params: z
    .union([z.array(paramSchema.extend({ name: z.string().min(1) })), z.record(z.string(), paramSchema)])
    .default([]),
  body: z.enum(["json", "form"]).default("json"),
  headers: z.record(z.string(), z.string()).default({}),
});

/** An OpenAPI 3 document with where to send requests and which headers to add. */
export const openApiSourceSchema = z.object({
  openapi: z.looseObject({ openapi: z.string().startsWith("3", "must be an OpenAPI 3 document") }),
  baseUrl: z.url({ protocol: /^https?$/, error: "must be an http(s) URL" }).optional(),
  headers: z.record(z.string(), z.string()).default({}),
  /** Prefix of generated tool names. */
  prefix: z
    .string()
    .regex(/^[A-Za-z0-9_]{0,20}$/)
    .optional(),
});

export type HttpApiDescription = z.input<typeof simpleApiSchema>;
export type OpenApiSource = z.input<typeof openApiSourceSchema>;
/** One entry of the `apis` list: a simple description or an OpenAPI source. */
export type HttpApiSpec = HttpApiDescription | OpenApiSource;

/** Validates every spec and builds the tools; errors name the entry and the field. */
export function describeApis(specs: HttpApiSpec[]): ApiTool[] {
  const tools: ApiTool[] = [];
  specs.forEach((spec, index) => {
    const isOpenApi = spec && typeof spec === "object" && "openapi" in spec;
    const schema = isOpenApi ? openApiSourceSchema : simpleApiSchema;
    const parsed = schema.safeParse(spec);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const label =
        !isOpenApi && typeof (spec as { name?: unknown }).name === "string"
          ? ` "${(spec as { name: string }).name}"`
          : "";
      throw new Error(
        `http-api: apis[${index}]${label} field "${issue?.path.join(".") || "(entry)"}": ${issue?.message}`,
      );
    }
    if (isOpenApi) tools.push(...openApiTools(parsed.data as z.output<typeof openApiSourceSchema>));
    else tools.push(simpleTool(parsed.data as z.output<typeof simpleApiSchema>));
  });
  const seen = new Set<string>();
  for (const tool of tools) {
    if (seen.has(tool.name)) throw new Error(`http-api: two tools are named "${tool.name}"`);
    seen.add(tool.name);
  }
  return tools;
}

function simpleTool(api: z.output<typeof simpleApiSchema>): ApiTool {
  const entries = Array.isArray(api.params)
    ? api.params
    : Object.entries(api.params).map(([name, p]) => ({ name, ...p }));
  const inPath = new Set([...api.url.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!));
  const bodyMethod = ["POST", "PUT", "PATCH"].includes(api.method);
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  const params: ApiTool["params"] = [];
  for (const p of entries) {
    const where: ParamLocation = p.in ?? (inPath.has(p.name) ? "path" : bodyMethod ? "body" : "query");
    properties[p.name] = {
      type: p.type,
      ...(p.description ? { description: p.description } : {}),
      ...(p.enum ? { enum: p.enum } : {}),
    };
    if (p.required || where === "path") required.push(p.name);
    params.push({ name: p.name, in: where });
  }
  return {
    name: api.name,
    description: api.description,
    inputSchema: { type: "object", properties, ...(required.length ? { required } : {}) },
    method: api.method,
    urlTemplate: api.url,
    baseUrl: api.url.split("{")[0]!.replace(/[?#].*$/, ""),
    params,
    bodyType: api.body,
    headers: api.headers,
  };
}
