/**
 * The Gemini planner: one plan() = one generateContent request with native function calling (several
 * function calls in one response run in parallel). Each declaration gets a required `reason` argument:
 * native calls keep parallel calls and per-tool schemas in the model's own format, and the extra argument
 * gives each call its reason without a second JSON format to parse.
 *
 * Each step is a fresh single-turn request carrying compact summaries of the history and of this turn's
 * rounds, so the planner holds no state between steps and threads. Model parts are replayed verbatim
 * (thought signatures included) only inside a repair exchange, the one place a model turn is resent.
 * Failures never throw: 429/5xx are retried by the client (within the turn's time budget), a malformed
 * plan (arguments that do not fit the tool's schema included) or MALFORMED_FUNCTION_CALL gets one repair
 * attempt, and anything else — a blocked or empty reply too — comes back as `degraded` for the offline
 * fallback.
 */
import {
  type Content,
  createGeminiClient,
  type GeminiClient,
  type GeminiConfig,
  type RetryOptions,
} from "../llm/gemini-client.ts";
import { degradedReason, GeminiError } from "../llm/gemini-errors.ts";
import { promptFor, withoutSubsection } from "../llm/system-prompt.ts";
import type { Logger } from "../logger.ts";
import { silentLogger } from "../logger.ts";
import type { ToolInfo } from "../types.ts";
import { createArgsCheck } from "./gemini-args.ts";
import { deriveConditions, deriveFocus, parseFunctionCalls } from "./gemini-plan.ts";
import { buildPlanPrompt } from "./gemini-prompt.ts";
import { toFunctionDeclarations } from "./gemini-schema.ts";
import { offeredTools } from "./gemini-tools.ts";
import type { PlanInput, Planner, PlanStep } from "./planner.ts";

/** Options of createGeminiPlanner; `retry` and `client` are optional additions for tests and sharing. */
export interface GeminiPlannerOptions {
  config: GeminiConfig;
  /** The whole AGENT.md; the planner sends the shared sections and "## Planning". */
  systemPrompt: string;
  logger?: Logger;
  /** Backoff settings (tests pass a sleep that does not wait). */
  retry?: RetryOptions;
  /** A ready client (shared with the answerer, or a test double); built from config when absent. */
  client?: GeminiClient;
}

const MALFORMED = "MALFORMED_FUNCTION_CALL";

/** Creates the Gemini planner (mode "gemini", model = config.model). */
export function createGeminiPlanner(options: GeminiPlannerOptions): Planner {
  const logger = options.logger ?? silentLogger;
  const client =
    options.client ?? createGeminiClient({ config: options.config, logger, retry: options.retry });
  const firstStepInstruction = promptFor(options.systemPrompt, "planner");
  // Follow-ups are resolved on a turn's first step; later steps need not read about them.
  const laterStepInstruction = withoutSubsection(firstStepInstruction, "Follow-ups");
  const checkArgs = createArgsCheck();

  async function plan(input: PlanInput, signal?: AbortSignal): Promise<PlanStep> {
    const tools = new Map<string, ToolInfo>(input.tools.map((tool) => [tool.qualifiedName, tool]));
    const functionDeclarations = toFunctionDeclarations(offeredTools(input));
    const deadline = (input.startedAt ?? Date.now()) + options.config.turnBudgetMs;
    const systemInstruction = input.rounds.length > 0 ? laterStepInstruction : firstStepInstruction;
    const contents: Content[] = [{ role: "user", parts: [{ text: buildPlanPrompt(input) }] }];
    let llmCalls = 0;
    let promptBytes = 0;
    let problem = "";
    for (let attempt = 0; attempt < 2; attempt++) {
      let result: Awaited<ReturnType<GeminiClient["generate"]>>;
      try {
        result = await client.generate(
          { systemInstruction, contents, functionDeclarations, temperature: 0 },
          { signal, deadline },
        );
      } catch (error) {
        if (error instanceof GeminiError) {
          llmCalls += error.attempts;
          promptBytes += error.promptBytes;
        }
        if (signal?.aborted) throw signal.reason ?? error;
        if (error instanceof GeminiError && error.code === "GEMINI_BAD_RESPONSE" && attempt === 0) {
          problem = "unreadable response";
          logger.warn({ err: error }, "gemini planner: unreadable response, retrying once");
          continue;
        }
        return degraded(degradedReason(error));
      }
      llmCalls += result.attempts;
      promptBytes += result.promptBytes;
      // A blocked or empty reply is not "nothing to search": asking again would be refused the same way.
      if (result.withheld) return degraded(`gemini: ${result.withheld}`);
      if (result.finishReason === MALFORMED && result.functionCalls.length === 0) {
        problem = MALFORMED;
        addUserText(contents, "Your last function call was malformed. Call the functions again, correctly.");
        continue;
      }
      const parsed = parseFunctionCalls(result.functionCalls, tools, checkArgs);
      if (parsed.ok) {
        const calls = parsed.calls;
        return {
          calls,
          done: calls.length === 0,
          conditions: deriveConditions(calls, input.rounds, input.history),
          focus: deriveFocus(calls, input.rounds),
          llmCalls,
          promptBytes,
        };
      }
      problem = parsed.problem;
      logger.warn({ problem }, "gemini planner: malformed plan, asking for a repair");
      addRepairTurn(contents, result.content, result.functionCalls, parsed.problem);
    }
    return degraded(`gemini: malformed plan after one repair (${problem})`);

    function degraded(reason: string): PlanStep {
      logger.warn({ reason }, "gemini planner degraded");
      return {
        calls: [],
        done: false,
        conditions: null,
        focus: { kind: "search" },
        llmCalls,
        promptBytes,
        degraded: reason,
      };
    }
  }

  return { mode: "gemini", model: options.config.model, plan };
}

/** Adds text to the last user turn (or a new one): Gemini expects user and model turns to alternate. */
function addUserText(contents: Content[], text: string): void {
  const last = contents.at(-1);
  if (last?.role === "user") last.parts = [...(last.parts ?? []), { text }];
  else contents.push({ role: "user", parts: [{ text }] });
}

/**
 * The model's turn verbatim (thought signatures kept), then one function response per call saying
 * none ran, then what to fix: Gemini expects every function call answered before the next user text.
 */
function addRepairTurn(
  contents: Content[],
  modelContent: Content | undefined,
  functionCalls: Array<{ name: string }>,
  problem: string,
): void {
  const fix = `The plan was not executed: ${problem}. Use only the declared functions with arguments of the declared types, and give every call a "reason". Send the complete plan again.`;
  if (!modelContent?.parts?.length || functionCalls.length === 0) {
    addUserText(contents, fix);
    return;
  }
  const responses = functionCalls.map((call) => ({
    functionResponse: { name: call.name, response: { error: "not executed: the plan was malformed" } },
  }));
  contents.push(modelContent, { role: "user", parts: [...responses, { text: fix }] });
}
