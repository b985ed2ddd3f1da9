/**
 * Starts a real redis-server for tests on a free loopback port, without persistence, and stops it
 * afterwards. A missing binary skips the Redis tests locally (with a clear message) but fails them in CI.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { createServer, Socket } from "node:net";

const BINARY = "redis-server";

/** Whether redis-server can run here; in CI (process.env.CI set) a missing binary throws instead. */
export function redisServerAvailable(): boolean {
  const probe = spawnSync(BINARY, ["--version"], { encoding: "utf8" });
  if (!probe.error && probe.status === 0) return true;
  const why = `${BINARY} not found (${probe.error?.message ?? `exit ${probe.status}`})`;
  if (process.env.CI) throw new Error(`${why}: CI must install redis-server (apt-get install redis-server)`);
  console.warn(`[redis tests skipped] ${why}. Install redis-server to run them.`);
  return false;
}

export interface RedisServer {
  readonly port: number;
  readonly url: string;
  readonly pid: number;
  /** Stops the server (SIGKILL when `hard`, to simulate a crash) and waits for the process to end. */
  stop(hard?: boolean): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new Socket();
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
    socket.connect(port, "127.0.0.1");
  });
}

function waitForExit(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once("exit", () => resolve()));
}

export interface RedisServerOptions {
  /** Persist with an append-only file (fsync on every write) in this directory; restart on the same port to reload it. */
  aofDir?: string;
}

/** Starts redis-server on a free port (or the given one); resolves once it accepts connections. */
export async function startRedisServer(
  port?: number,
  options: RedisServerOptions = {},
): Promise<RedisServer> {
  const chosen = port ?? (await freePort());
  const persistence = options.aofDir
    ? ["--appendonly", "yes", "--appendfsync", "always", "--dir", options.aofDir]
    : ["--appendonly", "no"];
  const child = spawn(
    BINARY,
    ["--port", String(chosen), "--bind", "127.0.0.1", "--save", "", ...persistence],
    {
      stdio: ["ignore", "ignore", "pipe"],
    },
  );
  // If the test process ends without calling stop(), do not leave the server behind.
  const reap = () => child.kill("SIGKILL");
  process.once("exit", reap);
  child.once("exit", () => process.removeListener("exit", reap));
  let failure = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    failure += chunk.toString();
  });
  for (let attempt = 0; attempt < 200; attempt += 1) {
    if (child.exitCode !== null) throw new Error(`redis-server exited early: ${failure.trim()}`);
    if (await canConnect(chosen)) break;
    await new Promise((resolve) => setTimeout(resolve, 25));
    if (attempt === 199) {
      child.kill("SIGKILL");
      throw new Error(`redis-server did not accept connections on port ${chosen}`);
    }
  }
  const pid = child.pid ?? -1;
  return {
    port: chosen,
    url: `redis://127.0.0.1:${chosen}`,
    pid,
    async stop(hard = false) {
      if (child.exitCode === null && child.signalCode === null) child.kill(hard ? "SIGKILL" : "SIGTERM");
      await waitForExit(child);
    },
  };
}
