/**
 * Test harness for the Slack adapter: the real adapter and Bolt receiver on an Express app on port 0,
 * a fake Slack Web API, and signed deliveries built the way Slack builds them.
 */
import { createHmac } from "node:crypto";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Writable } from "node:stream";
import express from "express";
import { createSlackAdapter, whenSlackIdle } from "../../../adapters/slack/index.ts";
import type { Config } from "../../../src/config.ts";
import { createLogger } from "../../../src/logger.ts";
import type { AgentLike, PlatformAdapter, ThreadStore } from "../../../src/types.ts";
import { type FakeSlackApi, startFakeSlackApi } from "../../fakes/fake-slack-api.ts";

export const SIGNING_SECRET = "test-signing-secret-0123456789";
export const TEAM = "T0TEAM001";
export const BOT_USER = "U0BOT0001";
export const BOT_ID = "B0BOT0001";

export type SignatureKind = "good" | "bad" | "missing" | "stale";

/** Headers Slack sends with a body: v0 HMAC-SHA256 of `v0:${ts}:${body}` with the signing secret. */
export function signedHeaders(
  body: string,
  kind: SignatureKind = "good",
  secret = SIGNING_SECRET,
): Record<string, string> {
  const now = Math.floor(Date.now() / 1000);
  const ts = kind === "stale" ? now - 60 * 10 : now;
  const key = kind === "bad" ? `${secret}-wrong` : secret;
  const signature = `v0=${createHmac("sha256", key).update(`v0:${ts}:${body}`).digest("hex")}`;
  return kind === "missing"
    ? {}
    : { "x-slack-request-timestamp": String(ts), "x-slack-signature": signature };
}

let seq = 0;
/** A fresh Slack-like ts ("1790000123.000456"). */
export function nextTs(): string {
  seq += 1;
  return `17800${String(10000 + seq)}.${String(seq).padStart(6, "0")}`;
}

/** An event_callback envelope around one event. */
export function envelope(event: Record<string, unknown>, eventId = `Ev${nextTs().replace(".", "")}`) {
  return {
    token: "verification-token",
    team_id: TEAM,
    api_app_id: "A0APP0001",
    event: { event_ts: event.ts, ...event },
    type: "event_callback",
    event_id: eventId,
    event_time: Math.floor(Date.now() / 1000),
    authorizations: [{ team_id: TEAM, user_id: BOT_USER, is_bot: true, is_enterprise_install: false }],
  };
}

/** An app_mention in a channel (starts a thread unless threadTs is given). */
export function mentionEvent(
  text: string,
  opts: { channel?: string; ts?: string; threadTs?: string; user?: string } = {},
) {
  return {
    type: "app_mention",
    user: opts.user ?? "U0USER001",
    text: `<@${BOT_USER}> ${text}`,
    ts: opts.ts ?? nextTs(),
    channel: opts.channel ?? "C0CHAN001",
    team: TEAM,
    ...(opts.threadTs ? { thread_ts: opts.threadTs } : {}),
  };
}

/** A plain message event (channel_type channel unless given). */
export function messageEvent(
  text: string,
  opts: {
    channel?: string;
    ts?: string;
    threadTs?: string;
    user?: string;
    channelType?: string;
    extra?: object;
  } = {},
) {
  return {
    type: "message",
    user: opts.user ?? "U0USER001",
    text,
    ts: opts.ts ?? nextTs(),
    channel: opts.channel ?? "C0CHAN001",
    channel_type: opts.channelType ?? "channel",
    team: TEAM,
    ...(opts.threadTs ? { thread_ts: opts.threadTs } : {}),
    ...opts.extra,
  };
}

/** A button click as Slack posts it (block_actions), on a message in a thread. */
export function buttonClick(options: {
  userId: string;
  channel: string;
  messageTs: string;
  threadTs: string;
  actionId: string;
  value: string;
  responseUrl?: string;
}) {
  const { userId, channel, messageTs, threadTs, actionId, value } = options;
  return {
    type: "block_actions",
    user: { id: userId, team_id: TEAM },
    team: { id: TEAM },
    api_app_id: "A0APP0001",
    token: "verification-token",
    trigger_id: "123.456.abc",
    container: { type: "message", message_ts: messageTs, channel_id: channel, is_ephemeral: false },
    channel: { id: channel, name: "general" },
    message: { type: "message", ts: messageTs, thread_ts: threadTs, text: "結果", user: BOT_USER },
    ...(options.responseUrl ? { response_url: options.responseUrl } : {}),
    actions: [
      { type: "button", action_id: actionId, block_id: "b1", value, action_ts: `1780.${actionId.length}` },
    ],
  };
}

export interface Harness {
  url: string;
  fake: FakeSlackApi;
  adapter: PlatformAdapter & { readonly receiver: unknown };
  logs: string[];
  /** Posts a body to /slack/events; returns the HTTP status. */
  deliver(
    body: object,
    opts?: { signature?: SignatureKind; retryNum?: number; form?: boolean },
  ): Promise<number>;
  idle(): Promise<void>;
  close(): Promise<void>;
}

/** The adapter's config section in HTTP mode, pointed at a fake Web API. */
export function slackConfig(
  apiUrl: string,
  overrides: Partial<NonNullable<Config["slack"]>> = {},
): NonNullable<Config["slack"]> {
  return {
    botToken: "xoxb-test-token",
    signingSecret: SIGNING_SECRET,
    appToken: undefined,
    socketMode: false,
    apiUrl,
    allowedTeams: undefined,
    allowedChannels: undefined,
    allowedUsers: undefined,
    ...overrides,
  };
}

/** Starts the fake API, the adapter on a fresh Express app, and listens on 127.0.0.1:0. */
export async function startHarness(
  deps: { agent: AgentLike; store: ThreadStore },
  overrides: Partial<NonNullable<Config["slack"]>> = {},
): Promise<Harness> {
  const fake = await startFakeSlackApi({ botUserId: BOT_USER, botId: BOT_ID, teamId: TEAM });
  const logs: string[] = [];
  const destination = new Writable({
    write(chunk, _enc, done) {
      logs.push(String(chunk));
      done();
    },
  });
  const logger = createLogger({ level: "debug", destination });
  const app = express();
  const adapter = createSlackAdapter(slackConfig(fake.url, overrides), { ...deps, logger, app });
  await adapter.start();
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, "127.0.0.1", () => resolve(s));
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/slack/events`;
  return {
    url,
    fake,
    adapter,
    logs,
    async deliver(body, opts = {}) {
      const raw = opts.form ? `payload=${encodeURIComponent(JSON.stringify(body))}` : JSON.stringify(body);
      const headers: Record<string, string> = {
        "content-type": opts.form ? "application/x-www-form-urlencoded" : "application/json",
        ...signedHeaders(raw, opts.signature),
      };
      if (opts.retryNum !== undefined) {
        headers["x-slack-retry-num"] = String(opts.retryNum);
        headers["x-slack-retry-reason"] = "http_timeout";
      }
      const res = await fetch(url, { method: "POST", headers, body: raw });
      await res.text();
      return res.status;
    },
    idle: () => whenSlackIdle(adapter),
    async close() {
      await adapter.stop();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await fake.close();
    },
  };
}
