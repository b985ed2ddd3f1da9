import { type Logger, pino } from "pino";
import { currentTraceId } from "./trace.ts";

export type { Logger };

/** Paths whose values are replaced by "[redacted]" in every log line. */
export const REDACT_PATHS = [
  "token",
  "*.token",
  "apiKey",
  "*.apiKey",
  "secret",
  "*.secret",
  "password",
  "*.password",
  "authorization",
  "*.authorization",
  "headers.authorization",
  "*.headers.authorization",
  "headers.cookie",
  "*.headers.cookie",
  'headers["x-slack-signature"]',
  '*.headers["x-slack-signature"]',
  'headers["x-line-signature"]',
  '*.headers["x-line-signature"]',
  'headers["x-goog-api-key"]',
  '*.headers["x-goog-api-key"]',
  "signature",
  "*.signature",
  "botToken",
  "*.botToken",
  "appToken",
  "*.appToken",
  "signingSecret",
  "*.signingSecret",
  "channelSecret",
  "*.channelSecret",
  "channelAccessToken",
  "*.channelAccessToken",
  "config.gemini.apiKey",
];

/** Secret-looking substrings that are masked even inside free-text messages. */
const SECRET_PATTERNS: RegExp[] = [
  /xox[abposr]-[A-Za-z0-9-]+/g, // Slack tokens
  /xapp-[A-Za-z0-9-]+/g, // Slack app tokens
  /AIza[0-9A-Za-z_-]{20,}/g, // Google API keys
  /Bearer\s+[A-Za-z0-9._~+/=-]+/gi,
  /([?&](?:key|api_?key|apikey|token|access_token|sig|signature|secret|password)=)[^&\s]+/gi,
];

/** Keys whose values are secrets wherever they appear, whatever their case. */
const SECRET_KEY =
  /^(authorization|cookie|set-cookie|x-slack-signature|x-line-signature|x-goog-api-key|.*(token|secret|password|api[-_]?key|signature).*)$/i;

const MAX_DEPTH = 6;

/** Masks secrets in a logged value: secret keys at any depth and secret-looking substrings of strings. */
function scrub(value: unknown, depth = 0): unknown {
  if (typeof value === "string") return maskSecrets(value);
  if (value instanceof Error) return { type: value.name, message: maskSecrets(value.message) };
  if (!value || typeof value !== "object" || depth >= MAX_DEPTH) return value;
  if (Array.isArray(value)) return value.map((v) => scrub(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
    out[key] = SECRET_KEY.test(key) && v !== undefined && v !== null ? "[redacted]" : scrub(v, depth + 1);
  }
  return out;
}

/** Masks secret-looking substrings in a string. */
export function maskSecrets(text: string): string {
  let out = text;
  for (const pattern of SECRET_PATTERNS) {
    out = out.replace(pattern, (match, prefix?: string) =>
      typeof prefix === "string" && match.startsWith(prefix) ? `${prefix}[redacted]` : "[redacted]",
    );
  }
  return out;
}

export interface LoggerOptions {
  level?: string;
  /** Where lines go; defaults to stdout. Tests pass a stream to read what was logged. */
  destination?: pino.DestinationStream;
}

/** Creates the project logger: JSON lines, secrets redacted by path and by pattern. */
export function createLogger(options: LoggerOptions = {}): Logger {
  return pino(
    {
      level: options.level ?? "info",
      base: { app: "subsidy-concierge" },
      // Every line written while a turn runs carries its trace id (async context; see src/trace.ts).
      mixin() {
        const traceId = currentTraceId();
        return traceId ? { traceId } : {};
      },
      redact: { paths: REDACT_PATHS, censor: "[redacted]" },
      hooks: {
        logMethod(args, method) {
          const masked = args.map((arg) => (typeof arg === "string" ? maskSecrets(arg) : arg));
          method.apply(this, masked as Parameters<typeof method>);
        },
      },
      // Errors are reduced to their class and masked message by the formatter below, not pino's serializer.
      serializers: { err: (err: unknown) => err },
      formatters: {
        log(object) {
          const { err, ...rest } = object;
          const scrubbed = scrub(rest) as Record<string, unknown>;
          if (err === undefined) return scrubbed;
          // A thrown non-Error (e.g. a request-options object) is reduced to text, never logged field by field.
          const error =
            err instanceof Error ? scrub(err) : { type: typeof err, message: maskSecrets(String(err)) };
          return { ...scrubbed, err: error };
        },
      },
    },
    options.destination,
  );
}

/** A logger that writes nothing, for tests and embedded use. */
export const silentLogger: Logger = pino({ level: "silent" });
