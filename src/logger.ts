import { type Logger, pino } from "pino";

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
  /([?&](?:key|token|access_token)=)[^&\s]+/gi,
];

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
      redact: { paths: REDACT_PATHS, censor: "[redacted]" },
      hooks: {
        logMethod(args, method) {
          const masked = args.map((arg) => (typeof arg === "string" ? maskSecrets(arg) : arg));
          method.apply(this, masked as Parameters<typeof method>);
        },
      },
      formatters: {
        log(object) {
          const err = object.err;
          if (err instanceof Error) {
            return { ...object, err: { type: err.name, message: maskSecrets(err.message) } };
          }
          return object;
        },
      },
    },
    options.destination,
  );
}

/** A logger that writes nothing, for tests and embedded use. */
export const silentLogger: Logger = pino({ level: "silent" });
