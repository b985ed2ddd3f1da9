/**
 * Key names of the store. Every key carries a version prefix so a change of the stored shape can move to
 * "sc:v2:" without reading old records as new ones.
 */
import { StoreKeyError } from "./errors.ts";

/** The prefix of every key this project writes. */
export const KEY_PREFIX = "sc:v1";

const MAX_ID_LENGTH = 512;

function checkId(kind: string, id: unknown): string {
  if (typeof id !== "string" || id.length === 0) {
    throw new StoreKeyError(`${kind} must be a non-empty string`);
  }
  if (id.length > MAX_ID_LENGTH) {
    throw new StoreKeyError(`${kind} must be at most ${MAX_ID_LENGTH} characters (got ${id.length})`);
  }
  return id;
}

/** The key of a thread's history. */
export const threadKeyOf = (threadKey: string): string =>
  `${KEY_PREFIX}:thread:${checkId("threadKey", threadKey)}`;

/** The key that marks an event id as delivered. */
export const dedupKeyOf = (eventId: string): string => `${KEY_PREFIX}:dedup:${checkId("eventId", eventId)}`;

/** The key written by health probes. */
export const HEALTH_KEY = `${KEY_PREFIX}:health`;

/** Keys of the distributed lock of one thread (holder, queue, waiter heartbeats, ticket counter). */
export function lockKeysOf(threadKey: string): {
  lock: string;
  queue: string;
  beats: string;
  ticket: string;
} {
  const id = checkId("threadKey", threadKey);
  return {
    lock: `${KEY_PREFIX}:lock:${id}`,
    queue: `${KEY_PREFIX}:lockq:${id}`,
    beats: `${KEY_PREFIX}:lockhb:${id}`,
    ticket: `${KEY_PREFIX}:lockt:${id}`,
  };
}
