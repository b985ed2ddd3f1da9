/**
 * The first seed's documented algorithm, kept only as a yardstick: the LLM decides every step (plan, then
 * an evaluation after each execution, including which details to fetch), tool calls run one after another
 * (依次, as the seed describes it), and raw results go back into the prompt. Same Gemini client and tool
 * host as the agent, so the figures compare the algorithms, not the plumbing. `parallel: true` is a
 * variant that runs each round's calls at once, so readers see how much of the gap is parallelism alone.
 */
import type { GeminiClient } from "../src/llm/gemini-client.ts";
import type { ToolHost, ToolInfo } from "../src/types.ts";

export interface BaselineFigures {
  llmCalls: number;
  toolCalls: number;
  rounds: number;
  promptBytes: number;
  wallMs: number;
}

const MAX_ROUNDS = 5;

export async function runBaseline(
  question: string,
  client: GeminiClient,
  host: ToolHost,
  options: { parallel?: boolean } = {},
): Promise<BaselineFigures> {
  const started = Date.now();
  const tools = await host.listTools();
  const byName = new Map<string, ToolInfo>(tools.map((t) => [t.qualifiedName, t]));
  const functionDeclarations = tools.map((t) => ({
    name: t.qualifiedName,
    description: t.description,
    parametersJsonSchema: t.inputSchema,
  }));
  const transcript: string[] = [];
  const figures = { llmCalls: 0, toolCalls: 0, rounds: 0, promptBytes: 0 };
  const ask = async (stage: string, withTools: boolean) => {
    const text = [`STAGE:${stage}`, `質問: ${question}`, ...transcript].join("\n");
    const result = await client.generate({
      systemInstruction:
        "BASELINE: あなたは補助金検索エージェントです。ツールを使って調べ、十分なら関数を呼ばずに答えてください。",
      contents: [{ role: "user", parts: [{ text }] }],
      functionDeclarations: withTools ? functionDeclarations : undefined,
    });
    figures.llmCalls += result.attempts;
    figures.promptBytes += result.promptBytes;
    return result;
  };
  let step = await ask("plan", true);
  while (step.functionCalls.length > 0 && figures.rounds < MAX_ROUNDS) {
    figures.rounds += 1;
    const run = async (fc: { name: string; args: Record<string, unknown> }) => {
      const tool = byName.get(fc.name);
      if (!tool) return null;
      const result = await host.callTool({ server: tool.server, tool: tool.name, args: fc.args });
      figures.toolCalls += 1;
      return `結果 ${fc.name}(${JSON.stringify(fc.args)}): ${JSON.stringify(result.data ?? result.text)}`;
    };
    const lines: Array<string | null> = [];
    if (options.parallel) lines.push(...(await Promise.all(step.functionCalls.map(run))));
    else for (const fc of step.functionCalls) lines.push(await run(fc));
    transcript.push(...lines.filter((line): line is string => line !== null));
    step = await ask("evaluate", true);
  }
  await ask("answer", false);
  return { ...figures, wallMs: Date.now() - started };
}
