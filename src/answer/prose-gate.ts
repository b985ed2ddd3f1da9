/**
 * Streams the model's prose to the user only after the guard has passed it: deltas are held until a
 * sentence ends, the prose so far is checked, and only then is the sentence released. A violation stops
 * the release for good (and calls onViolation, so the caller can stop the stream). URLs and figures are
 * whole within a finished sentence, so a sentence that was released was checked whole.
 */
import type { ProseViolation } from "./prose-guard.ts";
import { PROSE_MAX_CHARS } from "./prose-guard.ts";

export interface ProseGate {
  /** Takes one delta of the model's text. */
  push(delta: string): void;
  /** Checks the whole text once the stream ended; releases the rest when it passes. */
  finish(): ProseViolation | null;
  /** The violation found so far, if any. */
  readonly violation: ProseViolation | null;
}

const SENTENCE_END = /[。！？!?\n]/g;

/** Creates a gate that releases checked sentences through `release`. */
export function createProseGate(
  check: (text: string) => ProseViolation | null,
  release: (text: string) => void,
  onViolation: (violation: ProseViolation) => void = () => {},
): ProseGate {
  let text = "";
  let released = 0;
  let violation: ProseViolation | null = null;

  const inspect = (upTo: number) => {
    violation = check(text.slice(0, upTo));
    if (violation) {
      onViolation(violation);
      return;
    }
    if (upTo > released) release(text.slice(released, upTo));
    released = upTo;
  };

  return {
    push(delta) {
      if (violation) return;
      text += delta;
      let end = 0;
      for (const match of text.matchAll(SENTENCE_END)) end = (match.index ?? 0) + 1;
      // A runaway text without sentence ends is checked (and stopped) as soon as it passes the cap.
      if (end > released || text.length > PROSE_MAX_CHARS) inspect(Math.max(end, released));
      if (!violation && text.length > PROSE_MAX_CHARS) {
        violation = { rule: "length", detail: `more than ${PROSE_MAX_CHARS} characters` };
        onViolation(violation);
      }
    },
    finish() {
      if (!violation) inspect(text.length);
      return violation;
    },
    get violation() {
      return violation;
    },
  };
}
