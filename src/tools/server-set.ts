/**
 * The servers a host runs and their connections, changed at runtime. A removed or disabled server leaves
 * the listing at once but stays callable for a grace period (turns in flight keep the tools they planned
 * with); a replaced connection closes once the calls running on it have finished.
 */
import type { Logger } from "../logger.ts";
import type { McpServerConfig, McpServersConfig } from "./mcp-config.ts";
import type { ServerConnection } from "./server-connection.ts";

/** Names of servers added, removed (or disabled) and changed by one apply. */
export interface ServerChanges {
  added: string[];
  removed: string[];
  changed: string[];
}

interface Retired {
  server: McpServerConfig;
  connection: ServerConnection;
  timer: NodeJS.Timeout;
}

export class ServerSet {
  private current: McpServersConfig;
  private readonly connections = new Map<string, ServerConnection>();
  private readonly retired = new Map<string, Retired>();

  constructor(
    initial: McpServersConfig,
    private readonly connect: (server: McpServerConfig) => ServerConnection,
    private readonly options: { graceMs: number; logger: Logger },
  ) {
    this.current = initial;
    for (const server of Object.values(initial)) if (server.enabled) this.start(server);
  }

  /** Every configured server, enabled or not. */
  get servers(): McpServersConfig {
    return this.current;
  }

  /** Names of the enabled servers, in order. */
  liveNames(): string[] {
    return [...this.connections.keys()];
  }

  /** The connection of an enabled server. */
  live(name: string): ServerConnection | undefined {
    return this.connections.get(name);
  }

  /** An enabled server, or one removed within the grace period, with its connection. */
  resolve(name: string): { server: McpServerConfig; connection: ServerConnection } | undefined {
    const connection = this.connections.get(name);
    const server = this.current[name];
    if (connection && server) return { server, connection };
    const retired = this.retired.get(name);
    return retired && { server: retired.server, connection: retired.connection };
  }

  /** Runs `next` from now on and says what changed. */
  apply(next: McpServersConfig): ServerChanges {
    const changes: ServerChanges = { added: [], removed: [], changed: [] };
    const previous = this.current;
    for (const [name, server] of Object.entries(previous)) {
      const replacement = next[name];
      if (!replacement || (server.enabled && !replacement.enabled)) changes.removed.push(name);
      else if (JSON.stringify(replacement) !== JSON.stringify(server)) changes.changed.push(name);
    }
    for (const name of Object.keys(next)) if (!previous[name]) changes.added.push(name);
    this.current = next;
    for (const name of changes.removed) this.retire(name, previous[name]!);
    for (const name of changes.changed) {
      this.connections.get(name)?.retire();
      this.connections.delete(name);
    }
    for (const name of [...changes.added, ...changes.changed]) {
      const server = next[name]!;
      if (server.enabled) this.start(server);
    }
    return changes;
  }

  /** Closes every connection, retired ones too. */
  async close(): Promise<void> {
    const all = [...this.connections.values(), ...[...this.retired.values()].map((r) => r.connection)];
    for (const retired of this.retired.values()) clearTimeout(retired.timer);
    this.retired.clear();
    await Promise.all(all.map((c) => c.close().catch(() => undefined)));
  }

  private start(server: McpServerConfig): void {
    const old = this.retired.get(server.name);
    if (old) {
      clearTimeout(old.timer);
      this.retired.delete(server.name);
      old.connection.retire();
    }
    this.connections.set(server.name, this.connect(server));
  }

  private retire(name: string, server: McpServerConfig): void {
    const connection = this.connections.get(name);
    if (!connection) return;
    this.connections.delete(name);
    const timer = setTimeout(() => {
      if (this.retired.get(name)?.connection !== connection) return;
      this.retired.delete(name);
      connection.retire();
      this.options.logger.debug({ server: name }, "mcp server retired");
    }, this.options.graceMs);
    timer.unref();
    this.retired.set(name, { server, connection, timer });
  }
}
