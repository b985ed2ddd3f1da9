/** The bounds of one turn (from config.agent), so a question can never loop or fan out without end. */
import type { Config } from "../config.ts";

export type AgentLimits = Config["agent"];

/** The defaults the seed used: 5 rounds, 20 tool calls, details of the top 5. */
export const DEFAULT_LIMITS: AgentLimits = {
  maxRounds: 5,
  maxToolCalls: 20,
  detailTopN: 5,
  concurrency: 4,
  toolTimeoutMs: 20_000,
};
