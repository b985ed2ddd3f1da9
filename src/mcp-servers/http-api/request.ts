/** Builds and sends one generated tool's HTTP request; only URLs under the tool's base URL are reached. */
import { scopedSignal } from "../../abort.ts";
import type { ApiTool } from "./describe.ts";

export interface RequestOptions {
  env: Record<string, string | undefined>;
  timeoutMs: number;
  maxResponseChars: number;
  signal?: AbortSignal;
}

export interface ApiResponse {
  status: number;
  contentType: string;
  text: string;
  truncated: boolean;
  json?: unknown;
}

/** A problem with the arguments or the configuration, reported as a tool error. */
export class ApiRequestError extends Error {}

/** Sends the request for `tool` with `args`. */
export async function callApi(
  tool: ApiTool,
  args: Record<string, unknown>,
  options: RequestOptions,
): Promise<ApiResponse> {
  const headers = new Headers();
  for (const [name, value] of Object.entries(tool.headers))
    headers.set(name, fillEnv(value, options.env, name));
  let url = tool.urlTemplate;
  const query = new URLSearchParams();
  const bodyFields: Record<string, unknown> = {};
  for (const param of tool.params) {
    const value = args[param.name];
    if (value === undefined || value === null) {
      if (param.in === "path") throw new ApiRequestError(`missing path parameter "${param.name}"`);
      continue;
    }
    if (param.in === "path") {
      const segment = scalar(value);
      // "." and ".." would move the call to another endpoint of the same API, with its credentials.
      if (segment === "" || segment === "." || segment === "..") {
        throw new ApiRequestError(`path parameter "${param.name}" must not be empty, "." or ".."`);
      }
      url = url.replaceAll(`{${param.name}}`, encodeURIComponent(segment));
    } else if (param.in === "query") for (const v of [value].flat()) query.append(param.name, scalar(v));
    else if (param.in === "header") headers.set(param.name, scalar(value));
    else bodyFields[param.name] = value;
  }
  const target = new URL(url);
  for (const [key, value] of query) target.searchParams.append(key, value);
  if (!isUnder(target, tool.baseUrl))
    throw new ApiRequestError(`refused: ${target.origin}${target.pathname} is outside ${tool.baseUrl}`);
  const payload = tool.wholeBody ? bodyFields.body : Object.keys(bodyFields).length ? bodyFields : undefined;
  let body: string | undefined;
  if (payload !== undefined) {
    if (tool.bodyType === "form") {
      const form = new URLSearchParams();
      for (const [key, value] of Object.entries(payload as Record<string, unknown>))
        form.append(key, scalar(value));
      body = form.toString();
      headers.set("content-type", "application/x-www-form-urlencoded");
    } else {
      body = JSON.stringify(payload);
      headers.set("content-type", "application/json");
    }
  }
  if (!headers.has("accept")) headers.set("accept", "application/json, text/plain;q=0.9, */*;q=0.5");
  const scope = scopedSignal({ follow: [options.signal], timeoutMs: options.timeoutMs });
  try {
    const response = await fetch(target, {
      method: tool.method,
      headers,
      body,
      redirect: "manual",
      signal: scope.signal,
    });
    const { text, truncated } = await readCapped(response, options.maxResponseChars);
    const contentType = response.headers.get("content-type") ?? "";
    let json: unknown;
    if (contentType.includes("json") && !truncated) {
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined;
      }
    }
    return { status: response.status, contentType, text, truncated, json };
  } finally {
    scope.dispose();
  }
}

function scalar(value: unknown): string {
  return typeof value === "object" ? JSON.stringify(value) : String(value);
}

function fillEnv(value: string, env: Record<string, string | undefined>, header: string): string {
  return value.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_m, name: string) => {
    const found = env[name];
    if (!found)
      throw new ApiRequestError(`header "${header}" needs environment variable ${name}, which is not set`);
    return found;
  });
}

function isUnder(url: URL, base: string): boolean {
  const prefix = new URL(base);
  if (url.origin !== prefix.origin) return false;
  const path = prefix.pathname.endsWith("/") ? prefix.pathname : `${prefix.pathname}/`;
  return url.pathname === prefix.pathname || url.pathname.startsWith(path) || prefix.pathname === "/";
}

async function readCapped(
  response: Response,
  maxChars: number,
): Promise<{ text: string; truncated: boolean }> {
  if (!response.body) return { text: "", truncated: false };
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = "";
  // Characters are at most 4 bytes; stop reading once well past the cap instead of buffering everything.
  while (text.length <= maxChars) {
    const { done, value } = await reader.read();
    if (done) return { text: text + decoder.decode(), truncated: false };
    text += decoder.decode(value, { stream: true });
  }
  await reader.cancel().catch(() => undefined);
  return { text: `${text.slice(0, maxChars)}…[truncated ${text.length - maxChars}+ chars]`, truncated: true };
}
