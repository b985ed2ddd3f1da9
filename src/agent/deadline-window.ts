/** The deadline window a question asks for ("今月締切", "今週まで", "30日以内"), as a filter on subsidies. */
import { deadlineWindow } from "../planner/filters.ts";
import { toJstDisplay } from "../subsidies/index.ts";
import type { Subsidy } from "../types.ts";

/**
 * A predicate keeping subsidies whose deadline falls inside the question's window, or undefined when the
 * question names none. `now` is read at each call, so the window follows the data's clock (a snapshot's date).
 */
export function withinDeadlineWindow(
  question: string,
  now: () => Date,
): ((s: Subsidy) => boolean) | undefined {
  if (!deadlineWindow(question.normalize("NFKC"), now())) return undefined;
  return (s) => {
    const window = deadlineWindow(question.normalize("NFKC"), now());
    if (!window || !s.end) return false;
    const end = Date.parse(s.end.iso);
    return end >= window.from.getTime() && end <= window.to.getTime();
  };
}

/** A short note naming the window's last day, e.g. "締切が2026/08/31(月)までのものに絞っています。". */
export function deadlineWindowNote(question: string, now: Date): string | null {
  const window = deadlineWindow(question.normalize("NFKC"), now);
  if (!window) return null;
  const day = toJstDisplay(window.to.toISOString())?.jst.slice(0, 13);
  return day ? `締切が${day}までのものに絞っています。` : null;
}
