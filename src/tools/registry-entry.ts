/**
 * One registry entry as the admin API takes and shows it: the `mcp.json` shape, validated with the same
 * schema, secrets masked on the way out, masked values kept on the way back in, and the admin-only rules
 * (no stdio without the opt-in, no files read from the host).
 */
import { ConfigError, describeError } from "../errors.ts";
import { type McpServerConfig, parseServerEntry } from "./mcp-config.ts";

/** What the API shows instead of a secret. A PATCH that sends it back keeps the stored value. */
export const MASK = "********";

/** A refused change: the HTTP status, the field at fault (when one is) and a readable reason. */
export class RegistryError extends Error {
  constructor(
    readonly status: 400 | 403 | 404 | 409,
    message: string,
    readonly field?: string,
  ) {
    super(message);
    this.name = "RegistryError";
  }
}

export type RawEntry = Record<string, unknown>;

const ONLY_REFERENCES = /^(\$\{[A-Za-z_][A-Za-z0-9_]*(:-[^}]*)?\}\s*)+$/;

/** A secret value shown masked; `${VAR}` references are not secrets and stay readable. */
function maskValue(value: unknown): unknown {
  return typeof value === "string" && ONLY_REFERENCES.test(value.trim()) ? value : MASK;
}

function maskMap(map: unknown): unknown {
  if (!map || typeof map !== "object") return map;
  return Object.fromEntries(Object.entries(map).map(([k, v]) => [k, maskValue(v)]));
}

/** A URL without its password and with secret-looking query values masked. */
function maskUrl(value: unknown): unknown {
  if (typeof value !== "string") return value;
  try {
    const url = new URL(value);
    if (url.password) url.password = MASK;
    for (const key of [...url.searchParams.keys()]) {
      if (/key|token|secret|password|sig|auth/i.test(key)) url.searchParams.set(key, MASK);
    }
    return url.toString();
  } catch {
    return value;
  }
}

/** One http-api entry masked; a document fetched from `openapiUrl` is shown as its URL only. */
function maskApi(api: unknown): unknown {
  if (!api || typeof api !== "object") return api;
  const { openapi, ...rest } = api as RawEntry;
  const out: RawEntry = "openapiUrl" in rest ? rest : { ...rest, openapi };
  if ("headers" in out) out.headers = maskMap(out.headers);
  if ("url" in out) out.url = maskUrl(out.url);
  return out;
}

/** The entry with every header, env value and URL credential masked. */
export function maskEntry(raw: RawEntry): RawEntry {
  const out: RawEntry = { ...raw };
  if ("headers" in out) out.headers = maskMap(out.headers);
  if ("env" in out) out.env = maskMap(out.env);
  if ("url" in out) out.url = maskUrl(out.url);
  if (Array.isArray(out.apis)) out.apis = out.apis.map(maskApi);
  for (const key of ["headers", "env"]) if (out[key] === undefined) delete out[key];
  return out;
}

/** Puts stored secrets back where an edit sent the mask (the page never has the real values). */
export function unmask(next: unknown, stored: unknown): unknown {
  if (next === MASK) return stored;
  if (Array.isArray(next)) return next.map((item, i) => unmask(item, (stored as unknown[] | undefined)?.[i]));
  if (next && typeof next === "object") {
    const base = stored && typeof stored === "object" ? (stored as RawEntry) : {};
    return Object.fromEntries(Object.entries(next).map(([k, v]) => [k, unmask(v, base[k])]));
  }
  return next;
}

/** The mcp.json form of a parsed server (for entries that come from the file or the defaults). */
export function toRawEntry(server: McpServerConfig): RawEntry {
  const { kind: _kind, name: _name, ...rest } = server;
  return JSON.parse(JSON.stringify(rest)) as RawEntry;
}

/** Validates an entry the API received; throws RegistryError naming the field. */
export function validateEntry(
  name: string,
  raw: unknown,
  options: { env: Record<string, string | undefined>; allowStdio: boolean },
): McpServerConfig {
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) {
    throw new RegistryError(400, "サーバーの設定は JSON オブジェクトで指定してください。", "(server)");
  }
  const entry = raw as RawEntry;
  if (("command" in entry || entry.type === "stdio") && !options.allowStdio) {
    throw new RegistryError(
      403,
      "stdio サーバーはこのホストでコマンドを実行するため、管理 API からは追加できません（ADMIN_ALLOW_STDIO=true で許可）。",
      "command",
    );
  }
  const apis = Array.isArray(entry.apis) ? entry.apis : [];
  const fileIndex = apis.findIndex((api) => api && typeof api === "object" && "openapiFile" in api);
  if (fileIndex >= 0) {
    throw new RegistryError(
      400,
      "管理 API からはホスト上のファイルを読めません。OpenAPI は URL（openapiUrl）か文書そのもの（openapi）で指定してください。",
      `apis.${fileIndex}.openapiFile`,
    );
  }
  try {
    return parseServerEntry(name, entry, options.env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    const message = error.message.replace(/^mcp\.json: /, "");
    const field = /field "([^"]+)"/.exec(message)?.[1] ?? (/server name/.test(message) ? "name" : "(server)");
    throw new RegistryError(400, message, field);
  }
}

/** A readable reason for a stored entry that no longer validates (e.g. a variable missing here). */
export function entryProblem(error: unknown): string {
  return describeError(error).replace(/^(ConfigError: )?mcp\.json: /, "");
}
