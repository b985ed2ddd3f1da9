/**
 * One bot replica for the soak suite: the real app (startApp) in its own process, configured by its
 * environment, that reports its URL over IPC and answers memory samples taken after a full GC (the
 * process runs with --expose-gc). SIGTERM stops it the way production does. Plain JavaScript, so that it
 * runs the built app (dist/) with plain node as production does; with --source it runs the TypeScript
 * sources instead (the process then needs --import tsx).
 */
const fromSource = process.argv.includes("--source");
const app = (module) =>
  import(
    new URL(fromSource ? `../../src/${module}.ts` : `../../dist/src/${module}.js`, import.meta.url).href
  );

const [{ loadConfig }, { createLogger }, { startApp }] = await Promise.all([
  app("config"),
  app("logger"),
  app("main"),
]);
const send = (message) => process.send?.(message);
const running = await startApp(loadConfig(), createLogger({ level: process.env.LOG_LEVEL ?? "silent" }));
send({ type: "listening", url: running.url });

process.on("message", (message) => {
  if (message?.type !== "sample") return;
  const gc = globalThis.gc;
  gc?.();
  gc?.();
  const { rss, heapUsed } = process.memoryUsage();
  send({ type: "sample", rss, heapUsed, gc: Boolean(gc) });
});
process.once("SIGTERM", () => {
  void running.stop().finally(() => process.exit(0));
});
