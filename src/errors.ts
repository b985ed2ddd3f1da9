/**
 * One error base for the whole project: a stable string code for logs and tests, an optional cause,
 * and an optional message that is safe to show to end users (Japanese first).
 */
export class AppError extends Error {
  readonly code: string;
  readonly userMessage?: string;

  constructor(code: string, message: string, options: { cause?: unknown; userMessage?: string } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "AppError";
    this.code = code;
    this.userMessage = options.userMessage;
  }
}

/** Invalid configuration: the message names the variable and what is allowed. */
export class ConfigError extends AppError {
  constructor(message: string) {
    super("CONFIG_INVALID", message);
    this.name = "ConfigError";
  }
}

/** A short, printable description of any thrown value (never a stack, never secrets by construction). */
export function describeError(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return String(error);
}
