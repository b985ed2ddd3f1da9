/**
 * `npm run bench`: prints speed and memory figures (never asserted in tests). Each section runs in a fresh
 * process so that memory figures are not skewed by the others: the agent vs the seed's baseline (run one
 * call after another as the seed does, and with parallel tool calls), the agent with a slow or failing
 * Gemini, offline answers, the ranked catalog at 10,000 records, the live catalog's sync, the thread store,
 * and the Slack adapter. `--only agent,offline` limits the sections;
 * `--llm-latency 1000 --tool-latency 500` set the injected latencies (ms) of the agent section.
 */
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const SECTIONS = ["agent", "gemini-faults", "offline", "catalog", "sync", "store", "slack"];

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const only = arg("only")?.split(",") ?? SECTIONS;
const section = fileURLToPath(new URL("./section.ts", import.meta.url));
let failed = 0;
for (const name of SECTIONS.filter((s) => only.includes(s))) {
  console.log(`\n== ${name} ==`);
  const child = spawnSync(
    process.execPath,
    ["--import", "tsx", section, name, arg("llm-latency") ?? "1000", arg("tool-latency") ?? "500"],
    { stdio: "inherit" },
  );
  if (child.status !== 0) {
    failed += 1;
    console.log(`(${name} failed with exit code ${child.status})`);
  }
}
process.exit(failed > 0 ? 1 : 0);
