/**
 * One trace id per turn, carried by async context: every log line written while a turn runs (agent,
 * tool host, store, adapters) gets `traceId` through the logger's mixin, without passing loggers around.
 * The same id is the reference id users see in error replies (参照ID), so a report leads to the log lines.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { randomBytes } from "node:crypto";
import type { AgentLike, Reply, Turn } from "./types.ts";

const context = new AsyncLocalStorage<{ traceId: string }>();

/** A new short id, e.g. "3f9a1c07" (8 hex digits, as the Slack apology has always shown). */
export function newTraceId(): string {
  return randomBytes(4).toString("hex");
}

/** The trace id of the turn or request running now, if any. */
export function currentTraceId(): string | undefined {
  return context.getStore()?.traceId;
}

/** Runs fn inside a trace: the current one if there is one (a request already started it), else a new one. */
export function withTrace<T>(fn: (traceId: string) => T, traceId?: string): T {
  const current = context.getStore();
  if (current && !traceId) return fn(current.traceId);
  const id = traceId ?? newTraceId();
  return context.run({ traceId: id }, () => fn(id));
}

/** The reference-id suffix of an error message shown to users. */
export function referenceSuffix(traceId: string): string {
  return `（参照ID: ${traceId}）`;
}

/** A reply with the turn's trace id in its meta; an error reply also shows it to the user as 参照ID. */
export function tagReply(reply: Reply, traceId: string): Reply {
  const text =
    reply.kind === "error" && !reply.text.includes(traceId)
      ? `${reply.text}${referenceSuffix(traceId)}`
      : reply.text;
  return { ...reply, text, meta: { ...reply.meta, traceId } };
}

/** Runs every turn of an agent inside a trace (the caller's, or a new one) and tags its reply. */
export function traceAgent<A extends AgentLike>(agent: A): A {
  return {
    ...agent,
    handle: (turn: Turn, options?: Parameters<A["handle"]>[1]) =>
      withTrace(async (traceId) => tagReply(await agent.handle(turn, options), traceId)),
  } as A;
}
