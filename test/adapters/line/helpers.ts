/** Test harness for the LINE adapter: signed webhook posts, event builders, a wired adapter on port 0. */
import { createHmac } from "node:crypto";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Writable } from "node:stream";
import express from "express";
import { createLineAdapter, type LineAdapterDeps } from "../../../adapters/line/index.ts";
import type { Config } from "../../../src/config.ts";
import { createLogger, type Logger } from "../../../src/logger.ts";
import type { PlatformAdapter } from "../../../src/types.ts";
import { createFakeAgent, type FakeAgentOptions } from "../../fakes/fake-agent.ts";
import type { FakeLineApi } from "../../fakes/fake-line-api.ts";
import { createMemoryStoreFake } from "../../fakes/memory-store.ts";

export const SECRET = "line-channel-secret-for-tests";

/** HMAC-SHA256, base64, of the exact raw bytes: what LINE sends in X-Line-Signature. */
export function sign(raw: string | Buffer, secret = SECRET): string {
  return createHmac("sha256", secret).update(raw).digest("base64");
}

let seq = 0;
const base = (source: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  mode: "active",
  timestamp: 1_764_400_000_000,
  source,
  webhookEventId: `01JTEST${String(++seq).padStart(6, "0")}`,
  deliveryContext: { isRedelivery: false },
  replyToken: `reply-token-${seq}`,
  ...extra,
});

export const userSource = (userId = "U1234567890abcdef") => ({ type: "user", userId });
export const groupSource = (groupId = "C0000group", userId = "U1234567890abcdef") => ({
  type: "group",
  groupId,
  userId,
});

/** A text message event (mention optional). */
export function textEvent(text: string, source: Record<string, unknown> = userSource(), mention?: unknown) {
  return base(source, {
    type: "message",
    message: { type: "text", id: `m${seq + 1}`, quoteToken: "q", text, ...(mention ? { mention } : {}) },
  });
}

export const stickerEvent = (source = userSource()) =>
  base(source, {
    type: "message",
    message: { type: "sticker", id: "s1", packageId: "446", stickerId: "1988" },
  });
export const followEvent = (source = userSource()) =>
  base(source, { type: "follow", follow: { isUnblocked: false } });
export const unfollowEvent = (source = userSource()) => ({
  ...base(source, { type: "unfollow" }),
  replyToken: undefined,
});
export const postbackEvent = (data: string, source = userSource()) =>
  base(source, { type: "postback", postback: { data } });

export interface Harness {
  url: string;
  agent: ReturnType<typeof createFakeAgent>;
  store: ReturnType<typeof createMemoryStoreFake>;
  adapter: PlatformAdapter;
  logs: string[];
  /** Posts events with a valid signature over the exact bytes sent. */
  post(events: unknown[], options?: { signature?: string | null; raw?: string }): Promise<Response>;
  close(): Promise<void>;
}

/** The adapter's config section, pointed at the fake API. */
export function lineConfig(api: FakeLineApi, overrides: Partial<NonNullable<Config["line"]>> = {}) {
  return {
    channelSecret: SECRET,
    channelAccessToken: api.token,
    apiUrl: api.url,
    groupPrefix: "補助金",
    replyDeadlineMs: 50_000,
    allowedUsers: undefined,
    allowedGroups: undefined,
    ...overrides,
  } satisfies NonNullable<Config["line"]>;
}

/** Wires a real Express app, the adapter, a fake agent and the in-memory store; listens on port 0. */
export async function startHarness(
  api: FakeLineApi,
  options: {
    config?: Partial<NonNullable<Config["line"]>>;
    agent?: FakeAgentOptions;
    /** Timings passed to the adapter (loading animation, retry delays). */
    tuning?: Pick<LineAdapterDeps, "loading" | "retryDelaysMs">;
  } = {},
): Promise<Harness> {
  const logs: string[] = [];
  const destination = new Writable({
    write(chunk, _enc, done) {
      logs.push(String(chunk));
      done();
    },
  });
  const logger: Logger = createLogger({ level: "debug", destination });
  const app = express();
  const agent = createFakeAgent(options.agent);
  const store = createMemoryStoreFake();
  const adapter = createLineAdapter(lineConfig(api, options.config), {
    agent,
    store,
    logger,
    app,
    ...options.tuning,
  });
  await adapter.start();
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, "127.0.0.1", () => resolve(s));
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  let closed = false;
  return {
    url,
    agent,
    store,
    adapter,
    logs,
    async post(events, postOptions = {}) {
      const raw = postOptions.raw ?? JSON.stringify({ destination: "Ubot", events });
      const signature = postOptions.signature === undefined ? sign(raw) : postOptions.signature;
      return fetch(`${url}/line/webhook`, {
        method: "POST",
        headers: {
          "content-type": "application/json; charset=UTF-8",
          ...(signature === null ? {} : { "x-line-signature": signature }),
        },
        body: Buffer.from(raw, "utf8"),
      });
    },
    async close() {
      if (closed) return;
      closed = true;
      await adapter.stop();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
