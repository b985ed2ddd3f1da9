/**
 * The jGrants MCP server: the official server's tools, prompts and resource over a JgrantsSource.
 * One McpServer per connection; the source (and its HTTP politeness state) may be shared.
 */
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { type Catalog, createCatalog } from "../../catalog/catalog.ts";
import type { CatalogRecordSource } from "../../catalog/record-source.ts";
import { snapshotRecordSource } from "../../catalog/record-source.ts";
import type { LiveCatalog } from "../../catalog/sync/types.ts";
import type { Config } from "../../config.ts";
import { describeError } from "../../errors.ts";
import type { Logger } from "../../logger.ts";
import { findSubsidies } from "./find-subsidies.ts";
import { API_USAGE_AGREEMENT, SUBSIDY_SEARCH_GUIDE, USAGE_GUIDELINES } from "./prompts.ts";
import { createJgrantsSource } from "./source.ts";
import {
  DESCRIPTIONS,
  DETAIL_SCHEMA,
  FILE_SCHEMA,
  FIND_SCHEMA,
  OVERVIEW_SCHEMA,
  PING_SCHEMA,
  SEARCH_SCHEMA,
} from "./tool-schemas.ts";
import type { JgrantsSource, ToolPayload } from "./types.ts";
import { validateFileArgs, validateOutputFormat, validateSearch, validateSubsidyId } from "./validate.ts";

/** Name and version announced to clients (the official server's name, so clients see the same server). */
export const SERVER_INFO = { name: "jgrants-mcp-server", version: "2.0.0" } as const;

export interface JgrantsMcpServerOptions {
  config: Config["jgrants"];
  logger?: Logger;
  /** Shared data source; created from `config` when absent. */
  source?: JgrantsSource;
  /** The live catalog the created source reads and feeds (src/catalog/sync); find_subsidies ranks it. */
  catalog?: LiveCatalog;
  now?: () => Date;
}

let snapshotCatalog: Catalog | undefined;
const rankedCatalogs = new WeakMap<CatalogRecordSource, Catalog>();

/** The catalog over the bundled snapshot, built once per process and shared by every session. */
export function bundledCatalog(): Catalog {
  snapshotCatalog ??= createCatalog(snapshotRecordSource());
  return snapshotCatalog;
}

/**
 * Builds the bundled catalog's index and loads the query dictionaries now (about a second), so that the
 * first find_subsidies after a start or a restart answers as fast as the ones after it.
 */
export function warmUpBundledCatalog(): void {
  bundledCatalog().find("補助金");
}

/** The ranked index over a live catalog, one per catalog (it rebuilds itself when the catalog changes). */
function rankedCatalogOf(source: CatalogRecordSource): Catalog {
  let catalog = rankedCatalogs.get(source);
  if (!catalog) {
    catalog = createCatalog(source);
    rankedCatalogs.set(source, catalog);
  }
  return catalog;
}

/** The official result form: the dict as JSON text plus structured content, errors included. */
function asResult(payload: ToolPayload): CallToolResult {
  return { content: [{ type: "text", text: JSON.stringify(payload) }], structuredContent: { ...payload } };
}

/** Builds a new McpServer with the five tools, two prompts and one resource. */
export function createJgrantsMcpServer(options: JgrantsMcpServerOptions): McpServer {
  const { logger } = options;
  const source =
    options.source ??
    createJgrantsSource(options.config, {
      logger: options.logger,
      now: options.now,
      catalog: options.catalog,
    });
  const server = new McpServer(SERVER_INFO, {
    instructions:
      "jGrants（Jグランツ）の補助金を検索・取得するサーバーです。結果を使うときは出典（Jグランツ）を明記し、data_source が snapshot のときはその日付時点のデータであることを伝えてください。",
  });

  const tool = (
    name: keyof typeof DESCRIPTIONS,
    inputSchema: typeof SEARCH_SCHEMA,
    run: (args: Record<string, unknown>) => Promise<ToolPayload>,
  ) =>
    server.registerTool(
      name,
      {
        description: DESCRIPTIONS[name],
        inputSchema,
        annotations: { readOnlyHint: true, openWorldHint: true },
      },
      async (args: Record<string, unknown>) => {
        const started = performance.now();
        try {
          const payload = await run(args ?? {});
          logger?.debug(
            { tool: name, ms: Math.round(performance.now() - started), error: payload.error },
            "jgrants tool",
          );
          return asResult(payload);
        } catch (error) {
          logger?.error({ tool: name, err: error }, "jgrants tool failed");
          return asResult({ error: `エラーが発生しました: ${describeError(error)}` });
        }
      },
    );

  tool("search_subsidies", SEARCH_SCHEMA, async (args) => {
    const checked = validateSearch(args);
    return "error" in checked ? { error: checked.error } : source.search(checked.ok);
  });

  // The clock of "open now": JGRANTS_NOW when pinned, otherwise the real date.
  const pinned = options.config.now ? Date.parse(options.config.now) : undefined;
  const clock = () => options.now?.().getTime() ?? pinned ?? Date.now();
  tool("find_subsidies", FIND_SCHEMA, async (args) => {
    // The live catalog once it is loaded (the CLI never starts its sync); the bundled snapshot until then,
    // or when its store cannot be opened.
    const live = options.catalog;
    if (live) await live.ready().catch(() => undefined);
    const catalog = live && live.list().length > 0 ? rankedCatalogOf(live) : bundledCatalog();
    const info = catalog.source.info();
    // The live catalog is stored data of its last sync's day ("catalog"), the bundled one a snapshot.
    const mode = info.origin === "live" ? "catalog" : "snapshot";
    return findSubsidies(catalog, args, clock(), { mode, as_of: info.asOf });
  });

  tool("get_subsidy_detail", DETAIL_SCHEMA, async (args) => {
    const id = validateSubsidyId(args.subsidy_id);
    if ("notFound" in id) return { error: `補助金ID '${id.notFound}' が見つかりません` };
    return "error" in id ? { error: id.error } : source.detail(id.ok);
  });

  tool("get_subsidy_overview", OVERVIEW_SCHEMA, async (args) => {
    const format = validateOutputFormat(args.output_format);
    return "error" in format ? { error: format.error } : source.overview(format.ok);
  });

  tool("get_file_content", FILE_SCHEMA, async (args) => {
    const id = validateSubsidyId(args.subsidy_id);
    if ("notFound" in id) return { error: `補助金ID '${id.notFound}' が見つかりません` };
    if ("error" in id) return { error: id.error };
    const file = validateFileArgs(args);
    if ("error" in file) return { error: file.error };
    return source.file(id.ok, file.ok.filename, file.ok.format);
  });

  tool("ping", PING_SCHEMA, async () => ({
    status: "ok",
    server: "jGrants MCP Server",
    version: SERVER_INFO.version,
    timestamp: new Date().toISOString(),
    source: source.mode,
  }));

  const promptText = (text: string) => ({
    messages: [{ role: "user" as const, content: { type: "text" as const, text } }],
  });
  server.registerPrompt(
    "subsidy_search_guide",
    { description: "補助金検索のガイドとベストプラクティス" },
    () => promptText(SUBSIDY_SEARCH_GUIDE),
  );
  server.registerPrompt("api_usage_agreement", { description: "jGrants API利用に関する同意事項" }, () =>
    promptText(API_USAGE_AGREEMENT),
  );
  server.registerResource(
    "usage_guidelines",
    "jgrants://guidelines",
    { description: "jGrants MCP サーバー利用ガイドライン", mimeType: "text/plain" },
    async (uri) => ({ contents: [{ uri: uri.href, mimeType: "text/plain", text: USAGE_GUIDELINES }] }),
  );
  return server;
}
