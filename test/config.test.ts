import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { configKeys, loadConfig } from "../src/config.ts";

describe("config", () => {
  it(".env.example lists exactly the schema's keys", () => {
    const keys = readFileSync(new URL("../.env.example", import.meta.url), "utf8")
      .split("\n")
      .filter((line) => /^[A-Z][A-Z0-9_]*=/.test(line))
      .map((line) => line.slice(0, line.indexOf("=")));
    expect([...keys].sort()).toEqual([...configKeys].sort());
  });

  it("every key in .env.example has a comment above it", () => {
    const lines = readFileSync(new URL("../.env.example", import.meta.url), "utf8").split("\n");
    lines.forEach((line, i) => {
      if (/^[A-Z][A-Z0-9_]*=/.test(line)) {
        const above = lines.slice(0, i).reverse();
        const firstNonKey = above.find((l) => !/^[A-Z][A-Z0-9_]*=/.test(l));
        expect(firstNonKey?.startsWith("#"), `comment for ${line}`).toBe(true);
      }
    });
  });

  it("the .env.example values themselves parse", () => {
    const env: Record<string, string> = {};
    for (const line of readFileSync(new URL("../.env.example", import.meta.url), "utf8").split("\n")) {
      const m = /^([A-Z][A-Z0-9_]*)=(.*)$/.exec(line);
      if (m) env[m[1]!] = m[2]!;
    }
    const config = loadConfig(env);
    expect(config.http.port).toBe(3000);
    expect(config.gemini).toBeUndefined();
  });

  it("has keyless defaults", () => {
    const config = loadConfig({});
    expect(config.http).toEqual({ host: "127.0.0.1", port: 3000, apiToken: undefined, allowedHosts: [] });
    expect(config.jgrants.source).toBe("auto");
    expect(config.store.backend).toBe("sqlite");
    expect(config.slack).toBeUndefined();
    expect(config.line).toBeUndefined();
  });

  it("names the offending variable and what is allowed", () => {
    expect(() => loadConfig({ PORT: "abc" })).toThrow(/PORT must be an integer between 0 and 65535/);
    expect(() => loadConfig({ JGRANTS_SOURCE: "cloud" })).toThrow(
      /JGRANTS_SOURCE must be live, snapshot or auto/,
    );
    expect(() => loadConfig({ MCP_FETCH_ENABLED: "maybe" })).toThrow(
      /MCP_FETCH_ENABLED must be true or false/,
    );
    expect(() => loadConfig({ GEMINI_BASE_URL: "not a url" })).toThrow(
      /GEMINI_BASE_URL must be an http\(s\) URL/,
    );
  });

  it("never echoes a secret value in an error", () => {
    try {
      loadConfig({ SLACK_APP_TOKEN: "xoxb-secret-value" });
      expect.unreachable();
    } catch (error) {
      expect(String(error)).toMatch(/SLACK_APP_TOKEN must start with xapp-/);
      expect(String(error)).not.toContain("xoxb-secret-value");
    }
  });

  it("turns platforms on when their keys are present", () => {
    const config = loadConfig({
      SLACK_BOT_TOKEN: "xoxb-1",
      SLACK_SIGNING_SECRET: "s",
      LINE_CHANNEL_SECRET: "c",
      LINE_CHANNEL_ACCESS_TOKEN: "t",
      REDIS_URL: "redis://127.0.0.1:6380",
      SLACK_ALLOWED_CHANNELS: "C1, C2",
    });
    expect(config.slack?.socketMode).toBe(false);
    expect(config.slack?.allowedChannels).toEqual(["C1", "C2"]);
    expect(config.line?.groupPrefix).toBe("補助金");
    expect(config.store.backend).toBe("redis");
  });
});
