/** Socket Mode: apps.connections.open on the fake API, then events over a local websocket, acked by envelope id. */
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type WebSocket, WebSocketServer } from "ws";
import { createSlackAdapter } from "../../../adapters/slack/index.ts";
import { createFakeAgent } from "../../fakes/fake-agent.ts";
import { type FakeSlackApi, startFakeSlackApi } from "../../fakes/fake-slack-api.ts";
import { createMemoryStoreFake } from "../../fakes/memory-store.ts";
import { BOT_ID, BOT_USER, envelope, mentionEvent, slackConfig, TEAM } from "./harness.ts";

let fake: FakeSlackApi;
let wss: WebSocketServer;
const sockets: WebSocket[] = [];
const received: Array<Record<string, unknown>> = [];
const agent = createFakeAgent();
let adapter: ReturnType<typeof createSlackAdapter>;

beforeAll(async () => {
  fake = await startFakeSlackApi({ botUserId: BOT_USER, botId: BOT_ID, teamId: TEAM });
  wss = new WebSocketServer({ port: 0, host: "127.0.0.1" });
  await new Promise((resolve) => wss.once("listening", resolve));
  fake.socketUrl = `ws://127.0.0.1:${(wss.address() as AddressInfo).port}/link`;
  wss.on("connection", (socket) => {
    sockets.push(socket);
    socket.on("message", (data) => received.push(JSON.parse(String(data)) as Record<string, unknown>));
    socket.send(JSON.stringify({ type: "hello", num_connections: 1, debug_info: { host: "local" } }));
  });
  adapter = createSlackAdapter(
    slackConfig(fake.url, {
      botToken: "xoxb-socket",
      signingSecret: undefined,
      appToken: "xapp-1-socket-test",
      socketMode: true,
    }),
    { agent, store: createMemoryStoreFake() },
  );
  await adapter.start();
});

afterAll(async () => {
  await adapter.stop();
  for (const socket of sockets) socket.terminate();
  await new Promise((resolve) => wss.close(resolve));
  await fake.close();
});

describe("Slack adapter in Socket Mode", () => {
  it("acks the envelope and answers the mention in its thread", async () => {
    expect(fake.accepted("apps.connections.open")).toHaveLength(1);
    const event = mentionEvent("ソケットで質問");
    const payload = envelope(event);
    sockets[0]?.send(
      JSON.stringify({
        envelope_id: "env-1",
        type: "events_api",
        payload,
        accepts_response_payload: false,
        retry_attempt: 0,
        retry_reason: "",
      }),
    );
    await fake.waitFor(() => fake.accepted("chat.delete").length === 1);
    expect(received.some((m) => m.envelope_id === "env-1")).toBe(true);
    expect(agent.turns.map((t) => t.text)).toEqual(["ソケットで質問"]);
    expect(fake.accepted("chat.postMessage").every((c) => c.params.thread_ts === event.ts)).toBe(true);
  });
});
