/**
 * A finished /chat request leaves nothing behind: its turn signal follows the server's long-lived shutdown
 * signal, and neither that link nor the listeners the agent and SDKs hang on the turn signal (16 KB each
 * here) may outlive the response.
 */
import { getEventListeners } from "node:events";
import type { Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Agent } from "../../src/agent/agent.ts";
import { createHttpApp, finishHttpApp, listen } from "../../src/http/server.ts";
import { silentLogger } from "../../src/logger.ts";
import { createFakeAgent } from "../fakes/fake-agent.ts";
import { createMemoryStoreFake } from "../fakes/memory-store.ts";
import { createSnapshotTools } from "../fakes/snapshot-tools.ts";
import { heapGrowthPerOp } from "../helpers/heap.ts";

const shutdown = new AbortController();
let server: Server;
let url: string;

beforeAll(async () => {
  const fake = createFakeAgent({ progress: [] });
  // Like an SDK would: a listener with a sizeable closure on the turn's signal, never removed.
  const agent = {
    handle(turn, options = {}) {
      const held = new Uint8Array(16_384);
      options.signal?.addEventListener("abort", () => held.fill(1));
      return fake.handle(turn, options);
    },
  } as Agent;
  const app = createHttpApp({
    agent,
    tools: createSnapshotTools(),
    store: createMemoryStoreFake(),
    logger: silentLogger,
    shutdownSignal: shutdown.signal,
    llm: { mode: "offline", model: null },
  });
  finishHttpApp(app, silentLogger);
  server = await listen(app, "127.0.0.1", 0);
  const address = server.address();
  url = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

describe("/chat memory", () => {
  it("keeps nothing of an answered request on the server's shutdown signal", async () => {
    const ask = async (i: number) => {
      const res = await fetch(`${url}/chat`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ message: "東京都のIT導入補助金", threadId: `t${i % 10}` }),
      });
      expect(res.status).toBe(200);
      await res.json();
    };
    const perRequest = await heapGrowthPerOp(ask, { warmup: 100, count: 1_000 });
    expect(perRequest).toBeLessThan(4_000);
    expect(getEventListeners(shutdown.signal, "abort")).toHaveLength(0);
  });
});
