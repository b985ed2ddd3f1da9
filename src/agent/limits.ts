/** The bounds of one turn (from config.agent), so a question can never loop or fan out without end. */
import { type Config, loadConfig } from "../config.ts";

export type AgentLimits = Config["agent"];

/** The configuration's defaults (5 rounds, 20 tool calls, details of the top 5, as the seed had). */
export const DEFAULT_LIMITS: AgentLimits = loadConfig({}).agent;
