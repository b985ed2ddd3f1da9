/**
 * Guards for the browser-facing routes (the web chat and its API): a web page the operator happens to
 * visit must not be able to drive the bot. JSON-only bodies force a CORS preflight (which this server never
 * grants), a foreign Origin is refused, and — against DNS rebinding — the Host must be a loopback name or
 * one of the configured public host names. Slack and LINE routes are protected by their signatures instead.
 */
import { createHash, timingSafeEqual } from "node:crypto";
import type { NextFunction, Request, Response } from "express";
import { HttpError } from "./chat-request.ts";
import { defaultPort, type HostPort, parseHost, parseOrigin } from "./host-header.ts";

const LOOPBACK_NAMES = new Set(["localhost", "127.0.0.1", "[::1]"]);

export interface BrowserGuardOptions {
  /** Public host names the server is reached by (e.g. behind a reverse proxy). */
  allowedHosts: string[];
}

const FOREIGN_HOST = "このホスト名からの利用は許可されていません（ALLOWED_HOSTS を設定してください）。";

/** Checks the Host header; returns the parsed host, or the error to answer with. */
function checkHost(req: Request, allowed: ReadonlySet<string>): HostPort | HttpError {
  const value = req.get("host");
  if (!value) return new HttpError(400, "Host ヘッダーが必要です。");
  const host = parseHost(value);
  if (!host) return new HttpError(400, "Host ヘッダーの形式が正しくありません。");
  return allowed.has(host.name) ? host : new HttpError(403, FOREIGN_HOST);
}

function allowedSet(options: BrowserGuardOptions): Set<string> {
  return new Set([...LOOPBACK_NAMES, ...options.allowedHosts.map((h) => h.toLowerCase())]);
}

/** Refuses requests whose Host is not ours (DNS rebinding): GET /, /healthz, /tools, /metrics. */
export function hostGuard(options: BrowserGuardOptions) {
  const allowed = allowedSet(options);
  return (req: Request, _res: Response, next: NextFunction) => {
    const host = checkHost(req, allowed);
    next(host instanceof HttpError ? host : undefined);
  };
}

/**
 * Refuses requests whose Host is not ours (DNS rebinding) or whose Origin is another site (CSRF). The
 * origin is the scheme, the host and the port: another port on the same host is another site.
 */
export function browserGuard(options: BrowserGuardOptions) {
  const allowed = allowedSet(options);
  return (req: Request, _res: Response, next: NextFunction) => {
    const host = checkHost(req, allowed);
    if (host instanceof HttpError) return next(host);
    const value = req.get("origin");
    if (value === undefined || value === "null") return next();
    const origin = parseOrigin(value);
    if (!origin) return next(new HttpError(400, "Origin ヘッダーの形式が正しくありません。"));
    const port = (p: number | undefined) => p ?? defaultPort(origin.scheme);
    if (origin.name !== host.name || port(origin.port) !== port(host.port)) {
      return next(new HttpError(403, "別のサイトからのリクエストは受け付けません。"));
    }
    next();
  };
}

/** Refuses bodies that are not JSON, so browsers must ask (and be refused) before a cross-site POST. */
export function requireJson(req: Request, _res: Response, next: NextFunction) {
  if (!req.is("application/json")) {
    return next(new HttpError(415, "Content-Type: application/json で送ってください。"));
  }
  next();
}

/** Compares two secrets in constant time (hashing first, so lengths do not leak either). */
export function sameSecret(given: string, expected: string): boolean {
  const digest = (v: string) => createHash("sha256").update(v).digest();
  return timingSafeEqual(digest(given), digest(expected));
}
