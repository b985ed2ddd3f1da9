/**
 * Runs the server the way `npm start` does (`node --import tsx src/main.ts` from the repo root) as a real
 * child process in its own process group, with an explicit environment (nothing inherited but PATH and
 * HOME), and reads the URL from the "listening on http://…" log line on stdout.
 */
import { type ChildProcessWithoutNullStreams, execFileSync, spawn } from "node:child_process";
import { once } from "node:events";
import { fileURLToPath } from "node:url";

export const REPO_ROOT = fileURLToPath(new URL("../../../", import.meta.url));

export interface AppProcess {
  child: ChildProcessWithoutNullStreams;
  pid: number;
  url: string;
  stdout(): string;
  stderr(): string;
  /** Sends SIGTERM and resolves with the exit code, or null when it did not exit within `withinMs`. */
  terminate(withinMs?: number): Promise<number | null>;
  /** Kills the whole process group (cleanup after a failed test). */
  kill(): void;
}

/** The environment of a child: the given variables, plus what node needs to run. */
export function childEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: process.env.HOME ?? REPO_ROOT, ...env };
}

/** Spawns a node script from the repo root (with tsx for TypeScript), in a new process group. */
export function spawnTsx(script: string, args: string[], env: Record<string, string>) {
  const loader = script.endsWith(".ts") ? ["--import", "tsx"] : [];
  return spawn(process.execPath, [...loader, script, ...args], {
    cwd: REPO_ROOT,
    env: childEnv(env),
    detached: true,
    stdio: ["pipe", "pipe", "pipe"],
  });
}

/** Starts src/main.ts (or a built main.js) and waits for its listening line (or its early exit, which fails). */
export async function startAppProcess(
  env: Record<string, string>,
  timeoutMs = 30_000,
  script = "src/main.ts",
): Promise<AppProcess> {
  const child = spawnTsx(script, [], { LOG_LEVEL: "info", HOST: "127.0.0.1", PORT: "0", ...env });
  let out = "";
  let err = "";
  child.stdout.on("data", (chunk: Buffer) => {
    out += chunk.toString();
  });
  child.stderr.on("data", (chunk: Buffer) => {
    err += chunk.toString();
  });
  const exited = once(child, "exit");
  const pid = child.pid ?? 0;
  const kill = () => {
    try {
      process.kill(-pid, "SIGKILL");
    } catch {
      // already gone
    }
  };
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      kill();
      reject(new Error(`no "listening on" line within ${timeoutMs} ms\nstdout: ${out}\nstderr: ${err}`));
    }, timeoutMs);
    const check = () => {
      const match = /"msg":"[^"]*listening on (http:\/\/[^\s"]+)/.exec(out);
      if (match?.[1]) {
        clearTimeout(timer);
        child.stdout.off("data", check);
        resolve(match[1]);
      }
    };
    child.stdout.on("data", check);
    exited.then(([code]) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code} before listening\nstdout: ${out}\nstderr: ${err}`));
    });
  });
  return {
    child,
    pid,
    url,
    stdout: () => out,
    stderr: () => err,
    async terminate(withinMs = 15_000) {
      if (child.exitCode !== null) return child.exitCode;
      child.kill("SIGTERM");
      const timeout = new Promise<null>((resolve) => setTimeout(() => resolve(null), withinMs).unref());
      const result = await Promise.race([exited.then(([code]) => code as number | null), timeout]);
      return result;
    },
    kill,
  };
}

export interface ProcessInfo {
  pid: number;
  ppid: number;
  pgid: number;
  args: string;
}

/** Every live process on the machine, from `ps` (zombies, already dead, are left out). */
export function listProcesses(): ProcessInfo[] {
  const text = execFileSync("ps", ["-eo", "pid=,ppid=,pgid=,stat=,args="], { encoding: "utf8" });
  return text
    .split("\n")
    .map((line) => /^\s*(\d+)\s+(\d+)\s+(\d+)\s+(\S+)\s+(.*)$/.exec(line))
    .filter((m): m is RegExpExecArray => m !== null && !m[4]?.startsWith("Z"))
    .map((m) => ({ pid: Number(m[1]), ppid: Number(m[2]), pgid: Number(m[3]), args: m[5] ?? "" }));
}

/** All descendants of a pid (children, grandchildren, …). */
export function descendantsOf(pid: number, all = listProcesses()): ProcessInfo[] {
  const out: ProcessInfo[] = [];
  let frontier = [pid];
  while (frontier.length > 0) {
    const next = all.filter((p) => frontier.includes(p.ppid));
    out.push(...next);
    frontier = next.map((p) => p.pid);
  }
  return out;
}

/** Processes that are still alive among the given pids, or still in the process group `pgid`. */
export function survivors(pids: number[], pgid: number): ProcessInfo[] {
  return listProcesses().filter((p) => pids.includes(p.pid) || p.pgid === pgid);
}
