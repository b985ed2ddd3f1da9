/**
 * An HTTP GET that connects only to addresses the guard accepted: each hop is resolved and checked, the
 * socket is pinned to the checked address (no second DNS answer can differ), and redirects are followed
 * by hand so every target is checked again. Body size and total time are capped.
 */
import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import { scopedSignal } from "../../abort.ts";
import { checkedAddress, ForbiddenAddressError, type Resolver } from "./address-guard.ts";

export interface SafeFetchOptions {
  resolver: Resolver;
  /** Addresses allowed despite their range (tests only: e.g. 127.0.0.1 for a local page). */
  allowAddresses?: ReadonlySet<string>;
  maxBytes: number;
  timeoutMs: number;
  maxRedirects?: number;
  signal?: AbortSignal;
}

export interface SafeResponse {
  url: string;
  status: number;
  contentType: string;
  body: Buffer;
  truncated: boolean;
}

/** Fetches `input` under the guard; throws ForbiddenAddressError for refused targets. */
export async function safeFetch(input: string, options: SafeFetchOptions): Promise<SafeResponse> {
  const scope = scopedSignal({ follow: [options.signal], timeoutMs: options.timeoutMs });
  try {
    let url = parseUrl(input);
    for (let hop = 0; hop <= (options.maxRedirects ?? 5); hop++) {
      const target = await checkedAddress(url, options.resolver, options.allowAddresses);
      const response = await request(url, target, options.maxBytes, scope.signal);
      if (response.location === undefined) return response;
      url = parseUrl(response.location, url);
    }
  } finally {
    scope.dispose();
  }
  throw new Error(`too many redirects (more than ${options.maxRedirects ?? 5})`);
}

function parseUrl(value: string, base?: URL): URL {
  let url: URL;
  try {
    url = new URL(value, base);
  } catch {
    throw new ForbiddenAddressError(`not a valid URL: ${value.slice(0, 200)}`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new ForbiddenAddressError(`only http and https URLs are allowed (got ${url.protocol})`);
  }
  if (url.username || url.password) throw new ForbiddenAddressError("URLs with credentials are not allowed");
  return url;
}

function request(
  url: URL,
  target: { address: string; family: 4 | 6 },
  maxBytes: number,
  signal: AbortSignal,
): Promise<SafeResponse & { location?: string }> {
  const pinned: LookupFunction = (_host, opts, callback) => {
    if (opts.all) callback(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  };
  const client = url.protocol === "https:" ? https : http;
  return new Promise((resolve, reject) => {
    const req = client.get(
      url,
      {
        lookup: pinned,
        signal,
        headers: {
          "user-agent": "subsidy-concierge-fetch/0.1",
          accept: "text/html,application/xhtml+xml,text/plain,application/json;q=0.9,*/*;q=0.5",
        },
      },
      (res) => {
        const status = res.statusCode ?? 0;
        const contentType = String(res.headers["content-type"] ?? "");
        if (status >= 300 && status < 400 && res.headers.location) {
          res.resume();
          resolve({
            url: url.href,
            status,
            contentType,
            body: Buffer.alloc(0),
            truncated: false,
            location: res.headers.location,
          });
          return;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        let truncated = false;
        res.on("data", (chunk: Buffer) => {
          if (truncated) return;
          const room = maxBytes - size;
          if (chunk.length >= room) {
            chunks.push(chunk.subarray(0, room));
            size = maxBytes;
            truncated = true;
            res.destroy();
            resolve({ url: url.href, status, contentType, body: Buffer.concat(chunks), truncated });
            return;
          }
          chunks.push(chunk);
          size += chunk.length;
        });
        res.on("end", () =>
          resolve({ url: url.href, status, contentType, body: Buffer.concat(chunks), truncated }),
        );
        res.on("error", reject);
      },
    );
    req.on("error", (error) => reject(timeoutOr(error, signal)));
  });
}

function timeoutOr(error: Error, signal: AbortSignal): Error {
  if (signal.aborted && signal.reason instanceof Error && signal.reason.name === "TimeoutError") {
    return new Error("the request timed out");
  }
  return error;
}
