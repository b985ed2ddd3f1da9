/**
 * A digest in the thread's history: a turn whose list is the digest's, so 「2番目の詳細は？」 after a
 * digest means its second entry, and 「大阪府なら？」 starts from the watch's conditions.
 */
import type { HistoryTurn } from "../types.ts";
import type { KeptDigest } from "./types.ts";

/** What the history says was asked: the digest was not a question of the user's. */
const DIGEST_QUESTION = "（ウォッチの新着）";

/** The history turn of a digest shown at `at`. */
export function digestTurn(digest: KeptDigest, at: Date): HistoryTurn {
  return {
    question: DIGEST_QUESTION,
    answer: digest.text.slice(0, 2000),
    subsidies: digest.listed,
    conditions: digest.conditions,
    at: at.toISOString(),
  };
}
