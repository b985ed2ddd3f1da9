/**
 * The `mcpServers` file format (as Claude Desktop, Gemini CLI and Cursor use it), validated with zod.
 * Our one extension is `"builtin"`: a server this project ships, run in-process.
 */
import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { z } from "zod";
import { ConfigError } from "../errors.ts";
import { describeApis, type HttpApiSpec } from "../mcp-servers/http-api/describe.ts";
import { substituteEnv } from "./substitute-env.ts";

const toolList = z.array(z.string().min(1, "must be a non-empty tool name")).optional();
const stringMap = z.record(z.string(), z.string()).optional();

const common = {
  enabled: z.boolean().default(true),
  allowTools: toolList,
  blockTools: toolList,
  timeoutMs: z.number().int().min(100).max(600_000).optional(),
  /** Treat every tool as read-only (safe to retry once after a reconnect) when the server does not say so. */
  readOnly: z.boolean().optional(),
  /**
   * Let the host run this server's tools that are not read-only. Off by default: the bot only reads, and a
   * prompt-injected page or subsidy text must not be able to make it write anywhere. Planners never see
   * such tools either way.
   */
  allowWrite: z.boolean().optional(),
  description: z.string().optional(),
};

const stdioSchema = z.strictObject({
  ...common,
  type: z.literal("stdio").optional(),
  command: z.string().min(1, "must be a non-empty command"),
  args: z.array(z.string()).default([]),
  env: stringMap,
  cwd: z.string().min(1).optional(),
});

const remoteSchema = z.strictObject({
  ...common,
  /** "sse" skips the Streamable HTTP attempt; anything else tries Streamable HTTP first, then SSE. */
  type: z.enum(["http", "streamable-http", "streamableHttp", "sse"]).optional(),
  url: z.url({ protocol: /^https?$/, error: "must be an http(s) URL" }),
  headers: stringMap,
});

const httpApiEntry = z.record(z.string(), z.unknown());

const builtinSchema = z.strictObject({
  ...common,
  builtin: z.enum(["jgrants", "time", "fetch", "http-api"], {
    error: "must be one of jgrants, time, fetch, http-api",
  }),
  /** http-api: simple descriptions, or `{ "openapiFile": "./api.json", "baseUrl"?, "headers"? }` entries. */
  apis: z.array(httpApiEntry).optional(),
  /** fetch: response size cap in bytes and timeout. */
  maxBytes: z.number().int().min(1024).max(50_000_000).optional(),
  fetchTimeoutMs: z.number().int().min(100).max(600_000).optional(),
});

/** One configured server after validation; `name` is its key in `mcpServers`. */
export type McpServerConfig =
  | ({ kind: "stdio"; name: string } & z.infer<typeof stdioSchema>)
  | ({ kind: "remote"; name: string } & z.infer<typeof remoteSchema>)
  | ({ kind: "builtin"; name: string } & z.infer<typeof builtinSchema>);

/** Every configured server, by name, in file order. */
export type McpServersConfig = Record<string, McpServerConfig>;

const NAME = /^[A-Za-z0-9_-]{1,40}$/;

/** Validates an already-parsed `{ "mcpServers": { … } }` object; `baseDir` resolves relative file paths. */
export function parseMcpServersConfig(
  raw: unknown,
  env: Record<string, string | undefined>,
  baseDir = process.cwd(),
): McpServersConfig {
  if (!raw || typeof raw !== "object" || !("mcpServers" in raw)) {
    throw new ConfigError('mcp.json: expected an object with an "mcpServers" field');
  }
  const servers = (raw as { mcpServers: unknown }).mcpServers;
  if (!servers || typeof servers !== "object" || Array.isArray(servers)) {
    throw new ConfigError('mcp.json: "mcpServers" must be an object of servers by name');
  }
  const out: McpServersConfig = {};
  for (const [name, value] of Object.entries(servers))
    out[name] = parseServerEntry(name, value, env, baseDir);
  return out;
}

/** Validates one named entry (a key of `mcpServers` and its value): the name, `${VAR}` substitution, the schema. */
export function parseServerEntry(
  name: string,
  value: unknown,
  env: Record<string, string | undefined>,
  baseDir = process.cwd(),
): McpServerConfig {
  if (!NAME.test(name)) {
    throw new ConfigError(`mcp.json: server name "${name}" must be 1-40 letters, digits, "_" or "-"`);
  }
  return parseServer(name, substituteEnv(value, env, `server "${name}"`), baseDir);
}

function parseServer(name: string, value: unknown, baseDir: string): McpServerConfig {
  if (!value || typeof value !== "object" || Array.isArray(value)) {
    throw new ConfigError(`mcp.json: server "${name}" must be an object`);
  }
  const obj = value as Record<string, unknown>;
  const [kind, schema] =
    "builtin" in obj
      ? (["builtin", builtinSchema] as const)
      : "command" in obj
        ? (["stdio", stdioSchema] as const)
        : "url" in obj || "httpUrl" in obj
          ? (["remote", remoteSchema] as const)
          : [undefined, undefined];
  if (!kind || !schema) {
    throw new ConfigError(`mcp.json: server "${name}" needs "command" (stdio), "url" (remote) or "builtin"`);
  }
  // Gemini CLI spells the Streamable HTTP endpoint `httpUrl`.
  const input = kind === "remote" && "httpUrl" in obj ? { ...omit(obj, "httpUrl"), url: obj.httpUrl } : obj;
  const parsed = schema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path.length ? issue.path.join(".") : "(server)";
    const keys = issue && "keys" in issue ? ` ${(issue.keys as string[]).join(", ")}` : "";
    throw new ConfigError(
      `mcp.json: server "${name}" field "${field}": ${issue?.message ?? "invalid"}${keys}`,
    );
  }
  const server = { kind, name, ...parsed.data } as McpServerConfig;
  if (server.kind === "stdio" && server.cwd) server.cwd = resolve(baseDir, server.cwd);
  if (server.kind === "builtin" && server.apis)
    server.apis = server.apis.map((a) => loadApiFile(name, a, baseDir));
  if (server.kind === "builtin" && server.builtin === "http-api") {
    try {
      describeApis((server.apis ?? []) as HttpApiSpec[]);
    } catch (error) {
      throw new ConfigError(`mcp.json: server "${name}": ${(error as Error).message}`);
    }
  }
  return server;
}

function loadApiFile(name: string, entry: Record<string, unknown>, baseDir: string): Record<string, unknown> {
  if (typeof entry.openapiFile !== "string") return entry;
  const path = resolve(baseDir, entry.openapiFile);
  try {
    const { openapiFile: _file, ...rest } = entry;
    return { ...rest, openapi: JSON.parse(readFileSync(path, "utf8")) };
  } catch (error) {
    throw new ConfigError(
      `mcp.json: server "${name}" field "apis.openapiFile": cannot read JSON from ${path} (${(error as Error).message})`,
    );
  }
}

function omit(obj: Record<string, unknown>, key: string): Record<string, unknown> {
  const { [key]: _dropped, ...rest } = obj;
  return rest;
}

/** Reads and validates an mcp.json file; `${VAR}` and `${VAR:-default}` are substituted from `env`. */
export function loadMcpServersConfig(
  path: string,
  env: Record<string, string | undefined>,
): McpServersConfig {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    throw new ConfigError(
      `mcp.json: cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? error})`,
    );
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(`mcp.json: ${path} is not valid JSON (${(error as Error).message})`);
  }
  return parseMcpServersConfig(raw, env, dirname(resolve(path)));
}
