/** Offline benchmark: in-process time per answer with the rule planner, the template and the bundled snapshot. */
import { createCore } from "../src/compose.ts";
import { loadConfig } from "../src/config.ts";
import { silentLogger } from "../src/logger.ts";
import { QUESTIONS } from "./questions.ts";

export async function runOfflineBench(repeat = 5) {
  const config = loadConfig({ JGRANTS_SOURCE: "snapshot", STORE_BACKEND: "memory", MCP_HEARTBEAT_MS: "0" });
  const core = await createCore(config, silentLogger);
  await core.tools.listTools();
  await core.agent.handle({ threadKey: "warm", platform: "cli", userId: "b", text: QUESTIONS[0]!.question });
  const times: number[] = [];
  for (let r = 0; r < repeat; r++) {
    for (const [i, q] of QUESTIONS.entries()) {
      const started = performance.now();
      await core.agent.handle({
        threadKey: `offline:${r}:${i}`,
        platform: "cli",
        userId: "b",
        text: q.question,
      });
      times.push(performance.now() - started);
    }
  }
  await core.close();
  times.sort((a, b) => a - b);
  const pick = (p: number) =>
    Math.round(times[Math.min(times.length - 1, Math.floor(p * times.length))]! * 10) / 10;
  return {
    "offline answers": times.length,
    "offline ms p50": pick(0.5),
    "offline ms p95": pick(0.95),
    "offline ms max (target < 50)": pick(1),
  };
}
