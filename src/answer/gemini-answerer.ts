/**
 * The Gemini answerer: a short Japanese explanation streamed from compact facts, followed by the facts
 * themselves rendered from the data (renderSubsidyFacts), so amounts, rates, deadlines and links never
 * come from LLM prose. The prose reaches the user only through the prose guard (prose-guard.ts), one
 * checked sentence at a time; a violation drops it for the template and a short note. Any failure falls
 * back to the template answerer and reports `degraded`. When the model fails or is stopped after some
 * sentences were streamed, the final `text` (the template's) replaces them.
 */
import { scopedSignal } from "../abort.ts";
import {
  createGeminiClient,
  type GeminiClient,
  type GeminiConfig,
  type RetryOptions,
} from "../llm/gemini-client.ts";
import { degradedReason, GeminiError } from "../llm/gemini-errors.ts";
import { promptFor } from "../llm/system-prompt.ts";
import type { Logger } from "../logger.ts";
import { silentLogger } from "../logger.ts";
import { type Answerer, type AnswerInput, type AnswerOutput, TEMPLATE_FALLBACK_NOTE } from "./answerer.ts";
import {
  buildAnswerPrompt,
  CHOICE_PREFIX,
  choosable,
  parseChoice,
  renderAnswerTail,
} from "./gemini-answer-prompt.ts";
import { createProseGate } from "./prose-gate.ts";
import { createProseGuard, GUARD_NOTE } from "./prose-guard.ts";
import { createTemplateAnswerer } from "./template-answerer.ts";

/** Options of createGeminiAnswerer; `retry` and `client` are optional additions for tests and sharing. */
export interface GeminiAnswererOptions {
  config: GeminiConfig;
  /** The whole AGENT.md; the answerer sends the shared sections and "## Answering". */
  systemPrompt: string;
  logger?: Logger;
  /** Backoff settings (tests pass a sleep that does not wait). */
  retry?: RetryOptions;
  /** A ready client (shared with the planner, or a test double); built from config when absent. */
  client?: GeminiClient;
}

/** Creates the Gemini answerer (mode "gemini"). */
export function createGeminiAnswerer(options: GeminiAnswererOptions): Answerer {
  const logger = options.logger ?? silentLogger;
  const client =
    options.client ?? createGeminiClient({ config: options.config, logger, retry: options.retry });
  const systemInstruction = promptFor(options.systemPrompt, "answerer");
  const guard = createProseGuard(options.systemPrompt);
  const template = createTemplateAnswerer();

  return {
    mode: "gemini",
    async compose(input: AnswerInput, opts = {}): Promise<AnswerOutput> {
      const { onDelta, signal } = opts;
      let streamed = false;
      let llmCalls = 0;
      let promptBytes = 0;
      let reason: string;
      // The guard may stop the stream; the caller's signal stops it too.
      const stream = scopedSignal({ follow: [signal] });
      const candidates = choosable(input);
      // The prose may speak of any candidate; figures and links are still checked against their data.
      const context = { ...input, subsidies: candidates ?? input.subsidies, asOf: input.source?.asOf };
      const gate = createProseGate(
        (text) => guard(text, context),
        (text) => {
          streamed = true;
          onDelta?.(text);
        },
        () => stream.abort(new Error("prose rejected by the guard")),
      );
      // With candidates, the reply's first line names the chosen ones (「ORDER: id id」): it is read here,
      // never shown, and the prose after it goes through the gate.
      let header: string | null = candidates ? "" : null;
      let choice: string[] | null = null;
      let prose = "";
      const toGate = (text: string) => {
        prose += text;
        gate.push(text);
      };
      const readHeader = (line: string) => {
        choice = parseChoice(line, candidates ?? [], input.subsidies.length);
        header = null;
      };
      const onModelDelta = (delta: string) => {
        if (header === null) return toGate(delta);
        header += delta;
        const head = header.trimStart().toUpperCase();
        const maybeChoice =
          head.length >= CHOICE_PREFIX.length
            ? head.startsWith(CHOICE_PREFIX)
            : CHOICE_PREFIX.startsWith(head);
        if (!maybeChoice) {
          // No choice line: the search's order stands and everything is prose.
          const text = header;
          header = null;
          return toGate(text);
        }
        const newline = header.indexOf("\n");
        if (newline < 0) return;
        const rest = header.slice(newline + 1).replace(/^\s+/, "");
        readHeader(header.slice(0, newline));
        if (rest) toGate(rest);
      };
      try {
        const result = await client.generateStream(
          {
            systemInstruction,
            contents: [{ role: "user", parts: [{ text: buildAnswerPrompt(input) }] }],
            temperature: 0.3,
          },
          {
            signal: stream.signal,
            deadline: (input.startedAt ?? Date.now()) + options.config.turnBudgetMs,
            onDelta: onModelDelta,
          },
        );
        llmCalls = result.attempts;
        promptBytes = result.promptBytes;
        if (header !== null) readHeader(header);
        const intro = (candidates ? prose : result.text).trim();
        const violation = intro ? gate.finish() : null;
        if (intro && !violation) {
          // The prose may have started before the details arrived; the facts wait for them.
          const chosen: string[] | null = choice;
          const shown = chosen
            ? await input.detailsOf!(chosen)
            : input.detailed
              ? await input.detailed
              : input.subsidies;
          const tail = `\n\n${renderAnswerTail({ ...input, subsidies: shown })}`;
          onDelta?.(tail);
          return { text: `${intro}${tail}`, llmCalls, promptBytes, ...(chosen ? { subsidies: shown } : {}) };
        }
        reason = violation
          ? `gemini: prose rejected (${violation.rule})`
          : `gemini: ${result.withheld ?? `empty answer (${result.finishReason ?? "no finish reason"})`}`;
        if (violation) logger.warn({ violation }, "gemini answerer: prose rejected by the guard");
      } catch (error) {
        if (error instanceof GeminiError) {
          llmCalls = error.attempts;
          promptBytes = error.promptBytes;
        }
        if (signal?.aborted) throw signal.reason ?? error;
        reason = gate.violation ? `gemini: prose rejected (${gate.violation.rule})` : degradedReason(error);
      } finally {
        stream.dispose();
      }
      logger.warn({ reason }, "gemini answerer degraded; using the template");
      const note = gate.violation ? GUARD_NOTE : TEMPLATE_FALLBACK_NOTE;
      const fallback = await template.compose(
        { ...input, notes: [...input.notes, note] },
        { onDelta: streamed ? undefined : onDelta, signal },
      );
      return {
        ...fallback,
        llmCalls: llmCalls + fallback.llmCalls,
        promptBytes,
        degraded: reason,
        fallbackNote: note,
      };
    },
  };
}
