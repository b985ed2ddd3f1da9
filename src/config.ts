/**
 * The only reader of process.env. One zod schema describes every setting; an invalid value fails with a
 * message that names the variable and says what is allowed. Each module receives only its own section.
 */
import { existsSync } from "node:fs";
import { z } from "zod";
import { ConfigError } from "./errors.ts";

const bool = (name: string) =>
  z
    .enum(["true", "false", "1", "0", "yes", "no", "on", "off"], {
      error: `${name} must be true or false`,
    })
    .transform((v) => ["true", "1", "yes", "on"].includes(v));

const int = (name: string, min: number, max: number) =>
  z.coerce
    .number({ error: `${name} must be an integer between ${min} and ${max}` })
    .int(`${name} must be an integer between ${min} and ${max}`)
    .min(min, `${name} must be an integer between ${min} and ${max}`)
    .max(max, `${name} must be an integer between ${min} and ${max}`);

const url = (name: string) => z.url({ error: `${name} must be an http(s) URL, e.g. https://example.com` });

const list = z.string().transform((v) =>
  v
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean),
);

/** `label:token` (or a bare token, labelled "admin") entries of ADMIN_TOKEN. */
function adminTokens(value: string): { label: string; token: string }[] {
  return value
    .split(",")
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part) => {
      const at = part.indexOf(":");
      return at > 0
        ? { label: part.slice(0, at), token: part.slice(at + 1) }
        : { label: "admin", token: part };
    });
}

/** Every environment variable the project reads. .env.example must list exactly these keys. */
export const envSchema = z.object({
  LOG_LEVEL: z
    .enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"], {
      error: "LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent",
    })
    .default("info"),
  HOST: z.string().min(1, "HOST must be a host name or address").default("127.0.0.1"),
  PORT: int("PORT", 0, 65535).default(3000),
  API_TOKEN: z.string().min(16, "API_TOKEN must be at least 16 characters").optional(),
  ALLOWED_HOSTS: list.optional(),
  METRICS_TOKEN: z.string().min(16, "METRICS_TOKEN must be at least 16 characters").optional(),

  JGRANTS_SOURCE: z
    .enum(["live", "snapshot", "auto"], { error: "JGRANTS_SOURCE must be live, snapshot or auto" })
    .default("auto"),
  JGRANTS_API_URL: url("JGRANTS_API_URL").default("https://api.jgrants-portal.go.jp/exp"),
  JGRANTS_TIMEOUT_MS: int("JGRANTS_TIMEOUT_MS", 100, 120_000).default(15_000),
  JGRANTS_DETAIL_INTERVAL_MS: int("JGRANTS_DETAIL_INTERVAL_MS", 0, 60_000).default(300),
  JGRANTS_NOW: z.iso
    .datetime({ offset: true, error: "JGRANTS_NOW must be an ISO datetime, e.g. 2026-08-22T00:00:00Z" })
    .optional(),
  JGRANTS_MCP_URL: url("JGRANTS_MCP_URL").optional(),

  CATALOG_PATH: z.string().min(1).optional(),
  CATALOG_REFRESH_HOURS: int("CATALOG_REFRESH_HOURS", 0, 720).default(6),
  CATALOG_SYNC_ON_START: bool("CATALOG_SYNC_ON_START").default(true),
  CATALOG_REQUEST_INTERVAL_MS: int("CATALOG_REQUEST_INTERVAL_MS", 0, 60_000).default(1_000),
  CATALOG_DETAIL_MAX_AGE_HOURS: int("CATALOG_DETAIL_MAX_AGE_HOURS", 1, 8_760).default(72),
  CATALOG_SYNC_MAX_MINUTES: int("CATALOG_SYNC_MAX_MINUTES", 1, 1_440).default(60),
  CATALOG_RETENTION_DAYS: int("CATALOG_RETENTION_DAYS", 0, 3_650).default(30),
  CATALOG_KEYWORDS: list.optional(),

  MCP_CONFIG: z.string().min(1).optional(),
  MCP_HEARTBEAT_MS: int("MCP_HEARTBEAT_MS", 0, 86_400_000).default(120_000),
  MCP_CALL_TIMEOUT_MS: int("MCP_CALL_TIMEOUT_MS", 100, 600_000).default(30_000),
  MCP_RECYCLE_MS: int("MCP_RECYCLE_MS", 0, 604_800_000).default(0),
  MCP_IDLE_DISCONNECT_MS: int("MCP_IDLE_DISCONNECT_MS", 0, 604_800_000).default(0),
  MCP_RESULT_MAX_CHARS: int("MCP_RESULT_MAX_CHARS", 1_000, 5_000_000).default(200_000),
  MCP_FETCH_ENABLED: bool("MCP_FETCH_ENABLED").default(false),
  MCP_REGISTRY_POLL_MS: int("MCP_REGISTRY_POLL_MS", 0, 60_000).default(2_000),

  ADMIN_TOKEN: z
    .string()
    .transform((v, ctx) => {
      const tokens = adminTokens(v);
      if (tokens.length === 0 || tokens.some((t) => t.token.length < 16)) {
        ctx.addIssue({
          code: "custom",
          message:
            "ADMIN_TOKEN must be tokens of at least 16 characters, as token or label:token, comma-separated",
        });
      }
      return tokens;
    })
    .optional(),
  ADMIN_ALLOW_STDIO: bool("ADMIN_ALLOW_STDIO").default(false),

  GOOGLE_API_KEY: z.string().min(1).optional(),
  GEMINI_MODEL: z.string().min(1).default("gemini-2.5-flash"),
  GEMINI_BASE_URL: url("GEMINI_BASE_URL").optional(),
  GEMINI_TIMEOUT_MS: int("GEMINI_TIMEOUT_MS", 100, 600_000).default(12_000),
  GEMINI_TURN_BUDGET_MS: int("GEMINI_TURN_BUDGET_MS", 500, 600_000).default(25_000),
  GEMINI_MAX_RETRIES: int("GEMINI_MAX_RETRIES", 0, 10).default(2),

  AGENT_MAX_ROUNDS: int("AGENT_MAX_ROUNDS", 1, 20).default(5),
  AGENT_MAX_TOOL_CALLS: int("AGENT_MAX_TOOL_CALLS", 1, 200).default(20),
  AGENT_DETAIL_TOP_N: int("AGENT_DETAIL_TOP_N", 0, 20).default(5),
  AGENT_CONCURRENCY: int("AGENT_CONCURRENCY", 1, 32).default(4),
  AGENT_TOOL_TIMEOUT_MS: int("AGENT_TOOL_TIMEOUT_MS", 100, 600_000).default(20_000),
  WATCH_MAX_PER_THREAD: int("WATCH_MAX_PER_THREAD", 1, 50).default(5),
  WATCH_CHECK_SECONDS: int("WATCH_CHECK_SECONDS", 0, 86_400).default(60),
  WATCH_LINE_PUSHES_PER_MONTH: int("WATCH_LINE_PUSHES_PER_MONTH", 0, 1_000).default(4),

  SQLITE_PATH: z.string().min(1).default("./data/threads.sqlite"),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, "REDIS_URL must start with redis:// or rediss://")
    .optional(),
  STORE_BACKEND: z
    .enum(["sqlite", "redis", "memory"], { error: "STORE_BACKEND must be sqlite, redis or memory" })
    .optional(),
  HISTORY_MAX_TURNS: int("HISTORY_MAX_TURNS", 1, 1000).default(20),
  HISTORY_MAX_BYTES: int("HISTORY_MAX_BYTES", 1024, 10_000_000).default(32_768),
  HISTORY_TTL_DAYS: int("HISTORY_TTL_DAYS", 1, 3650).default(30),
  DEDUP_TTL_SECONDS: int("DEDUP_TTL_SECONDS", 60, 604_800).default(3_600),
  THREAD_LOCK_WAIT_MS: int("THREAD_LOCK_WAIT_MS", 100, 3_600_000).default(120_000),

  SLACK_BOT_TOKEN: z.string().min(1).optional(),
  SLACK_SIGNING_SECRET: z.string().min(1).optional(),
  SLACK_APP_TOKEN: z.string().startsWith("xapp-", "SLACK_APP_TOKEN must start with xapp-").optional(),
  SLACK_API_URL: url("SLACK_API_URL").optional(),
  SLACK_ALLOWED_TEAMS: list.optional(),
  SLACK_ALLOWED_CHANNELS: list.optional(),
  SLACK_ALLOWED_USERS: list.optional(),

  LINE_CHANNEL_SECRET: z.string().min(1).optional(),
  LINE_CHANNEL_ACCESS_TOKEN: z.string().min(1).optional(),
  LINE_API_URL: url("LINE_API_URL").optional(),
  LINE_GROUP_PREFIX: z.string().default("補助金"),
  LINE_REPLY_DEADLINE_MS: int("LINE_REPLY_DEADLINE_MS", 1_000, 60_000).default(50_000),
  LINE_ALLOWED_USERS: list.optional(),
  LINE_ALLOWED_GROUPS: list.optional(),
});

export type Env = z.infer<typeof envSchema>;

/** The keys of the schema, in order (a test keeps .env.example in step with it). */
export const configKeys = Object.keys(envSchema.shape) as Array<keyof Env>;

/** Builds the typed, sectioned configuration from an environment. */
export function buildConfig(env: Env, rawEnv: Record<string, string | undefined> = {}) {
  return {
    logLevel: env.LOG_LEVEL,
    http: {
      host: env.HOST,
      port: env.PORT,
      apiToken: env.API_TOKEN,
      allowedHosts: env.ALLOWED_HOSTS ?? [],
      metricsToken: env.METRICS_TOKEN,
    },
    jgrants: {
      source: env.JGRANTS_SOURCE,
      apiUrl: env.JGRANTS_API_URL,
      timeoutMs: env.JGRANTS_TIMEOUT_MS,
      detailIntervalMs: env.JGRANTS_DETAIL_INTERVAL_MS,
      now: env.JGRANTS_NOW,
      mcpUrl: env.JGRANTS_MCP_URL,
    },
    catalog: {
      path: env.CATALOG_PATH,
      refreshMs: env.CATALOG_REFRESH_HOURS * 3_600_000,
      syncOnStart: env.CATALOG_SYNC_ON_START,
      detailIntervalMs: env.CATALOG_REQUEST_INTERVAL_MS,
      detailMaxAgeMs: env.CATALOG_DETAIL_MAX_AGE_HOURS * 3_600_000,
      maxSyncMs: env.CATALOG_SYNC_MAX_MINUTES * 60_000,
      retentionMs: env.CATALOG_RETENTION_DAYS * 86_400_000,
      keywords: env.CATALOG_KEYWORDS,
    },
    mcp: {
      configPath: env.MCP_CONFIG,
      heartbeatMs: env.MCP_HEARTBEAT_MS,
      callTimeoutMs: env.MCP_CALL_TIMEOUT_MS,
      recycleMs: env.MCP_RECYCLE_MS,
      idleDisconnectMs: env.MCP_IDLE_DISCONNECT_MS,
      resultMaxChars: env.MCP_RESULT_MAX_CHARS,
      fetchEnabled: env.MCP_FETCH_ENABLED,
      /** The environment for `${VAR}` substitution in mcp.json and http-api auth headers. */
      substitutionEnv: rawEnv,
    },
    admin: {
      tokens: env.ADMIN_TOKEN ?? [],
      allowStdio: env.ADMIN_ALLOW_STDIO,
      /** How often the MCP server registry looks for other instances' changes. */
      registryPollMs: env.MCP_REGISTRY_POLL_MS,
    },
    gemini: env.GOOGLE_API_KEY
      ? {
          apiKey: env.GOOGLE_API_KEY,
          model: env.GEMINI_MODEL,
          baseUrl: env.GEMINI_BASE_URL,
          timeoutMs: env.GEMINI_TIMEOUT_MS,
          /** All Gemini calls of one turn (planning, repairs, retries, the answer) end within this. */
          turnBudgetMs: env.GEMINI_TURN_BUDGET_MS,
          maxRetries: env.GEMINI_MAX_RETRIES,
        }
      : undefined,
    agent: {
      maxRounds: env.AGENT_MAX_ROUNDS,
      maxToolCalls: env.AGENT_MAX_TOOL_CALLS,
      detailTopN: env.AGENT_DETAIL_TOP_N,
      concurrency: env.AGENT_CONCURRENCY,
      toolTimeoutMs: env.AGENT_TOOL_TIMEOUT_MS,
    },
    watch: {
      /** Watches allowed per thread. */
      maxPerThread: env.WATCH_MAX_PER_THREAD,
      /** How often the scheduler looks for due watches (0: no scheduler). */
      checkIntervalMs: env.WATCH_CHECK_SECONDS * 1000,
      /** Watch digests pushed to one LINE chat per month (pushes count against the channel's quota). */
      linePushesPerMonth: env.WATCH_LINE_PUSHES_PER_MONTH,
    },
    store: {
      backend: env.STORE_BACKEND ?? (env.REDIS_URL ? "redis" : "sqlite"),
      sqlitePath: env.SQLITE_PATH,
      redisUrl: env.REDIS_URL,
      maxTurns: env.HISTORY_MAX_TURNS,
      maxBytes: env.HISTORY_MAX_BYTES,
      ttlMs: env.HISTORY_TTL_DAYS * 86_400_000,
      dedupTtlMs: env.DEDUP_TTL_SECONDS * 1000,
      lockWaitMs: env.THREAD_LOCK_WAIT_MS,
    },
    slack:
      env.SLACK_BOT_TOKEN && (env.SLACK_SIGNING_SECRET || env.SLACK_APP_TOKEN)
        ? {
            botToken: env.SLACK_BOT_TOKEN,
            signingSecret: env.SLACK_SIGNING_SECRET,
            appToken: env.SLACK_APP_TOKEN,
            socketMode: Boolean(env.SLACK_APP_TOKEN),
            apiUrl: env.SLACK_API_URL,
            allowedTeams: env.SLACK_ALLOWED_TEAMS,
            allowedChannels: env.SLACK_ALLOWED_CHANNELS,
            allowedUsers: env.SLACK_ALLOWED_USERS,
          }
        : undefined,
    line:
      env.LINE_CHANNEL_SECRET && env.LINE_CHANNEL_ACCESS_TOKEN
        ? {
            channelSecret: env.LINE_CHANNEL_SECRET,
            channelAccessToken: env.LINE_CHANNEL_ACCESS_TOKEN,
            apiUrl: env.LINE_API_URL,
            groupPrefix: env.LINE_GROUP_PREFIX,
            replyDeadlineMs: env.LINE_REPLY_DEADLINE_MS,
            allowedUsers: env.LINE_ALLOWED_USERS,
            allowedGroups: env.LINE_ALLOWED_GROUPS,
          }
        : undefined,
  };
}

export type Config = ReturnType<typeof buildConfig>;

/**
 * Parses an environment (process.env by default; a .env file in the working directory is loaded first,
 * without overriding variables already set). Empty strings count as unset.
 */
export function loadConfig(env?: Record<string, string | undefined>): Config {
  let source = env;
  if (!source) {
    if (existsSync(".env")) process.loadEnvFile(".env");
    source = process.env;
  }
  const relevant: Record<string, string> = {};
  for (const key of configKeys) {
    const value = source[key];
    if (value !== undefined && value.trim() !== "") relevant[key] = value.trim();
  }
  const parsed = envSchema.safeParse(relevant);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => {
      const key = String(issue.path[0] ?? "?");
      const got = relevant[key];
      const shown = got === undefined ? "" : ` (got ${JSON.stringify(isSecretKey(key) ? "***" : got)})`;
      const message = issue.message.startsWith(key) ? issue.message : `${key}: ${issue.message}`;
      return `${message}${shown}`;
    });
    throw new ConfigError(`Invalid configuration:\n- ${lines.join("\n- ")}`);
  }
  return buildConfig(parsed.data, { ...source });
}

function isSecretKey(key: string): boolean {
  return /TOKEN|SECRET|KEY|PASSWORD/.test(key);
}
