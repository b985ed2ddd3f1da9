/**
 * `npm run bench`: prints speed and memory figures (never asserted in tests). Sections: the agent vs the
 * seed's baseline, offline answers, the thread store, and the Slack adapter. `--only agent,offline` limits
 * the sections; `--llm-latency 1000 --tool-latency 500` sets the injected latencies.
 */
import { runAgentBench } from "./agent-bench.ts";
import { runOfflineBench } from "./offline-bench.ts";

type Section = { name: string; run: () => Promise<unknown> };

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const llmLatencyMs = Number(arg("llm-latency") ?? 1000);
const toolLatencyMs = Number(arg("tool-latency") ?? 500);
const only = arg("only")?.split(",");

const sections: Section[] = [
  { name: "agent", run: () => runAgentBench({ llmLatencyMs, toolLatencyMs }) },
  { name: "offline", run: () => runOfflineBench() },
  { name: "store", run: async () => (await import("./store-bench.ts")).runStoreBench() },
  { name: "slack", run: async () => (await import("./slack-bench.ts")).runSlackBench() },
];

for (const section of sections) {
  if (only && !only.includes(section.name)) continue;
  console.log(`\n== ${section.name} ==`);
  try {
    const result = (await section.run()) as Record<string, unknown>;
    if (Array.isArray(result.rows)) console.table(result.rows);
    console.table(result.totals ?? result);
  } catch (error) {
    console.log(`(${section.name} failed: ${error instanceof Error ? error.message : String(error)})`);
  }
}
process.exit(0);
