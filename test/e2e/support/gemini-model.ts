/**
 * A script for test/fakes/fake-gemini.ts that acts the way a model would, as a function of each request:
 * planner requests (they offer function declarations) get function calls — one search per keyword for a new
 * question, get_subsidy_detail with the id the history numbers for "N番目", DONE once tool results are in —
 * and answer requests (streamed, no declarations) get a short prose text.
 */
import type { FakeGeminiReply, RecordedRequest } from "../../fakes/fake-gemini.ts";

export interface ModelScript {
  /** Keywords searched for a new question (one function call each, in parallel). */
  keywords: string[];
  /** Text chunks of the streamed answer prose. */
  prose: string[];
  /** Given the candidates' ids an answer request offers (best ranked first), the ids the model chooses. */
  choose?: (candidates: string[]) => string[];
}

/** The candidate ids an answer request lists ("a0W… | title | …" lines inside <subsidy_data>). */
export function candidateIdsOf(request: RecordedRequest): string[] {
  const data = request.text.split("## Candidates")[1]?.split("</subsidy_data>")[0] ?? "";
  return [...data.matchAll(/^(\S+) \| /gm)].map((m) => m[1]!);
}

/** The user's question, as the planner prompt quotes it last ("## User question" then a JSON string). */
export function questionOf(request: RecordedRequest): string {
  const match = /## User question\n("(?:[^"\\]|\\.)*")/.exec(request.text);
  return match?.[1] ? (JSON.parse(match[1]) as string) : "";
}

/** The id numbered `n` in the conversation history of a planner prompt ("  2. a0W… \"title\""). */
export function historyIdAt(request: RecordedRequest, n: number): string | undefined {
  const history = request.text.split("## Conversation so far")[1]?.split("## User question")[0] ?? "";
  return new RegExp(`^\\s+${n}\\. (\\S+)`, "m").exec(history)?.[1];
}

/** The reply a model would give to this request. */
export function modelReply(request: RecordedRequest, script: ModelScript): FakeGeminiReply {
  const isPlanner = request.functionNames.length > 0;
  if (!isPlanner) {
    const candidates = candidateIdsOf(request);
    if (!script.choose || candidates.length === 0) return { text: script.prose };
    return { text: [`ORDER: ${script.choose(candidates).join(" ")}\n`, ...script.prose] };
  }
  if (request.text.includes("## Tool results so far in this turn")) return { text: "DONE" };
  const question = questionOf(request);
  const ordinal = /(\d)番目/.exec(question);
  if (ordinal) {
    const id = historyIdAt(request, Number(ordinal[1]));
    if (!id) return { text: "DONE" };
    return {
      functionCalls: [
        {
          name: "jgrants__get_subsidy_detail",
          args: { subsidy_id: id, reason: `${ordinal[1]}番目の補助金の詳細を確認するため` },
          thoughtSignature: "c2lnbmF0dXJl",
        },
      ],
    };
  }
  // The ranked search takes the user's need as it was asked.
  return {
    functionCalls: [
      {
        name: "jgrants__find_subsidies",
        args: { query: question, reason: `「${script.keywords.join("・")}」に関する補助金を探すため` },
      },
    ],
  };
}
