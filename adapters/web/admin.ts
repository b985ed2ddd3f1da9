/**
 * The admin page of the MCP servers: one static page at GET /admin (its script and style are served with
 * the chat's assets under /web/admin/). It talks only to /admin/mcp-servers (src/http/admin-routes.ts).
 */
import { readFileSync } from "node:fs";
import type express from "express";
import { CONTENT_SECURITY_POLICY } from "./index.ts";

/** Serves the admin page; main.ts mounts it only when ADMIN_TOKEN is set. */
export function mountAdminPage(app: express.Application): void {
  const html = readFileSync(new URL("./public/admin/index.html", import.meta.url), "utf8");
  app.get(["/admin", "/admin/"], (_req, res) => {
    res.setHeader("Content-Security-Policy", CONTENT_SECURITY_POLICY);
    res.setHeader("X-Content-Type-Options", "nosniff");
    res.setHeader("Referrer-Policy", "no-referrer");
    res.setHeader("Cache-Control", "no-cache");
    res.type("html").send(html);
  });
}
