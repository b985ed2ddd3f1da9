/**
 * The processes of the soak suite: bot replicas (bench/soak/replica.mjs) and a standalone jGrants MCP
 * server over HTTP, each a real child process on loopback that the faults can SIGKILL and restart. They run
 * the built app (dist/) with plain node, as production does, unless runFromSource() chose the TypeScript
 * sources (through tsx).
 */
import { type ChildProcess, fork } from "node:child_process";
import { once } from "node:events";
import { fileURLToPath } from "node:url";
import { closedPort } from "../../test/e2e/support/chat.ts";

const path = (relative: string) => fileURLToPath(new URL(relative, import.meta.url));
const REPLICA = path("./replica.mjs");

let fromSource = false;
/** Runs the children from the TypeScript sources through tsx instead of the built app. */
export function runFromSource(yes: boolean): void {
  fromSource = yes;
}
const tsx = () => (fromSource ? ["--import", "tsx"] : []);
const jgrantsCli = () =>
  path(fromSource ? "../../src/mcp-servers/jgrants/cli.ts" : "../../dist/src/mcp-servers/jgrants/cli.js");

export interface Replica {
  name: string;
  url: string;
  child: ChildProcess;
  /** RSS and heap after a full GC, in bytes. */
  sample(): Promise<{ rss: number; heapUsed: number }>;
  kill(): Promise<void>;
  stop(): Promise<void>;
}

/** A free loopback port (bound, then released). */
export const freePort = closedPort;

const exited = (child: ChildProcess) =>
  child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : once(child, "exit").then(() => {});

/** Starts a replica with the given environment (nothing inherited but PATH and HOME). */
export async function startReplica(name: string, env: Record<string, string>): Promise<Replica> {
  const child = fork(REPLICA, fromSource ? ["--source"] : [], {
    execArgv: ["--expose-gc", ...tsx()],
    env: { PATH: process.env.PATH, HOME: process.env.HOME, HOST: "127.0.0.1", PORT: "0", ...env },
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const url = await new Promise<string>((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`replica ${name} exited with ${code} before listening`)));
    child.on("message", (m: { type?: string; url?: string }) => {
      if (m.type === "listening" && m.url) resolve(m.url);
    });
  });
  return {
    name,
    url,
    child,
    sample: () =>
      new Promise((resolve) => {
        const onMessage = (m: { type?: string; rss?: number; heapUsed?: number }) => {
          if (m.type !== "sample") return;
          child.off("message", onMessage);
          resolve({ rss: m.rss ?? 0, heapUsed: m.heapUsed ?? 0 });
        };
        child.on("message", onMessage);
        child.send({ type: "sample" });
      }),
    async kill() {
      child.kill("SIGKILL");
      await exited(child);
    },
    async stop() {
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
      await exited(child);
      clearTimeout(timer);
    },
  };
}

/** A jGrants MCP server (bundled snapshot) over streamable HTTP on the given port; resolves once it answers. */
export async function startJgrantsMcp(port: number): Promise<{ url: string; kill(): Promise<void> }> {
  const child = fork(jgrantsCli(), ["--port", String(port), "--host", "127.0.0.1", "--source", "snapshot"], {
    execArgv: tsx(),
    env: { PATH: process.env.PATH, HOME: process.env.HOME, LOG_LEVEL: "silent", JGRANTS_SOURCE: "snapshot" },
    stdio: ["ignore", "ignore", "inherit", "ipc"],
  });
  const url = `http://127.0.0.1:${port}/mcp`;
  for (let i = 0; i < 400; i += 1) {
    if (child.exitCode !== null) throw new Error(`jgrants MCP server exited with ${child.exitCode}`);
    const up = await fetch(url, { method: "GET" }).then(
      () => true,
      () => false,
    );
    if (up) break;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return {
    url,
    async kill() {
      child.kill("SIGKILL");
      await exited(child);
    },
  };
}
