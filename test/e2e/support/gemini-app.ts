/** The real app in Gemini mode for end-to-end tests: the fake Gemini server, the jGrants snapshot, a memory store. */
import { loadConfig } from "../../../src/config.ts";
import { silentLogger } from "../../../src/logger.ts";
import { type RunningApp, startApp } from "../../../src/main.ts";

/** Starts the app against the fake Gemini at `geminiUrl`; `env` adds or overrides settings. */
export function startGeminiApp(geminiUrl: string, env: Record<string, string> = {}): Promise<RunningApp> {
  const config = loadConfig({
    PORT: "0",
    GOOGLE_API_KEY: "test-key",
    GEMINI_BASE_URL: geminiUrl,
    JGRANTS_SOURCE: "snapshot",
    JGRANTS_NOW: "2026-08-22T12:00:00+09:00",
    STORE_BACKEND: "memory",
    MCP_HEARTBEAT_MS: "0",
    ...env,
  });
  return startApp(config, silentLogger);
}
