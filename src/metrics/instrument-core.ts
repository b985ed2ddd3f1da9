/**
 * Decorators that measure the core seams from outside: the agent (turns, latency, first progress), the
 * tool host (calls by server, tool and outcome), the planner and answerer (LLM calls and bytes) and the
 * thread store (errors, lock waits, dedup hits). Nothing inside the agent loop knows about metrics.
 */
import type { Agent } from "../agent/agent.ts";
import type { Answerer } from "../answer/answerer.ts";
import type { Planner } from "../planner/planner.ts";
import type { Reply, ToolHost } from "../types.ts";
import type { Metrics } from "./registry.ts";

const seconds = (since: number) => (performance.now() - since) / 1000;

/** What a turn counts as: its reply kind, or "degraded" when it fell back from the LLM. */
export function turnOutcome(reply: Reply): string {
  if (reply.kind === "answer" && reply.meta.degraded) return "degraded";
  return reply.kind;
}

/** Counts turns, their latency and the time to their first progress event. */
export function instrumentAgent(agent: Agent, metrics: Metrics): Agent {
  return {
    async handle(turn, options = {}) {
      const started = performance.now();
      const platform = turn.platform;
      let progressed = false;
      const onProgress: typeof options.onProgress = (event) => {
        if (!progressed) {
          progressed = true;
          metrics.firstProgressSeconds.observe({ platform }, seconds(started));
        }
        options.onProgress?.(event);
      };
      try {
        const reply = await agent.handle(turn, { ...options, onProgress });
        metrics.turns.inc({ platform, outcome: turnOutcome(reply) });
        return reply;
      } catch (error) {
        metrics.turns.inc({ platform, outcome: "exception" });
        throw error;
      } finally {
        metrics.turnSeconds.observe({ platform }, seconds(started));
      }
    },
  };
}

/** Counts tool calls; tool names the host does not offer are counted as "unknown" (bounded labels). */
export function instrumentToolHost(host: ToolHost, metrics: Metrics): ToolHost {
  const known = new Set<string>();
  metrics.sources.toolStatus = () => host.status();
  return {
    async listTools(signal) {
      const tools = await host.listTools(signal);
      for (const t of tools) known.add(`${t.server}\u0000${t.name}`);
      return tools;
    },
    async callTool(call, options) {
      const started = performance.now();
      const isKnown = known.has(`${call.server}\u0000${call.tool}`);
      const server = isKnown ? call.server : "unknown";
      const tool = isKnown ? call.tool : "unknown";
      try {
        const result = await host.callTool(call, options);
        metrics.toolCalls.inc({ server, tool, outcome: result.isError ? "error" : "ok" });
        return result;
      } catch (error) {
        metrics.toolCalls.inc({ server, tool, outcome: "error" });
        throw error;
      } finally {
        metrics.toolSeconds.observe({ server }, seconds(started));
      }
    },
    status: () => host.status(),
    close: () => host.close(),
  };
}

/** Counts the planner's LLM calls and prompt bytes; a step that degraded counts one failed call. */
export function instrumentPlanner(planner: Planner, metrics: Metrics): Planner {
  return {
    mode: planner.mode,
    model: planner.model,
    async plan(input, signal) {
      const step = await planner.plan(input, signal);
      if (step.llmCalls > 0) metrics.llmCalls.inc({ kind: "plan", outcome: "ok" }, step.llmCalls);
      if (step.degraded) metrics.llmCalls.inc({ kind: "plan", outcome: "failed" });
      if (step.promptBytes > 0) metrics.llmPromptBytes.inc({ kind: "plan" }, step.promptBytes);
      return step;
    },
  };
}

/** Counts the answerer's LLM calls and prompt bytes; a throw counts one failed call. */
export function instrumentAnswerer(answerer: Answerer, metrics: Metrics): Answerer {
  return {
    mode: answerer.mode,
    async compose(input, options) {
      try {
        const out = await answerer.compose(input, options);
        if (out.llmCalls > 0) metrics.llmCalls.inc({ kind: "answer", outcome: "ok" }, out.llmCalls);
        if (out.degraded) metrics.llmCalls.inc({ kind: "answer", outcome: "failed" });
        if (out.promptBytes > 0) metrics.llmPromptBytes.inc({ kind: "answer" }, out.promptBytes);
        return out;
      } catch (error) {
        if (answerer.mode === "gemini") metrics.llmCalls.inc({ kind: "answer", outcome: "failed" });
        throw error;
      }
    },
  };
}
