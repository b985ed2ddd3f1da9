/**
 * The admin API of the MCP servers (off unless ADMIN_TOKEN is set): list, add, edit, enable/disable,
 * remove, test and reconnect, as JSON under /admin/mcp-servers. The same Host/Origin guard as /chat, a
 * bearer token compared in constant time, a trace id on every answer and log line, secrets masked.
 */
import { randomUUID } from "node:crypto";
import express, { type Application, type NextFunction, type Request, type Response } from "express";
import { describeError } from "../errors.ts";
import type { Logger } from "../logger.ts";
import type { ManagedHost } from "../tools/managed-host.ts";
import { RegistryError } from "../tools/registry-entry.ts";
import { resolveOpenApiUrls } from "./admin-openapi.ts";
import { serverView } from "./admin-view.ts";
import { browserGuard, requireJson, sameSecret } from "./browser-guard.ts";
import { HttpError } from "./chat-request.ts";

export interface AdminRoutesOptions {
  mcp: ManagedHost;
  /** Accepted bearer tokens and the label recorded as who changed a server. */
  tokens: { label: string; token: string }[];
  allowedHosts?: string[];
  /** Whether stdio servers may be added (ADMIN_ALLOW_STDIO); the page greys the choice out otherwise. */
  allowStdio: boolean;
  logger: Logger;
}

/** What an admin request carries after the guard: who asked, and the trace id of its log lines. */
interface AdminLocals {
  actor: string;
  traceId: string;
}

const BASE = "/admin/mcp-servers";

/** Mounts the API; does nothing when no token is configured. */
export function mountAdminRoutes(app: Application, options: AdminRoutesOptions): void {
  if (options.tokens.length === 0) return;
  const { mcp, logger } = options;
  const { registry, host } = mcp;
  const json = express.json({ limit: "1mb" });
  const guard = browserGuard({ allowedHosts: options.allowedHosts ?? [] });

  const auth = (req: Request, res: Response, next: NextFunction) => {
    const given = req.get("authorization") ?? "";
    // Every token is compared, so the time taken does not tell which one came close.
    let actor: string | undefined;
    for (const { label, token } of options.tokens) {
      if (sameSecret(given, `Bearer ${token}`) && !actor) actor = label;
    }
    // A caller's own trace id is kept only when it is a plain token (it goes into log lines).
    const offered = req.get("x-trace-id") ?? "";
    const traceId = /^[A-Za-z0-9._-]{8,64}$/.test(offered) ? offered : randomUUID();
    res.set("x-trace-id", traceId);
    if (!actor)
      return next(new HttpError(401, "管理用トークンが必要です（Authorization: Bearer <ADMIN_TOKEN>）。"));
    res.locals.admin = { actor, traceId } satisfies AdminLocals;
    next();
  };
  const who = (res: Response) => res.locals.admin as AdminLocals;
  const view = (name: string) => {
    const entry = registry.entry(name);
    return (
      entry &&
      serverView(
        entry,
        host.servers[name],
        host.status().find((s) => s.name === name),
      )
    );
  };
  const known = (name: string) => {
    if (!registry.entry(name)) throw new RegistryError(404, `"${name}" というサーバーはありません。`);
  };
  const audit = (res: Response, action: string, server: string, extra: Record<string, unknown> = {}) =>
    logger.info({ ...who(res), action, server, ...extra }, `admin: mcp server ${action}`);

  app.use(BASE, guard, auth);

  app.get(BASE, (_req, res) => {
    res.json({ servers: registry.entries().map((e) => view(e.name)), allowStdio: options.allowStdio });
  });

  app.post(BASE, requireJson, json, async (req, res) => {
    const body = objectBody(req.body);
    const name = typeof body.name === "string" ? body.name : "";
    if (!name) throw new RegistryError(400, "name を指定してください。", "name");
    await registry.add(name, await resolveOpenApiUrls(body.config), who(res).actor);
    audit(res, "added", name);
    // Connect now, so the list shows at once whether it works.
    if (host.servers[name]?.enabled) void host.reconnect(name).catch(() => undefined);
    res.status(201).json({ server: view(name) });
  });

  app.patch(`${BASE}/:name`, requireJson, json, async (req, res) => {
    const name = String(req.params.name);
    await registry.update(name, await resolveOpenApiUrls(objectBody(req.body)), who(res).actor);
    audit(res, "updated", name, { fields: Object.keys(objectBody(req.body)) });
    if (host.servers[name]?.enabled) void host.reconnect(name).catch(() => undefined);
    res.json({ server: view(name) });
  });

  app.delete(`${BASE}/:name`, async (req, res) => {
    const name = String(req.params.name);
    await registry.remove(name, who(res).actor);
    audit(res, "removed", name);
    res.status(204).end();
  });

  app.post(`${BASE}/:name/test`, json, async (req, res) => {
    const name = String(req.params.name);
    const config = req.is("application/json") ? objectBody(req.body ?? {}).config : undefined;
    if (config === undefined) known(name);
    const server =
      config === undefined ? host.servers[name] : registry.validate(name, await resolveOpenApiUrls(config));
    if (!server)
      throw new RegistryError(409, registry.entry(name)?.problem ?? `"${name}" は動いていません。`);
    try {
      const tools = await host.probe({ ...server, enabled: true });
      audit(res, "tested", name, { ok: true, tools: tools.length });
      res.json({
        ok: true,
        tools: tools.map((t) => ({ name: t.name, description: t.description, readOnly: t.readOnly })),
      });
    } catch (error) {
      audit(res, "tested", name, { ok: false });
      res.status(502).json({ ok: false, error: `接続できませんでした: ${describeError(error)}` });
    }
  });

  app.post(`${BASE}/:name/reconnect`, async (req, res) => {
    const name = String(req.params.name);
    known(name);
    if (!host.servers[name]?.enabled) throw new RegistryError(409, `"${name}" は無効になっています。`);
    try {
      await host.reconnect(name);
      audit(res, "reconnected", name, { ok: true });
      res.json({ ok: true, server: view(name) });
    } catch (error) {
      audit(res, "reconnected", name, { ok: false });
      res
        .status(502)
        .json({ ok: false, error: `接続できませんでした: ${describeError(error)}`, server: view(name) });
    }
  });

  app.use(BASE, (error: unknown, _req: Request, res: Response, next: NextFunction) => {
    if (!(error instanceof RegistryError)) return next(error);
    res.status(error.status).json({ error: error.message, ...(error.field ? { field: error.field } : {}) });
  });
}

function objectBody(body: unknown): Record<string, unknown> {
  if (!body || typeof body !== "object" || Array.isArray(body)) {
    throw new RegistryError(400, "本文は JSON オブジェクトで送ってください。", "(body)");
  }
  return body as Record<string, unknown>;
}
