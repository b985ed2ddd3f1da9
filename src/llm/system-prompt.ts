/**
 * The Gemini system prompt lives in AGENT.md so that it can be read and reviewed as a document. Its
 * "## Planning" and "## Answering" sections go only to the planner and the answerer respectively;
 * every other section goes to both. Sending only the relevant part keeps each prompt small.
 */
import { readFileSync } from "node:fs";
import { AppError } from "../errors.ts";

/** Reads the system prompt (AGENT.md by default, relative to the working directory). */
export function loadSystemPrompt(path = "AGENT.md"): string {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    throw new AppError("SYSTEM_PROMPT_MISSING", `Cannot read the Gemini system prompt at ${path}`, {
      cause: error,
    });
  }
  const trimmed = text.replace(/<!--[\s\S]*?-->/g, "").trim();
  if (!trimmed) throw new AppError("SYSTEM_PROMPT_EMPTY", `The Gemini system prompt at ${path} is empty`);
  return trimmed;
}

const ROLE_HEADINGS = { planner: "planning", answerer: "answering" } as const;

/** The part of the system prompt one role needs: shared sections plus its own. */
export function promptFor(systemPrompt: string, role: keyof typeof ROLE_HEADINGS): string {
  const sections = systemPrompt.split(/^(?=## )/m);
  const other = role === "planner" ? ROLE_HEADINGS.answerer : ROLE_HEADINGS.planner;
  return sections
    .filter((section) => !section.toLowerCase().startsWith(`## ${other}`))
    .join("")
    .trim();
}

/**
 * A prompt without one "### " subsection (up to the next heading): the planner drops "### Follow-ups"
 * once tools have run in a turn, since follow-ups are resolved on its first step.
 */
export function withoutSubsection(prompt: string, heading: string): string {
  const pattern = new RegExp(`^### ${heading}\\s*\\n[\\s\\S]*?(?=^#{2,3} |(?![\\s\\S]))`, "im");
  return prompt.replace(pattern, "").trim();
}
