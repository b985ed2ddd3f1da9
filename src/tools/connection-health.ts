/**
 * The health record of one server's connection: its state, failures, backoff window and last error.
 * It is what `status()` reports, so /healthz and /tools read the same states the connection acts on.
 */
import { describeError } from "../errors.ts";
import type { ServerStatus } from "../types.ts";
import { backoffDelay, type ConnectionTiming } from "./keepalive.ts";

/**
 * States: "idle" (not connected yet, or dropped on purpose: idle disconnect, recycle), "connecting"
 * (the first attempt), "connected", "reconnecting" (a live session was lost and no attempt has failed
 * since), "failed" (the last attempt failed; it stays "failed" while retries run), "closed".
 */
export class ConnectionHealth {
  state: ServerStatus["state"] = "idle";
  /** Failed connect attempts since the last success. */
  failures = 0;
  private nextAttemptAt = 0;
  private attemptAt = 0;
  private lastError?: string;
  private lastOkAt?: string;
  private transport?: string;

  constructor(private readonly timing: ConnectionTiming) {}

  /** The status as the host reports it. */
  report(name: string, toolCount: number): ServerStatus {
    const { state, transport, lastError, lastOkAt } = this;
    return { name, state, transport, toolCount, lastError, lastOkAt };
  }

  /** The last failure, for error messages. */
  get error(): string | undefined {
    return this.lastError;
  }

  /** Milliseconds until the next attempt is due (0 or less when it is due now). */
  retryInMs(): number {
    return this.nextAttemptAt - Date.now();
  }

  /** Milliseconds since the last connect attempt started (rate-limits attempts that users trigger). */
  sinceAttemptMs(): number {
    return Date.now() - this.attemptAt;
  }

  /** The delay before the next background attempt: what is left of the window, or a fresh backoff. */
  nextDelay(): number {
    return Math.max(0, this.retryInMs()) || backoffDelay(this.failures, this.timing);
  }

  /** A connect attempt starts. A server that keeps failing stays "failed" so health does not flap. */
  attempting(): void {
    this.attemptAt = Date.now();
    this.state = this.failures > 0 ? "failed" : this.lastOkAt ? "reconnecting" : "connecting";
  }

  /** A connect attempt failed: one more failure, a longer backoff window. */
  attemptFailed(error: unknown): void {
    this.failures++;
    this.nextAttemptAt = Date.now() + backoffDelay(this.failures, this.timing);
    this.lastError = describeError(error);
    this.state = "failed";
  }

  /** A session is open. */
  connected(transport: string): void {
    this.failures = 0;
    this.nextAttemptAt = 0;
    this.state = "connected";
    this.transport = transport;
    this.ok();
  }

  /** The server answered (a call, a listing, a ping). */
  ok(): void {
    this.lastOkAt = new Date().toISOString();
  }

  /** A live session died (failed ping, closed transport, expired session, exited child). */
  lost(error: unknown): void {
    this.lastError = describeError(error);
    this.state = "reconnecting";
  }

  /** The session was closed on purpose; `closed` ends the connection for good. */
  dropped(closed: boolean): void {
    this.state = closed ? "closed" : "idle";
  }
}
