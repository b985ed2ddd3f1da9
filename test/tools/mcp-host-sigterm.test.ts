import { spawn } from "node:child_process";
import { once } from "node:events";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const SCRIPT = fileURLToPath(new URL("../fakes/fake-mcp-host-process.ts", import.meta.url));
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe("MCP host process", () => {
  it("leaves no stdio child running after SIGTERM", async () => {
    const host = spawn(process.execPath, ["--import", "tsx", SCRIPT], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    let out = "";
    host.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
    });
    let childPid: number | undefined;
    try {
      await expect.poll(() => out.includes("\n"), { timeout: 20_000 }).toBe(true);
      childPid = (JSON.parse(out.trim()) as { pid: number }).pid;
      expect(alive(childPid)).toBe(true);
      const exited = once(host, "exit");
      host.kill("SIGTERM");
      const [code] = await exited;
      expect(code).toBe(0);
      expect(alive(childPid)).toBe(false);
    } finally {
      // A failed run must not leave the host or its child behind.
      if (host.exitCode === null && host.signalCode === null) host.kill("SIGKILL");
      if (childPid !== undefined && alive(childPid)) process.kill(childPid, "SIGKILL");
    }
  });
});
