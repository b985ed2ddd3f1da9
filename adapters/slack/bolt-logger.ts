/** Bolt and the Web API client log through the project's pino logger (so redaction applies). */
import { type Logger as BoltLogger, LogLevel } from "@slack/bolt";
import type { Logger } from "../../src/logger.ts";

const line = (parts: unknown[]): string =>
  parts
    .map((p) => (p instanceof Error ? p.message : typeof p === "string" ? p : JSON.stringify(p)))
    .join(" ");

/** Wraps a pino logger in Bolt's Logger interface; Bolt's chatty info lines go to debug. */
export function toBoltLogger(logger: Logger): BoltLogger {
  const log = logger.child({ component: "bolt" });
  return {
    debug: (...parts: unknown[]) => log.debug(line(parts)),
    info: (...parts: unknown[]) => log.debug(line(parts)),
    warn: (...parts: unknown[]) => log.warn(line(parts)),
    error: (...parts: unknown[]) => log.error(line(parts)),
    setLevel: () => undefined,
    getLevel: () => LogLevel.DEBUG,
    setName: () => undefined,
  };
}
