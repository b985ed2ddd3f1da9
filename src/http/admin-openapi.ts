/**
 * http-api servers described by an OpenAPI URL: the admin API fetches the document when the entry is
 * saved or tested and stores it inline (`openapi`), keeping `openapiUrl` as the source the page shows.
 * JSON documents only, at most 2 MB, within 10 s.
 */
import { scopedSignal } from "../abort.ts";
import { describeError } from "../errors.ts";
import { RegistryError } from "../tools/registry-entry.ts";

const MAX_BYTES = 2_000_000;
const TIMEOUT_MS = 10_000;

type Entry = Record<string, unknown>;

/** The entry with every `apis[i].openapiUrl` fetched into `apis[i].openapi`; other values unchanged. */
export async function resolveOpenApiUrls(config: unknown): Promise<unknown> {
  if (!config || typeof config !== "object" || !Array.isArray((config as Entry).apis)) return config;
  const apis = (config as Entry).apis as unknown[];
  const resolved = await Promise.all(
    apis.map(async (api, i) => {
      if (!api || typeof api !== "object" || !("openapiUrl" in api)) return api;
      const entry = api as Entry;
      const openapi = await fetchDocument(entry.openapiUrl, `apis.${i}.openapiUrl`);
      return { ...entry, openapi };
    }),
  );
  return { ...(config as Entry), apis: resolved };
}

async function fetchDocument(value: unknown, field: string): Promise<unknown> {
  const fail = (why: string) => new RegistryError(400, `OpenAPI 文書を取得できませんでした: ${why}`, field);
  let url: URL;
  try {
    url = new URL(String(value));
  } catch {
    throw fail("URL の形式が正しくありません");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw fail("http(s) の URL を指定してください");
  const scope = scopedSignal({ timeoutMs: TIMEOUT_MS });
  try {
    const res = await fetch(url, { signal: scope.signal, headers: { accept: "application/json" } });
    if (!res.ok) throw fail(`HTTP ${res.status}`);
    const text = await res.text();
    if (text.length > MAX_BYTES) throw fail("2MB を超えています");
    try {
      return JSON.parse(text);
    } catch {
      throw fail("JSON ではありません（YAML は未対応です）");
    }
  } catch (error) {
    if (error instanceof RegistryError) throw error;
    throw fail(scope.timedOut() ? "タイムアウトしました" : describeError(error));
  } finally {
    scope.dispose();
  }
}
