/**
 * Slack adapter figures: ack latency (p50/p99) of 200 concurrent signed deliveries while every agent call
 * is slow, and the time from delivery to the first status message in the thread. Targets: ack p99 ≤ 50 ms,
 * first status ≤ 300 ms. Run alone with `npx tsx bench/slack-bench.ts`.
 *
 * "Slack" (the load generator and the fake Web API) runs in a worker thread, as it would be outside the
 * process: sharing the adapter's event loop, it would mostly measure its own work.
 */
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { loadavg } from "node:os";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import express from "express";
import { createSlackAdapter, whenSlackIdle } from "../adapters/slack/index.ts";
import { silentLogger } from "../src/logger.ts";
import {
  BOT_ID,
  BOT_USER,
  envelope,
  mentionEvent,
  SIGNING_SECRET,
  slackConfig,
  TEAM,
} from "../test/adapters/slack/harness.ts";
import { createFakeAgent } from "../test/fakes/fake-agent.ts";
import { createMemoryStoreFake } from "../test/fakes/memory-store.ts";

const DELIVERIES = 200;
const WARM_UP = 200;
const AGENT_DELAY_MS = 1500;

/** The worker: starts the fake Web API, sends signed deliveries, reports when status messages arrived. */
const SLACK_SIDE = `
const { parentPort, workerData } = require("node:worker_threads");
const { createHmac } = require("node:crypto");
const now = () => performance.timeOrigin + performance.now();
import("tsx/esm/api")
  .then(({ tsImport }) => tsImport(workerData.fakeModule, workerData.fakeModule))
  .then(async ({ startFakeSlackApi }) => {
    const fake = await startFakeSlackApi(workerData.identity);
    parentPort.postMessage({ type: "ready", apiUrl: fake.url });
    parentPort.on("message", async (msg) => {
      if (msg.type === "deliver") {
        const results = await Promise.all(msg.bodies.map(async (raw) => {
          const ts = Math.floor(Date.now() / 1000);
          const sig = "v0=" + createHmac("sha256", workerData.secret).update("v0:" + ts + ":" + raw).digest("hex");
          const start = now();
          const res = await fetch(msg.url, { method: "POST", body: raw, headers: {
            "content-type": "application/json", "x-slack-request-timestamp": String(ts), "x-slack-signature": sig } });
          await res.text();
          return { start, end: now(), status: res.status };
        }));
        parentPort.postMessage({ type: "sent", results });
      } else if (msg.type === "status-times") {
        const posted = (ts) => fake.calls.find((c) => c.method === "chat.postMessage" && c.params.thread_ts === ts);
        await fake.waitFor(() => msg.threads.every((ts) => posted(ts)), 60000);
        const offset = performance.timeOrigin;
        parentPort.postMessage({ type: "status-times", times: msg.threads.map((ts) => offset + posted(ts).at) });
      } else if (msg.type === "close") {
        await fake.close();
        parentPort.close();
      }
    });
  });
`;

interface Sent {
  start: number;
  end: number;
  status: number;
}

/** A request/response channel to the worker. */
function slackSide() {
  const worker = new Worker(SLACK_SIDE, {
    eval: true,
    workerData: {
      fakeModule: new URL("../test/fakes/fake-slack-api.ts", import.meta.url).href,
      identity: { botUserId: BOT_USER, botId: BOT_ID, teamId: TEAM },
      secret: SIGNING_SECRET,
    },
  });
  const next = <T>(type: string): Promise<T> =>
    new Promise((resolve, reject) => {
      const onMessage = (msg: { type: string } & T) => {
        if (msg.type !== type) return;
        worker.off("message", onMessage);
        resolve(msg);
      };
      worker.on("message", onMessage);
      worker.once("error", reject);
    });
  return {
    ready: next<{ apiUrl: string }>("ready"),
    async deliver(url: string, bodies: string[]): Promise<Sent[]> {
      const reply = next<{ results: Sent[] }>("sent");
      worker.postMessage({ type: "deliver", url, bodies });
      const { results } = await reply;
      const failed = results.find((r) => r.status !== 200);
      if (failed) throw new Error(`delivery failed with HTTP ${failed.status}`);
      return results;
    },
    async statusTimes(threads: string[]): Promise<number[]> {
      const reply = next<{ times: number[] }>("status-times");
      worker.postMessage({ type: "status-times", threads });
      return (await reply).times;
    },
    async close() {
      worker.postMessage({ type: "close" });
      await new Promise((resolve) => worker.once("exit", resolve));
    },
  };
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return Math.round((sorted[Math.max(0, index)] ?? 0) * 10) / 10;
}

/** Runs the benchmark and returns its figures (milliseconds unless named otherwise). */
export async function runSlackBench(): Promise<Record<string, number | string>> {
  const slack = slackSide();
  const { apiUrl } = await slack.ready;
  const agent = createFakeAgent({ stepMs: AGENT_DELAY_MS / 6 });
  const app = express();
  // Server-side ack time: request parsed → response finished.
  const serverAcks: number[] = [];
  app.use((_req, res, next) => {
    const start = performance.now();
    res.on("finish", () => serverAcks.push(performance.now() - start));
    next();
  });
  const adapter = createSlackAdapter(slackConfig(apiUrl, { botToken: "xoxb-bench" }), {
    agent,
    store: createMemoryStoreFake(),
    logger: silentLogger,
    app,
  });
  await adapter.start();
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, "127.0.0.1", () => resolve(s));
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/slack/events`;
  try {
    // Warm-up at full concurrency: opening 200 connections and JIT are not what we measure.
    const warm = Array.from({ length: WARM_UP }, (_, i) =>
      JSON.stringify(envelope(mentionEvent(`warm-up ${i}`))),
    );
    await slack.deliver(url, warm);
    await whenSlackIdle(adapter);
    serverAcks.length = 0;

    const events = Array.from({ length: DELIVERIES }, (_, i) =>
      mentionEvent(`ベンチ${i} IT導入の補助金`, { channel: `C0BENCH${String(i % 10).padStart(2, "0")}` }),
    );
    const sent = await slack.deliver(
      url,
      events.map((e) => JSON.stringify(envelope(e))),
    );
    const serverAckTimes = [...serverAcks];
    const statusAt = await slack.statusTimes(events.map((e) => e.ts));
    const firstStatus = statusAt.map((at, i) => at - (sent[i]?.start ?? 0));
    await whenSlackIdle(adapter);
    return {
      deliveries: DELIVERIES,
      agentDelayMs: AGENT_DELAY_MS,
      ackP50Ms: percentile(serverAckTimes, 50),
      ackP99Ms: percentile(serverAckTimes, 99),
      roundTripP50Ms: percentile(
        sent.map((r) => r.end - r.start),
        50,
      ),
      roundTripP99Ms: percentile(
        sent.map((r) => r.end - r.start),
        99,
      ),
      firstStatusP50Ms: percentile(firstStatus, 50),
      firstStatusP99Ms: percentile(firstStatus, 99),
      answered: agent.turns.length - WARM_UP,
      targets: "ack p99 <= 50 ms, first status <= 300 ms",
      // Figures on a shared machine mean little without its load.
      loadAverage1m: Math.round(loadavg()[0] ?? 0),
    };
  } finally {
    await adapter.stop();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await slack.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const figures = await runSlackBench();
  for (const [key, value] of Object.entries(figures)) console.log(`${key.padEnd(18)} ${value}`);
}
