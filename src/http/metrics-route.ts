/** GET /metrics: the Prometheus text format from prom-client, behind the Host check and an optional token. */
import type { Application, NextFunction, Request, Response } from "express";
import type { Metrics } from "../metrics/registry.ts";
import { sameSecret } from "./browser-guard.ts";
import { HttpError } from "./chat-request.ts";

/** Mounts /metrics; with a token, scrapers must send `Authorization: Bearer <token>`. */
export function mountMetrics(app: Application, metrics: Metrics, token?: string): void {
  const auth = (req: Request, _res: Response, next: NextFunction) => {
    if (!token || sameSecret(req.get("authorization") ?? "", `Bearer ${token}`)) return next();
    next(new HttpError(401, "認証が必要です（Authorization: Bearer <METRICS_TOKEN>）。"));
  };
  app.get("/metrics", auth, async (_req, res, next) => {
    try {
      const text = await metrics.registry.metrics();
      res.set("Content-Type", metrics.registry.contentType).send(text);
    } catch (error) {
      next(error);
    }
  });
}
