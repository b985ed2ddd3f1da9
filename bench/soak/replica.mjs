/**
 * One bot replica for the soak suite: the real app (startApp) in its own process, configured by its
 * environment, that reports its URL over IPC and answers memory samples taken after a full GC (the
 * process runs with --expose-gc). SIGTERM stops it the way production does.
 */
import { loadConfig } from "../../src/config.ts";
import { createLogger } from "../../src/logger.ts";
import { startApp } from "../../src/main.ts";

const send = (message: Record<string, unknown>) => process.send?.(message);
const app = await startApp(loadConfig(), createLogger({ level: process.env.LOG_LEVEL ?? "silent" }));
send({ type: "listening", url: app.url });

process.on("message", (message: { type?: string }) => {
  if (message.type !== "sample") return;
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  gc?.();
  const { rss, heapUsed } = process.memoryUsage();
  send({ type: "sample", rss, heapUsed, gc: Boolean(gc) });
});
process.once("SIGTERM", () => {
  void app.stop().finally(() => process.exit(0));
});
