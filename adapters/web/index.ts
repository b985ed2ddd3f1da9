/**
 * The web chat: one static page (adapters/web/public) served at GET / and its assets under /web/.
 * No build step and nothing from outside the origin; the page talks to POST /chat/stream (src/http).
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import express from "express";

export interface WebChatOptions {
  /** Page title and heading (default 「補助金コンシェルジュ」). */
  title?: string;
}

export const DEFAULT_TITLE = "補助金コンシェルジュ";

/** Where the page's files live. */
export const PUBLIC_DIR = fileURLToPath(new URL("./public/", import.meta.url));

/** Scripts, styles and fetches only from this origin; no inline script, no framing. */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join("; ");

const HTML_ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] ?? c);
}

/** The page HTML with the title filled in (escaped). */
export function renderIndexHtml(title: string = DEFAULT_TITLE): string {
  const template = readFileSync(new URL("./public/index.html", import.meta.url), "utf8");
  return template.replaceAll("{{TITLE}}", escapeHtml(title));
}

/** Serves the chat page at GET / and its assets at /web/…. */
export function mountWebChat(app: express.Application, options: WebChatOptions = {}): void {
  const html = renderIndexHtml(options.title?.trim() || DEFAULT_TITLE);
  const security = (res: express.Response) => {
    res.setHeader("Content-Security-Policy", CONTENT_SECURITY_POLICY);
    res.setHeader("X-Content-Type-Options", "nosniff");
    res.setHeader("Referrer-Policy", "no-referrer");
  };
  app.get(["/", "/index.html"], (_req, res) => {
    security(res);
    res.setHeader("Cache-Control", "no-cache");
    res.type("html").send(html);
  });
  // The raw template is only served through GET /, with its title filled in.
  app.get("/web/index.html", (_req, res) => res.redirect(301, "/"));
  app.use(
    "/web",
    express.static(PUBLIC_DIR, {
      index: false,
      fallthrough: true,
      setHeaders: (res, path) => {
        res.setHeader("X-Content-Type-Options", "nosniff");
        res.setHeader("Cache-Control", "no-cache");
        if (path.endsWith(".js")) res.setHeader("Content-Type", "text/javascript; charset=utf-8");
      },
    }),
  );
}
