/** Runs one benchmark section in this process and prints its figures (run.ts starts one process per section). */
type Figures = Record<string, unknown> & { rows?: unknown[]; totals?: unknown };

const sections: Record<string, (args: Record<string, number>) => Promise<Figures>> = {
  agent: async (a) =>
    (await import("./agent-bench.ts")).runAgentBench({
      llmLatencyMs: a.llmLatency,
      toolLatencyMs: a.toolLatency,
    }),
  "gemini-faults": async (a) =>
    (await import("./gemini-faults-bench.ts")).runGeminiFaultsBench({ toolLatencyMs: a.toolLatency }),
  offline: async () => (await import("./offline-bench.ts")).runOfflineBench(),
  catalog: async () => (await import("./catalog-bench.ts")).runCatalogBench(),
  sync: async () => (await import("./sync-bench.ts")).runSyncBench(),
  store: async () => (await import("./store-bench.ts")).runStoreBench(),
  slack: async () => (await import("./slack-bench.ts")).runSlackBench(),
};

export const SECTION_NAMES = Object.keys(sections);

const [name, llmLatency = "1000", toolLatency = "500"] = process.argv.slice(2);
const run = name ? sections[name] : undefined;
if (!run) {
  console.error(`unknown section ${name}; use one of ${SECTION_NAMES.join(", ")}`);
  process.exit(2);
}
const result = await run({ llmLatency: Number(llmLatency), toolLatency: Number(toolLatency) });
if (Array.isArray(result.rows)) console.table(result.rows);
console.table(result.totals ?? result);
process.exit(0);
