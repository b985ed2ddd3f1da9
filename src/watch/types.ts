/** The vocabulary of watches: a thread's saved search, its schedule, and what it already reported. */
import type { SearchConditions } from "../types.ts";

/** When a watch is checked: every day or on one weekday, at 09:00 Asia/Tokyo. */
export type WatchSchedule = { kind: "daily" } | { kind: "weekly"; weekday: number };

/** One saved search of a thread. */
export interface Watch {
  /** Stable id within the thread (part of each digest id). */
  id: string;
  /** The thread's search as ranked retrieval understands it (query, area/city, employees, industry). */
  conditions: SearchConditions;
  schedule: WatchSchedule;
  /** Remind of subsidies whose deadline is this many days away or fewer (null: no reminders). */
  remindDays: number | null;
  /** Post a "nothing new" line when a run finds nothing (asked for with 「なくても」). */
  nothingNewLine: boolean;
  createdAt: string;
  /** Ids already reported or present when the watch was saved (new = not in here). */
  seen: string[];
  /** Ids already reminded about their deadline. */
  reminded: string[];
  /** The next scheduled run (ISO). */
  nextRunAt: string;
}

/** Everything stored for one thread. */
export interface ThreadWatches {
  threadKey: string;
  watches: Watch[];
}

/** One digest, ready to send: its id is recorded before sending so it goes out once. */
export interface Digest {
  id: string;
  threadKey: string;
  watchId: string;
  text: string;
  /** Ids of the subsidies shown as new, and of those reminded about. */
  newIds: string[];
  closingIds: string[];
  /** How many more new ones matched than are shown (「ほかN件」). */
  moreCount: number;
  /** The subsidies listed, in shown order, and the watch's conditions: the thread's history gets both. */
  listed: Array<{ id: string; title: string }>;
  conditions: SearchConditions;
}

/** A digest kept for a thread that reads it later (web chat, CLI, a LINE chat without pushes). */
export interface KeptDigest {
  text: string;
  listed: Digest["listed"];
  /** Null for a digest kept by an older version (text only). */
  conditions: SearchConditions | null;
}

/** Where a digest went: posted into the thread, or kept until the thread is next opened or asks. */
export type Delivery = "posted" | "kept";

export const WEEKDAYS = ["日", "月", "火", "水", "木", "金", "土"] as const;
