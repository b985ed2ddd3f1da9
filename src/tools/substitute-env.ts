/** `${VAR}` / `${VAR:-default}` substitution in config values, as mcp.json files written for other hosts use it. */
import { ConfigError } from "../errors.ts";

const PATTERN = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

/** Replaces `${VAR}` in one string; a missing variable without default is an error naming `where`. */
export function substituteString(
  value: string,
  env: Record<string, string | undefined>,
  where: string,
): string {
  return value.replace(PATTERN, (_match, name: string, fallback: string | undefined) => {
    const found = env[name];
    if (found !== undefined && found !== "") return found;
    if (fallback !== undefined) return fallback;
    throw new ConfigError(`mcp.json: ${where}: environment variable ${name} is not set`);
  });
}

/** Substitutes every string inside a JSON value; `where` prefixes error messages with the field path. */
export function substituteEnv(
  value: unknown,
  env: Record<string, string | undefined>,
  where: string,
): unknown {
  return walk(value, env, where, "");
}

function walk(value: unknown, env: Record<string, string | undefined>, where: string, path: string): unknown {
  const at = () => `${where} field "${path || "(value)"}"`;
  if (typeof value === "string") return substituteString(value, env, at());
  if (Array.isArray(value)) return value.map((item, i) => walk(item, env, where, `${path}[${i}]`));
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      out[key] = walk(item, env, where, path ? `${path}.${key}` : key);
    }
    return out;
  }
  return value;
}
