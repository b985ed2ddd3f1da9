/**
 * The stored shape of a thread and its bounds: the last maxTurns turns and about maxBytes of JSON,
 * trimming the oldest first, so a long conversation never grows a record without limit.
 */
import type { HistoryTurn } from "../types.ts";

/** What one thread record holds. expiresAt is checked against the store's clock on load. */
export interface ThreadRecord {
  turns: HistoryTurn[];
  updatedAt: number;
  expiresAt: number;
}

export interface HistoryBounds {
  maxTurns: number;
  maxBytes: number;
}

const byteLength = (value: unknown): number => Buffer.byteLength(JSON.stringify(value), "utf8");

/** Returns the turns that fit the bounds, oldest dropped first; the newest turn is kept (shortened if alone too big). */
export function trimTurns(turns: HistoryTurn[], bounds: HistoryBounds): HistoryTurn[] {
  let kept = turns.slice(-Math.max(1, bounds.maxTurns));
  while (kept.length > 1 && byteLength(kept) > bounds.maxBytes) kept = kept.slice(1);
  const only = kept[0];
  if (kept.length === 1 && only && byteLength(kept) > bounds.maxBytes)
    kept = [shrinkTurn(only, bounds.maxBytes)];
  return kept;
}

/** Shortens the answer (then the question) of a single oversized turn so the record stays near maxBytes. */
function shrinkTurn(turn: HistoryTurn, maxBytes: number): HistoryTurn {
  const shrunk: HistoryTurn = { ...turn, subsidies: turn.subsidies.slice(0, 20) };
  for (const field of ["answer", "question"] as const) {
    const over = byteLength([shrunk]) - maxBytes;
    if (over <= 0) break;
    const text = shrunk[field];
    // Every character takes at least one byte of JSON, so cutting `over` characters frees enough.
    shrunk[field] = `${text.slice(0, Math.max(0, text.length - over - 1))}…`;
  }
  return shrunk;
}

/** Reads a stored value defensively: anything not shaped like a record reads as an empty thread. */
export function parseRecord(value: unknown): ThreadRecord | null {
  if (typeof value !== "object" || value === null) return null;
  const record = value as Partial<ThreadRecord>;
  if (!Array.isArray(record.turns)) return null;
  const turns = record.turns.filter(
    (turn): turn is HistoryTurn =>
      typeof turn === "object" &&
      turn !== null &&
      typeof turn.question === "string" &&
      typeof turn.answer === "string",
  );
  return {
    turns,
    updatedAt: typeof record.updatedAt === "number" ? record.updatedAt : 0,
    expiresAt: typeof record.expiresAt === "number" ? record.expiresAt : Number.POSITIVE_INFINITY,
  };
}

/** Checks a turn before it is stored, so bad input fails loudly instead of corrupting a thread. */
export function checkTurn(turn: HistoryTurn): void {
  if (typeof turn !== "object" || turn === null) throw new TypeError("turn must be an object");
  if (typeof turn.question !== "string" || typeof turn.answer !== "string") {
    throw new TypeError("turn.question and turn.answer must be strings");
  }
  if (!Array.isArray(turn.subsidies)) throw new TypeError("turn.subsidies must be an array");
}
