/**
 * The container files (issue 14). No container runtime runs on the build machine, so this checks what can
 * be checked without one: the Dockerfile's facts (multi-stage on node:20-slim, production dependencies
 * only, non-root, HEALTHCHECK on /healthz, the SQLite directory as a volume, node running the build), the
 * .dockerignore, and compose.yaml (two replicas on one Redis with AOF; only real configuration keys),
 * plus `docker-compose config` when it is installed (CI installs it).
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { configKeys } from "../../src/config.ts";
import { REPO_ROOT } from "../e2e/support/app-process.ts";

const read = (path: string) => readFileSync(`${REPO_ROOT}${path}`, "utf8");

/** Dockerfile instructions, with continuation lines joined and comments dropped. */
function instructions(text: string): Array<{ op: string; args: string }> {
  return text
    .replace(/\\\n/g, " ")
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith("#"))
    .map((line) => {
      const [op = "", ...rest] = line.split(/\s+/);
      return { op: op.toUpperCase(), args: rest.join(" ") };
    });
}

describe("Dockerfile", () => {
  const steps = instructions(read("Dockerfile"));
  const stages = steps.filter((s) => s.op === "FROM");
  const runtimeStart = steps.lastIndexOf(stages.at(-1)!);
  const runtime = steps.slice(runtimeStart);

  it("is multi-stage on Node 20 slim", () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    const base = steps.find((s) => s.op === "ARG" && s.args.startsWith("NODE_IMAGE="));
    expect(base?.args).toBe("NODE_IMAGE=node:20-slim");
    for (const stage of stages) expect(stage.args).toMatch(/^\$\{NODE_IMAGE\} AS \w+$/);
  });

  it("ships production dependencies only, and the compiled build", () => {
    const installs = steps.filter((s) => s.op === "RUN" && s.args.includes("npm ci"));
    const runtimeModules = runtime.find((s) => s.op === "COPY" && s.args.includes("node_modules"));
    const from = /--from=(\w+)/.exec(runtimeModules?.args ?? "")?.[1];
    const source = steps.slice(steps.findIndex((s) => s.op === "FROM" && s.args.endsWith(`AS ${from}`)));
    expect(source.find((s) => s.op === "RUN" && s.args.includes("npm ci"))?.args).toContain("--omit=dev");
    expect(installs.length).toBe(2);
    expect(runtime.some((s) => s.op === "COPY" && /--from=build \/app\/dist/.test(s.args))).toBe(true);
    expect(runtime.some((s) => s.op === "RUN" && s.args.includes("npm ci"))).toBe(false);
  });

  it("runs node on the build as a non-root user, with a health check and a data volume", () => {
    expect(runtime.filter((s) => s.op === "USER").at(-1)?.args).toBe("node");
    const cmd = JSON.parse(runtime.find((s) => s.op === "CMD")!.args) as string[];
    expect(cmd).toEqual(["node", "dist/src/main.js"]);
    const pkg = JSON.parse(read("package.json")) as { scripts: Record<string, string> };
    expect(pkg.scripts["start:prod"]).toBe(cmd.join(" "));
    expect(runtime.find((s) => s.op === "HEALTHCHECK")?.args).toMatch(/CMD .*\/healthz/);
    const env = runtime.find((s) => s.op === "ENV")?.args ?? "";
    const sqlitePath = /SQLITE_PATH=(\S+)/.exec(env)?.[1];
    expect(sqlitePath).toBe("/data/threads.sqlite");
    expect(runtime.find((s) => s.op === "VOLUME")?.args).toBe('["/data"]');
    expect(env).toMatch(/HOST=0\.0\.0\.0/);
  });

  it("keeps secrets, dependencies and local data out of the build context", () => {
    const ignored = read(".dockerignore").split("\n");
    for (const entry of [".env", "node_modules", "dist", "data", "*.sqlite", ".git"]) {
      expect(ignored).toContain(entry);
    }
  });
});

describe("compose.yaml", () => {
  const compose = parse(read("compose.yaml"), { merge: true }) as {
    services: Record<string, { environment?: Record<string, string>; image?: string; command?: string[] }>;
  };
  const bots = Object.entries(compose.services).filter(([name]) => name.startsWith("bot"));

  it("runs two bot replicas on one Redis with AOF", () => {
    expect(bots).toHaveLength(2);
    expect(compose.services.redis?.command).toEqual(["redis-server", "--appendonly", "yes"]);
    for (const [, bot] of bots) {
      expect(bot.environment?.REDIS_URL).toBe("redis://redis:6379");
      expect(bot.environment?.STORE_BACKEND).toBe("redis");
    }
  });

  it("sets only variables the app reads", () => {
    for (const [, bot] of bots) {
      for (const key of Object.keys(bot.environment ?? {})) expect(configKeys).toContain(key);
    }
  });

  const composeCli = spawnSync("docker-compose", ["version"], { encoding: "utf8" });
  it.runIf(!composeCli.error && composeCli.status === 0)("passes `docker-compose config`", () => {
    const check = spawnSync("docker-compose", ["-f", "compose.yaml", "config", "-q"], {
      cwd: REPO_ROOT,
      encoding: "utf8",
    });
    expect(check.stderr).toBe("");
    expect(check.status).toBe(0);
  });
});
