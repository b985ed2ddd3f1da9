/**
 * The MCP server registry: the servers from mcp.json (or the built-in defaults) plus those added at
 * runtime, which live in the app's store (SQLite or Redis, key `sc:v1:mcp:registry`). File entries are
 * re-read at every start, always win for their names, and are read-only through the API. Instances on one store poll its revision, so a change made on one reaches the others within `pollMs`.
 */
import type { Logger } from "../logger.ts";
import type { RecordStore } from "../store/records.ts";
import type { McpServerConfig, McpServersConfig } from "./mcp-config.ts";
import {
  entryProblem,
  maskEntry,
  type RawEntry,
  RegistryError,
  toRawEntry,
  unmask,
  validateEntry,
} from "./registry-entry.ts";
import { createRegistryDocument, type StoredEntry } from "./registry-store.ts";

/** One server as the admin API lists it (config masked). */
export interface RegistryEntry {
  name: string;
  source: "file" | "store";
  config: RawEntry;
  createdAt?: string;
  updatedAt?: string;
  updatedBy?: string;
  /** Why a stored entry is not running here (e.g. a `${VAR}` this instance lacks). */
  problem?: string;
}

/** A change, as listeners (the host, logs, metrics) receive it. */
export interface RegistryChange {
  action: "add" | "update" | "remove" | "sync";
  name?: string;
  actor?: string;
  servers: McpServersConfig;
}

export interface RegistryOptions {
  /** The app's record store; without one, runtime entries live in memory only. */
  records?: RecordStore;
  /** mcp.json or the defaults, after JGRANTS_MCP_URL. */
  seed: McpServersConfig;
  env: Record<string, string | undefined>;
  allowStdio: boolean;
  logger: Logger;
  pollMs?: number;
}

export interface ServerRegistry {
  /** Loads the stored entries and starts following other instances' changes. */
  start(): Promise<void>;
  /** What the host should run: file entries, then the valid runtime entries. */
  servers(): McpServersConfig;
  entries(): RegistryEntry[];
  /** One entry, or undefined. */
  entry(name: string): RegistryEntry | undefined;
  /** Validates an entry without saving it (the admin "test"). */
  validate(name: string, raw: unknown): McpServerConfig;
  add(name: string, raw: unknown, actor: string): Promise<RegistryEntry>;
  update(name: string, patch: unknown, actor: string): Promise<RegistryEntry>;
  remove(name: string, actor: string): Promise<void>;
  onChange(listener: (change: RegistryChange) => void): () => void;
  close(): void;
}

/** Creates the registry; call start() before use. */
export function createServerRegistry(options: RegistryOptions): ServerRegistry {
  const { seed, logger } = options;
  const document = createRegistryDocument(options.records, logger);
  const listeners = new Set<(change: RegistryChange) => void>();
  let stored: Record<string, StoredEntry> = {};
  let running: McpServersConfig = { ...seed };
  const problems = new Map<string, string>();
  let timer: NodeJS.Timeout | undefined;

  const check = (name: string, raw: unknown) =>
    validateEntry(name, raw, { env: options.env, allowStdio: options.allowStdio });

  /** Recomputes the running servers from the seed and the stored entries. */
  function rebuild(): void {
    const next: McpServersConfig = { ...seed };
    problems.clear();
    for (const [name, entry] of Object.entries(stored)) {
      if (seed[name]) {
        problems.set(name, `mcp.json の同名のサーバーが優先されています（file entry "${name}" wins）`);
        continue;
      }
      try {
        // Stored entries were allowed when added; the stdio opt-in only guards adding them.
        next[name] = validateEntry(name, entry.config, { env: options.env, allowStdio: true });
      } catch (error) {
        problems.set(name, entryProblem(error));
      }
    }
    running = next;
  }

  function emit(change: Omit<RegistryChange, "servers">): void {
    for (const listener of listeners) {
      try {
        listener({ ...change, servers: running });
      } catch (error) {
        logger.warn({ err: error }, "registry listener failed");
      }
    }
  }

  function view(name: string): RegistryEntry | undefined {
    const file = seed[name];
    if (file) return { name, source: "file", config: maskEntry(toRawEntry(file)) };
    const entry = stored[name];
    if (!entry) return undefined;
    const { config, ...meta } = entry;
    return { name, source: "store", config: maskEntry(config), ...meta, problem: problems.get(name) };
  }

  function readOnlyCheck(name: string): void {
    if (seed[name]) {
      throw new RegistryError(
        409,
        `"${name}" は mcp.json（または既定の設定）のサーバーなので、管理画面からは変更できません。ファイルを編集して再起動してください。`,
      );
    }
  }

  async function mutate(
    action: "add" | "update" | "remove",
    name: string,
    actor: string,
    change: (all: Record<string, StoredEntry>) => void,
  ) {
    const written = await document.update((all) => {
      change(all);
      return all;
    });
    stored = written.servers;
    rebuild();
    logger.info({ action, server: name, actor, rev: written.rev }, "mcp server registry changed");
    emit({ action, name, actor });
  }

  return {
    async start() {
      try {
        stored = (await document.read()).servers;
      } catch (error) {
        // A store that is down at start must not stop the bot: run the seed, pick the rest up by polling.
        logger.error({ err: error }, "MCP server registry unreadable; running the configured servers only");
      }
      rebuild();
      for (const [name, problem] of problems)
        logger.warn({ server: name, problem }, "stored mcp server skipped");
      const pollMs = options.pollMs ?? 2_000;
      if (options.records && pollMs > 0) {
        timer = setInterval(() => {
          void document.poll().then((changed) => {
            if (!changed) return;
            stored = changed.servers;
            rebuild();
            logger.info({ rev: changed.rev }, "mcp server registry changed on another instance");
            emit({ action: "sync" });
          });
        }, pollMs);
        timer.unref();
      }
    },
    servers: () => running,
    entries: () =>
      [...Object.keys(seed), ...Object.keys(stored).filter((n) => !seed[n])].map((n) => view(n)!),
    entry: view,
    validate: (name, raw) => check(name, stored[name] ? unmask(raw, stored[name].config) : raw),
    async add(name, raw, actor) {
      if (seed[name] || stored[name])
        throw new RegistryError(409, `"${name}" という名前のサーバーはすでにあります。`, "name");
      check(name, raw);
      const at = new Date().toISOString();
      await mutate("add", name, actor, (all) => {
        if (all[name])
          throw new RegistryError(409, `"${name}" という名前のサーバーはすでにあります。`, "name");
        all[name] = { config: raw as RawEntry, createdAt: at, updatedAt: at, updatedBy: actor };
      });
      return view(name)!;
    },
    async update(name, patch, actor) {
      readOnlyCheck(name);
      const current = stored[name];
      if (!current) throw new RegistryError(404, `"${name}" というサーバーはありません。`);
      if (!patch || typeof patch !== "object" || Array.isArray(patch)) {
        throw new RegistryError(400, "変更内容は JSON オブジェクトで指定してください。", "(server)");
      }
      const merged: RawEntry = { ...current.config };
      for (const [key, value] of Object.entries(unmask(patch, current.config) as RawEntry)) {
        if (value === null) delete merged[key];
        else merged[key] = value;
      }
      // Adding or keeping a command needs the opt-in only when it is new or changed.
      const sameCommand = JSON.stringify(merged.command) === JSON.stringify(current.config.command);
      validateEntry(name, merged, {
        env: options.env,
        allowStdio: options.allowStdio || ("command" in merged && sameCommand),
      });
      await mutate("update", name, actor, (all) => {
        const base = all[name];
        if (!base) throw new RegistryError(404, `"${name}" というサーバーはありません。`);
        all[name] = { ...base, config: merged, updatedAt: new Date().toISOString(), updatedBy: actor };
      });
      return view(name)!;
    },
    async remove(name, actor) {
      readOnlyCheck(name);
      if (!stored[name]) throw new RegistryError(404, `"${name}" というサーバーはありません。`);
      await mutate("remove", name, actor, (all) => {
        delete all[name];
      });
    },
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close() {
      clearInterval(timer);
      listeners.clear();
    },
  };
}
