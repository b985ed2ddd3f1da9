/** OpenAPI 3 operations → ApiTool records; input schemas come from parameters and request bodies. */
import type { z } from "zod";
import type { ApiTool, openApiSourceSchema, ParamLocation } from "./describe.ts";

type Doc = Record<string, unknown>;
const METHODS = ["get", "post", "put", "patch", "delete"] as const;

/** Tools of every operation in the document. */
export function openApiTools(source: z.output<typeof openApiSourceSchema>): ApiTool[] {
  const doc = source.openapi as Doc;
  const servers = (doc.servers as Array<{ url?: string }> | undefined) ?? [];
  const server = source.baseUrl ?? servers[0]?.url;
  if (!server || !/^https?:\/\//.test(server)) {
    throw new Error('http-api: an OpenAPI document needs an absolute "servers[0].url" or a "baseUrl"');
  }
  const baseUrl = server.replace(/\/+$/, "");
  const tools: ApiTool[] = [];
  for (const [path, rawItem] of Object.entries((doc.paths as Doc | undefined) ?? {})) {
    const item = resolve(doc, rawItem) as Doc;
    for (const method of METHODS) {
      const op = item[method] as Doc | undefined;
      if (!op) continue;
      tools.push(operationTool(doc, source, baseUrl, path, method, item, op));
    }
  }
  return tools;
}

function operationTool(
  doc: Doc,
  source: z.output<typeof openApiSourceSchema>,
  baseUrl: string,
  path: string,
  method: string,
  item: Doc,
  op: Doc,
): ApiTool {
  const rawName = typeof op.operationId === "string" ? op.operationId : `${method}_${path}`;
  const name = `${source.prefix ?? ""}${rawName}`
    .replace(/[^A-Za-z0-9_-]/g, "_")
    .replace(/_+/g, "_")
    .replace(/^_|_$/g, "")
    .slice(0, 64);
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  const params: ApiTool["params"] = [];
  const declared = [...((item.parameters as unknown[]) ?? []), ...((op.parameters as unknown[]) ?? [])];
  for (const raw of declared) {
    const p = resolve(doc, raw) as {
      name?: string;
      in?: string;
      required?: boolean;
      description?: string;
      schema?: unknown;
    };
    if (!p.name || !["path", "query", "header"].includes(p.in ?? "")) continue;
    const schema = { ...((resolve(doc, p.schema ?? { type: "string" }) as Doc) ?? {}) };
    if (p.description && !schema.description) schema.description = p.description;
    properties[p.name] = schema;
    if (p.required || p.in === "path") required.push(p.name);
    params.push({ name: p.name, in: p.in as ParamLocation });
  }
  let bodyType: ApiTool["bodyType"] = "json";
  const body = resolve(doc, op.requestBody) as
    | { required?: boolean; content?: Record<string, { schema?: unknown }> }
    | undefined;
  if (body?.content) {
    const form = body.content["application/x-www-form-urlencoded"];
    const media = body.content["application/json"] ?? form;
    if (media) {
      bodyType = media === form ? "form" : "json";
      properties.body = resolve(doc, media.schema ?? { type: "object" });
      if (body.required) required.push("body");
      params.push({ name: "body", in: "body" });
    }
  }
  const summary = [op.summary, op.description].filter((s) => typeof s === "string" && s).join(" — ");
  return {
    name,
    description: summary || `${method.toUpperCase()} ${path}`,
    inputSchema: { type: "object", properties, ...(required.length ? { required } : {}) },
    method: method.toUpperCase(),
    urlTemplate: `${baseUrl}${path}`,
    baseUrl,
    params,
    wholeBody: true,
    bodyType,
    headers: source.headers,
  };
}

/** Inlines local `$ref`s ("#/components/…"); cycles and remote refs become an open schema. */
function resolve(doc: Doc, value: unknown, depth = 0): unknown {
  if (depth > 20) return {};
  if (Array.isArray(value)) return value.map((v) => resolve(doc, v, depth + 1));
  if (!value || typeof value !== "object") return value;
  const ref = (value as Doc).$ref;
  if (typeof ref === "string") {
    if (!ref.startsWith("#/")) return {};
    const target = ref
      .slice(2)
      .split("/")
      .reduce<unknown>(
        (node, key) => (node as Doc | undefined)?.[key.replace(/~1/g, "/").replace(/~0/g, "~")],
        doc,
      );
    return resolve(doc, target ?? {}, depth + 1);
  }
  const out: Doc = {};
  for (const [key, item] of Object.entries(value)) out[key] = resolve(doc, item, depth + 1);
  return out;
}
