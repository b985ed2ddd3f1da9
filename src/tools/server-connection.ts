/**
 * The life of one server's connection: lazy connect with one shared attempt, heartbeat, reconnect with
 * exponential backoff and jitter, one safe retry, optional recycle and idle disconnect, cached tool list.
 */
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import type { Logger } from "../logger.ts";
import type { ServerStatus } from "../types.ts";
import { ConnectionHealth } from "./connection-health.ts";
import { isConnectionFailure, raceSignal, ServerUnavailableError } from "./failure.ts";
import { type ConnectionTiming, fetchTools, heartbeat, NamedTimers } from "./keepalive.ts";
import type { McpSession, SessionHooks } from "./mcp-session.ts";

export type { ConnectionTiming } from "./keepalive.ts";

/** Who asks for a session: a background attempt, a user's listing, or a user's tool call. */
export type EnsureMode = "force" | "list" | "call";

export interface ConnectionOptions {
  name: string;
  /** Opens a fresh session (a fresh initialize every time). */
  open: (hooks: SessionHooks) => Promise<McpSession>;
  timing: ConnectionTiming;
  logger: Logger;
  onToolsChanged: () => void;
}

/** One configured server as the host keeps it. */
export class ServerConnection {
  readonly name: string;
  private readonly health: ConnectionHealth;
  private session?: McpSession;
  private connecting?: Promise<McpSession>;
  private tools?: Promise<Tool[]>;
  private active = 0;
  private closed = false;
  private recycleDue = false;
  private retiring = false;
  private readonly timers = new NamedTimers<"reconnect" | "heartbeat" | "recycle" | "idle">();

  constructor(private readonly options: ConnectionOptions) {
    this.name = options.name;
    this.health = new ConnectionHealth(options.timing);
  }

  /** Status without connecting. */
  status(toolCount: number): ServerStatus {
    return this.health.report(this.name, toolCount);
  }

  /**
   * Lists the server's tools (cached until list_changed or a new session). Inside the backoff window of a
   * failing server a listing makes at most one attempt per `demandRetryMs` (see `ensure`).
   */
  listTools(signal?: AbortSignal, mode: EnsureMode = "list"): Promise<Tool[]> {
    return this.run(signal, true, mode, (session) => {
      if (!this.tools) {
        const loading = fetchTools(session, this.options.timing.listTimeoutMs);
        this.tools = loading;
        loading.catch(() => {
          if (this.tools === loading) this.tools = undefined;
        });
      }
      return raceSignal(this.tools, signal);
    });
  }

  /** Calls one tool; `safe` allows one retry on a fresh connection after a connection failure. */
  callTool(
    name: string,
    args: Record<string, unknown>,
    opts: { signal?: AbortSignal; timeoutMs: number; safe: boolean },
  ): Promise<CallToolResult> {
    return this.run(opts.signal, opts.safe, "call", async (session) => {
      const result = await session.client.callTool({ name, arguments: args }, undefined, {
        signal: opts.signal,
        timeout: opts.timeoutMs,
        maxTotalTimeout: opts.timeoutMs,
      });
      return result as CallToolResult;
    });
  }

  /** Ends the session and every timer; the connection stays closed. */
  async close(): Promise<void> {
    this.closed = true;
    this.clearTimers();
    const pending = this.connecting?.catch(() => undefined);
    await this.dropSession();
    await pending;
    await this.dropSession();
    this.health.dropped(true);
  }

  /** Closes once no call runs on it: calls that started here finish first (a removed or replaced server). */
  retire(): void {
    this.retiring = true;
    if (this.active === 0) void this.close();
  }

  /** Drops the session and connects again now, ignoring the backoff; rejects when the attempt fails. */
  async reconnect(): Promise<void> {
    if (this.closed) throw new Error(`server "${this.name}" is closed`);
    await this.connecting?.catch(() => undefined);
    await this.dropSession();
    await this.ensure("force");
  }

  /** Forgets the cached tool list (e.g. a planner named a tool the cache does not know). */
  invalidateTools(): void {
    this.tools = undefined;
  }

  private async run<T>(
    signal: AbortSignal | undefined,
    safe: boolean,
    mode: EnsureMode,
    op: (s: McpSession) => Promise<T>,
  ): Promise<T> {
    if (this.closed) throw new Error(`server "${this.name}" is closed`);
    this.active++;
    this.timers.clear("idle");
    try {
      const session = await raceSignal(this.ensure(mode), signal);
      try {
        const result = await op(session);
        this.health.ok();
        return result;
      } catch (error) {
        if (signal?.aborted || !isConnectionFailure(error)) throw error;
        this.lost(session, error);
        if (!safe) {
          this.scheduleReconnect();
          throw error;
        }
        this.options.logger.info({ server: this.name, err: error }, "mcp connection lost; retrying once");
        return await op(await raceSignal(this.ensure("force"), signal));
      }
    } finally {
      this.active--;
      if (this.active === 0) this.afterActivity();
    }
  }

  /**
   * The current session, or one shared connection attempt. "force" (background timer, retry, recycle)
   * always attempts. A user request ("list", "call") for a failing server attempts inside the backoff
   * window too, at most once per `demandRetryMs`, so a server that is back serves the next request instead
   * of the one after the backoff (up to a minute). A listing never waits for an attempt it did not start.
   */
  private ensure(mode: EnsureMode): Promise<McpSession> {
    if (this.session) return Promise.resolve(this.session);
    const { failures, error } = this.health;
    if (this.connecting && (mode !== "list" || failures === 0)) return this.connecting;
    if (this.connecting) return Promise.reject(new ServerUnavailableError(this.name, 0, error));
    const wait = this.health.retryInMs();
    const demandDue = this.health.sinceAttemptMs() >= this.options.timing.demandRetryMs;
    if (mode !== "force" && failures > 0 && wait > 0 && !demandDue) {
      return Promise.reject(new ServerUnavailableError(this.name, wait, error));
    }
    this.timers.clear("reconnect");
    this.health.attempting();
    const attempt = this.connectOnce();
    this.connecting = attempt;
    attempt.then(
      () => {
        this.connecting = undefined;
      },
      () => {
        this.connecting = undefined;
        this.scheduleReconnect();
      },
    );
    return attempt;
  }

  private async connectOnce(): Promise<McpSession> {
    let session: McpSession | undefined;
    const hooks: SessionHooks = {
      onClose: () => {
        if (session && session === this.session) {
          this.lost(session, new Error("transport closed"));
          this.scheduleReconnect();
        }
      },
      onToolsChanged: () => {
        if (session && session === this.session) {
          this.tools = undefined;
          this.options.onToolsChanged();
        }
      },
    };
    try {
      session = await this.options.open(hooks);
    } catch (error) {
      this.health.attemptFailed(error);
      this.options.logger.warn({ server: this.name, err: error }, "mcp connect failed");
      throw error;
    }
    if (this.closed) {
      await session.close().catch(() => undefined);
      throw new Error(`server "${this.name}" is closed`);
    }
    this.session = session;
    this.tools = undefined;
    this.health.connected(session.transport);
    this.startSessionTimers(session);
    this.options.logger.info({ server: this.name, transport: session.transport }, "mcp connected");
    return session;
  }

  /** Marks a session dead (if it is still the current one) and closes it quietly. */
  private lost(session: McpSession, error: unknown): void {
    if (session !== this.session) return;
    this.health.lost(error);
    this.options.logger.warn({ server: this.name, err: error }, "mcp connection lost");
    this.session = undefined;
    this.tools = undefined;
    this.stopSessionTimers();
    session.close().catch(() => undefined);
    this.options.onToolsChanged();
  }

  private scheduleReconnect(): void {
    if (this.closed || this.session || this.connecting || this.timers.has("reconnect")) return;
    this.timers.set("reconnect", this.health.nextDelay(), () => {
      this.ensure("force").catch(() => undefined);
    });
  }

  private startSessionTimers(session: McpSession): void {
    const { heartbeatMs, recycleMs, pingTimeoutMs } = this.options.timing;
    if (heartbeatMs > 0) {
      const tick = heartbeat(session, {
        timeoutMs: Math.min(pingTimeoutMs, heartbeatMs),
        isCurrent: () => session === this.session,
        onOk: () => this.health.ok(),
        onFail: (error) => {
          this.lost(session, error);
          this.scheduleReconnect();
        },
      });
      this.timers.set("heartbeat", heartbeatMs, tick, true);
    }
    if (recycleMs > 0) {
      this.timers.set("recycle", recycleMs, () => {
        this.recycleDue = true;
        if (this.active === 0) this.afterActivity();
      });
    }
  }

  private afterActivity(): void {
    if (this.retiring) {
      void this.close();
      return;
    }
    if (this.recycleDue) {
      this.recycleDue = false;
      this.options.logger.info({ server: this.name }, "mcp periodic recycle");
      void this.dropSession().then(() => this.ensure("force").catch(() => undefined));
      return;
    }
    const { idleDisconnectMs } = this.options.timing;
    if (idleDisconnectMs > 0 && this.session) {
      this.timers.set("idle", idleDisconnectMs, () => {
        if (this.active === 0 && this.session) {
          this.options.logger.info({ server: this.name }, "mcp idle disconnect");
          void this.dropSession();
        }
      });
    }
  }

  /** Closes the current session on purpose (recycle, idle, close): no reconnect is scheduled. */
  private async dropSession(): Promise<void> {
    const session = this.session;
    this.session = undefined;
    this.tools = undefined;
    this.stopSessionTimers();
    if (!this.closed) this.health.dropped(false);
    if (session) await session.close().catch(() => undefined);
  }

  private stopSessionTimers(): void {
    this.timers.clear("heartbeat", "recycle", "idle");
  }

  private clearTimers(): void {
    this.timers.clear("heartbeat", "recycle", "idle", "reconnect");
  }
}
