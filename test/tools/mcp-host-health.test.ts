/**
 * What an operator sees when a configured server is down: /healthz and /tools of the real HTTP app over
 * the real host, with jGrants pointed (JGRANTS_MCP_URL) at a server that accepts connections but never
 * answers, then brought back on the same port.
 */
import { createServer, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMcpHost, type McpHost } from "../../src/tools/mcp-host.ts";
import type { ServerStatus } from "../../src/types.ts";
import { type FakeMcpHttp, startFakeMcpHttp } from "../fakes/fake-mcp-http.ts";
import { readJson } from "../helpers/json.ts";
import { fastTiming, jgrantsConfig, mcpConfig, serveStatus } from "./helpers.ts";

describe("health of an unreachable jGrants server, as /healthz and /tools report it", () => {
  const sockets = new Set<Socket>();
  const hung = createServer((socket) => sockets.add(socket));
  let port: number;
  let host: McpHost;
  let status: Awaited<ReturnType<typeof serveStatus>> | undefined;
  let url: string;
  let revived: FakeMcpHttp | undefined;

  beforeAll(async () => {
    await new Promise<void>((resolve) => hung.listen(0, "127.0.0.1", resolve));
    port = (hung.address() as { port: number }).port;
    host = createMcpHost({
      config: mcpConfig(),
      jgrants: { ...jgrantsConfig, mcpUrl: `http://127.0.0.1:${port}/mcp` },
      servers: {
        jgrants: { kind: "builtin", name: "jgrants", builtin: "jgrants", enabled: true },
        time: { kind: "builtin", name: "time", builtin: "time", enabled: true },
      },
      timing: { ...fastTiming, connectTimeoutMs: 300 },
    });
    status = await serveStatus(host);
    url = status.url;
  });

  afterAll(async () => {
    await host?.close();
    await status?.close();
    for (const socket of sockets) socket.destroy();
    if (hung.listening) await new Promise((resolve) => hung.close(resolve));
    await revived?.close();
  });

  const jgrants = (): ServerStatus | undefined => host.status().find((s) => s.name === "jgrants");

  it("lists the other servers' tools with server and status, and /healthz answers 503 naming jGrants", async () => {
    const tools = await readJson(await fetch(`${url}/tools`));
    expect(tools.tools.length).toBeGreaterThan(0);
    for (const tool of tools.tools) expect(tool).toMatchObject({ server: "time", status: "connected" });
    expect(tools.tools.map((t: { name: string }) => t.name)).toContain("now");
    expect(tools.servers).toContainEqual(
      expect.objectContaining({ name: "jgrants", state: "failed", toolCount: 0 }),
    );

    const res = await fetch(`${url}/healthz`);
    expect(res.status).toBe(503);
    const health = await readJson(res);
    expect(health.status).toBe("down");
    const reported = health.components.tools.find((s: ServerStatus) => s.name === "jgrants");
    expect(reported).toMatchObject({ state: "failed", toolCount: 0 });
    expect(reported.lastError).toMatch(/timed out/i);
  });

  it("stays failed while the host keeps retrying in the background, so health does not flap", async () => {
    const seen = new Set<string>();
    const sample = setInterval(() => seen.add(jgrants()?.state ?? "?"), 5);
    try {
      const before = sockets.size;
      // Three more background attempts, each of them connecting and timing out.
      await expect.poll(() => sockets.size, { timeout: 10_000 }).toBeGreaterThanOrEqual(before + 3);
    } finally {
      clearInterval(sample);
    }
    expect([...seen]).toEqual(["failed"]);
  });

  it("comes back by itself when the server answers again on the same port", async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => hung.close(resolve));
    revived = await startFakeMcpHttp({ mode: "stateful", name: "official", port });
    await expect.poll(() => jgrants()?.state, { timeout: 10_000 }).toBe("connected");
    const res = await fetch(`${url}/healthz`);
    expect(res.status).toBe(200);
    expect((await readJson(res)).status).toBe("ok");
    const result = await host.callTool({ server: "jgrants", tool: "echo", args: { text: "x" } });
    expect(result).toMatchObject({ isError: false, text: "official:x" });
  });
});
