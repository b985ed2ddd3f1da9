/**
 * manifest.yml covers the code: every event the adapter listens to and every Web API method it calls is
 * enabled, with exactly the scopes they need (found by reading the adapter's source, so a new call
 * without a manifest change fails here).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { SLACK_PROMPTS } from "../../../adapters/slack/assistant.ts";

const root = join(import.meta.dirname, "../../..");
const source = readdirSync(join(root, "adapters/slack"))
  .filter((f) => f.endsWith(".ts"))
  .map((f) => readFileSync(join(root, "adapters/slack", f), "utf8"))
  .join("\n");

interface Manifest {
  features: {
    bot_user?: unknown;
    assistant_view?: { suggested_prompts?: Array<{ title: string; message: string }> };
    app_home?: { messages_tab_enabled?: boolean };
  };
  oauth_config: { scopes: { bot: string[] } };
  settings: {
    event_subscriptions: { request_url: string; bot_events: string[] };
    interactivity: { is_enabled: boolean; request_url: string };
    socket_mode_enabled: boolean;
  };
}
const manifest = parse(readFileSync(join(root, "manifest.yml"), "utf8")) as Manifest;

/** What each event the code listens to needs: manifest bot events and scopes. */
const EVENT_NEEDS: Record<string, { events: string[]; scopes: string[] }> = {
  app_mention: { events: ["app_mention"], scopes: ["app_mentions:read"] },
  // The assistant view itself needs assistant:write (the app cannot enable it without).
  assistant_thread_started: { events: ["assistant_thread_started"], scopes: ["assistant:write"] },
  message: {
    events: ["message.channels", "message.groups", "message.im", "message.mpim"],
    scopes: ["channels:history", "groups:history", "im:history", "mpim:history"],
  },
};

/** Scopes of each Web API method the code may call (auth.test needs none). */
const METHOD_SCOPES: Record<string, string[]> = {
  "auth.test": [],
  "chat.postMessage": ["chat:write"],
  "chat.update": ["chat:write"],
  "chat.delete": ["chat:write"],
  "assistant.threads.setStatus": ["assistant:write"],
  "assistant.threads.setSuggestedPrompts": ["assistant:write"],
};

const listened = [...source.matchAll(/app\.event\("([a-z_]+)"/g)].map((m) => m[1] ?? "");
const called = [...source.matchAll(/client\.((?:[a-z]+\.)+[a-zA-Z]+)\(/g)].map((m) => m[1] ?? "");

describe("manifest.yml", () => {
  it("finds the listeners and calls in the adapter source", () => {
    expect(new Set(listened)).toEqual(new Set(["app_mention", "message", "assistant_thread_started"]));
    expect(called).toContain("chat.postMessage");
  });

  it("subscribes to every event the code listens to, with its scopes", () => {
    for (const event of listened) {
      const needs = EVENT_NEEDS[event];
      expect(needs, `no manifest mapping for event ${event}`).toBeDefined();
      for (const e of needs?.events ?? [])
        expect(manifest.settings.event_subscriptions.bot_events).toContain(e);
      for (const s of needs?.scopes ?? []) expect(manifest.oauth_config.scopes.bot).toContain(s);
    }
  });

  it("grants every Web API method the code calls, and no scope nothing uses", () => {
    const needed = new Set<string>();
    for (const method of [...called, "auth.test"]) {
      expect(METHOD_SCOPES[method], `no scope mapping for ${method}`).toBeDefined();
      for (const s of METHOD_SCOPES[method] ?? []) needed.add(s);
    }
    for (const event of listened) for (const s of EVENT_NEEDS[event]?.scopes ?? []) needed.add(s);
    expect(new Set(manifest.oauth_config.scopes.bot)).toEqual(needed);
  });

  it("subscribes to no event the code does not listen to", () => {
    const handled = new Set(listened.flatMap((event) => EVENT_NEEDS[event]?.events ?? []));
    for (const e of manifest.settings.event_subscriptions.bot_events) expect(handled).toContain(e);
  });

  it("enables the assistant view only with its handler, and suggests the code's example questions", () => {
    expect(manifest.features.assistant_view !== undefined).toBe(
      listened.includes("assistant_thread_started"),
    );
    expect(called).toContain("assistant.threads.setStatus");
    expect(manifest.features.assistant_view?.suggested_prompts).toEqual(
      SLACK_PROMPTS.map((prompt) => ({ ...prompt })),
    );
  });

  it("has the bot user, DMs, interactivity and the request URLs", () => {
    expect(manifest.features.bot_user).toBeDefined();
    expect(manifest.features.app_home?.messages_tab_enabled).toBe(true);
    expect(source).toContain("app.action(");
    expect(manifest.settings.interactivity.is_enabled).toBe(true);
    expect(manifest.settings.interactivity.request_url).toMatch(/\/slack\/events$/);
    expect(manifest.settings.event_subscriptions.request_url).toMatch(/\/slack\/events$/);
    expect(typeof manifest.settings.socket_mode_enabled).toBe("boolean");
  });
});
