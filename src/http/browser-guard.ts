/**
 * Guards for the browser-facing routes (the web chat and its API): a web page the operator happens to
 * visit must not be able to drive the bot. JSON-only bodies force a CORS preflight (which this server never
 * grants), a foreign Origin is refused, and — against DNS rebinding — the Host must be a loopback name or
 * one of the configured public host names. Slack and LINE routes are protected by their signatures instead.
 */
import { createHash, timingSafeEqual } from "node:crypto";
import type { NextFunction, Request, Response } from "express";
import { HttpError } from "./chat-request.ts";

const LOOPBACK_NAMES = new Set(["localhost", "127.0.0.1", "[::1]", "::1"]);

/** The host name of a Host header or an Origin URL, lower-cased, without the port. */
function hostName(value: string): string {
  const host = value.includes("://") ? new URL(value).host : value;
  return host.replace(/:\d+$/, "").toLowerCase();
}

export interface BrowserGuardOptions {
  /** Public host names the server is reached by (e.g. behind a reverse proxy). */
  allowedHosts: string[];
}

/** Refuses requests whose Host is not ours (DNS rebinding) or whose Origin is another site (CSRF). */
export function browserGuard(options: BrowserGuardOptions) {
  const allowed = new Set([...LOOPBACK_NAMES, ...options.allowedHosts.map((h) => h.toLowerCase())]);
  return (req: Request, _res: Response, next: NextFunction) => {
    const host = req.get("host");
    if (!host || !allowed.has(hostName(host))) {
      return next(
        new HttpError(
          403,
          "このホスト名からの利用は許可されていません（ALLOWED_HOSTS を設定してください）。",
        ),
      );
    }
    const origin = req.get("origin");
    if (origin && origin !== "null" && hostName(origin) !== hostName(host)) {
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
