/**
 * One watch run: the ranked search, then what is new since the last digest (at most 5, with 「ほかN件」)
 * and what closes within the reminder window, rendered with the template answerer's facts blocks.
 */
import { ATTRIBUTION, conditionsText, dataDateText, renderSubsidyFacts } from "../answer/template-facts.ts";
import type { SearchConditions, Subsidy, ToolHost } from "../types.ts";
import { searchForWatch } from "./search.ts";
import type { Watch } from "./types.ts";

/** New subsidies shown per digest; the rest are counted in 「ほかN件」. */
export const DIGEST_MAX_NEW = 5;
/** Ids remembered per watch (older ones drop off first). */
const MAX_REMEMBERED = 1000;

export interface DigestContent {
  /** The message, or null when there is nothing to post. */
  text: string | null;
  newIds: string[];
  closingIds: string[];
  moreCount: number;
  /** The subsidies listed, in their shown order (new ones, then closing ones): what 「2番目」 refers to. */
  listed: Array<{ id: string; title: string }>;
  /** The watch with its seen and reminded ids advanced (save it before sending). */
  watch: Watch;
}

/** The conditions in words, e.g. 「IT導入」（東京都・従業員20名）. */
export function watchConditionsText(c: SearchConditions): string {
  return conditionsText(c) || (c.query ? `「${c.query}」` : "（条件なし）");
}

const remember = (ids: string[], more: string[]) => [...new Set([...ids, ...more])].slice(-MAX_REMEMBERED);

/** Runs the watch's search at `now` and builds its digest. `number` is the watch's place in the thread's list. */
export async function buildDigest(
  tools: ToolHost,
  watch: Watch,
  number: number,
  now: Date,
): Promise<DigestContent> {
  const { subsidies, source } = await searchForWatch(tools, watch.conditions, now);
  const seen = new Set(watch.seen);
  const reminded = new Set(watch.reminded);
  const fresh = subsidies.filter((s) => !seen.has(s.id));
  const closing =
    watch.remindDays === null
      ? []
      : subsidies.filter(
          (s) =>
            s.status === "受付中" &&
            s.daysLeft !== null &&
            s.daysLeft <= watch.remindDays! &&
            !reminded.has(s.id) &&
            !fresh.slice(0, DIGEST_MAX_NEW).includes(s),
        );
  const shown = fresh.slice(0, DIGEST_MAX_NEW);
  const moreCount = fresh.length - shown.length;
  const next: Watch = {
    ...watch,
    seen: remember(
      watch.seen,
      fresh.map((s) => s.id),
    ),
    reminded: remember(
      watch.reminded,
      closing.map((s) => s.id),
    ),
  };
  const head = `🔔 ウォッチ${number}: ${watchConditionsText(watch.conditions)}`;
  const base = {
    newIds: shown.map((s) => s.id),
    closingIds: closing.map((s) => s.id),
    moreCount,
    listed: [...shown, ...closing].map((s) => ({ id: s.id, title: s.title })),
    watch: next,
  };
  if (shown.length === 0 && closing.length === 0) {
    const text = watch.nothingNewLine ? `${head}\n今回、新しく条件に合う補助金はありませんでした。` : null;
    return { ...base, text };
  }
  const lines = [head];
  if (shown.length > 0)
    lines.push("", `新しく条件に合う補助金が${fresh.length}件あります。`, "", cards(shown));
  if (moreCount > 0) lines.push("", `ほか${moreCount}件`);
  if (closing.length > 0) {
    // Numbered on from the new ones: 「2番目」 after a digest means one entry.
    lines.push("", `締切まで${watch.remindDays}日以内のものがあります。`, "", cards(closing, shown.length));
  }
  const dated = dataDateText(source);
  lines.push("", [dated, ATTRIBUTION].filter(Boolean).join(" "));
  lines.push(`止めるときは「ウォッチ${number}を止めて」と送ってください。`);
  return { ...base, text: lines.join("\n") };
}

const cards = (list: Subsidy[], from = 0) =>
  list.map((s, i) => renderSubsidyFacts(s, from + i + 1)).join("\n\n");
