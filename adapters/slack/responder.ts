/**
 * Answers one inbound Slack message: a status line in the thread at once, throttled progress edits, the
 * final blocks as NEW messages (so the asker is notified) and then the status line removed. Any failure
 * ends in a short apology with a reference id that is also logged.
 */
import { randomUUID } from "node:crypto";
import { progressText, STARTING_TEXT } from "../../src/agent/progress-text.ts";
import { helpReply } from "../../src/agent/replies.ts";
import type { Logger } from "../../src/logger.ts";
import { currentTraceId, withTrace } from "../../src/trace.ts";
import type { AgentLike, Reply } from "../../src/types.ts";
import type { SlackInbound } from "./parse.ts";
import { createStatusUpdater, type StatusUpdater } from "./progress.ts";
import { plainMessage, renderReply } from "./render.ts";
import type { SlackCalls, SlackTarget } from "./web-api.ts";

/** The help reply for an empty mention, rendered locally (no agent call): the agent's own help. */
export function slackHelpReply(threadKey: string): Reply {
  return helpReply(threadKey, "offline", null);
}

/** The apology posted when answering fails; the reference id is also in the error log line. */
export function apologyText(ref: string): string {
  return `申し訳ありません。回答の作成中に問題が発生しました。時間をおいてもう一度お試しください。（参照ID: ${ref}）`;
}

export interface ResponderDeps {
  agent: AgentLike;
  calls: SlackCalls;
  logger: Logger;
  /** Minimum spacing of status edits, in ms. */
  progressIntervalMs: number;
}

/** Creates the function that answers one inbound message end to end. It never throws. */
export function createResponder(deps: ResponderDeps) {
  const { agent, calls, logger } = deps;

  // One trace per message: the agent's log lines and the apology's 参照ID are the same id.
  return (inbound: SlackInbound, signal: AbortSignal) => withTrace(() => respond(inbound, signal));

  async function respond(inbound: SlackInbound, signal: AbortSignal): Promise<void> {
    const target: SlackTarget = { channel: inbound.channel, threadTs: inbound.threadTs };
    const log = logger.child({ threadKey: inbound.turn.threadKey, eventId: inbound.turn.eventId });
    let statusTs: Promise<string | null> = Promise.resolve(null);
    let updater: StatusUpdater | undefined;

    const removeStatus = async () => {
      const ts = await statusTs;
      if (!ts) return;
      await calls.remove(target.channel, ts).catch(async (error) => {
        log.warn({ err: error }, "slack: could not delete the status message; marking it done instead");
        await calls.update(target.channel, ts, plainMessage("✅ 回答しました")).catch(() => undefined);
      });
    };

    try {
      if (inbound.turn.text === "") {
        for (const message of renderReply(slackHelpReply(inbound.turn.threadKey)))
          await calls.post(target, message);
        return;
      }
      statusTs = calls.post(target, plainMessage(STARTING_TEXT)).catch((error) => {
        log.warn({ err: error }, "slack: status message failed; answering without it");
        return null;
      });
      if (inbound.isDm) void calls.setStatus(target, "補助金を検索しています…");
      const current = createStatusUpdater({
        initial: STARTING_TEXT,
        intervalMs: deps.progressIntervalMs,
        update: async (text) => {
          const ts = await statusTs;
          if (ts) await calls.update(target.channel, ts, plainMessage(text));
        },
        onError: (error) => log.warn({ err: error }, "slack: status update failed (ignored)"),
      });
      updater = current;
      const reply = await agent.handle(inbound.turn, {
        signal,
        onProgress: (event) => {
          // Error events may carry internal messages; the user sees the apology or the reply instead.
          if (event.type === "error") return;
          const text = progressText(event);
          if (text) current.push(text);
        },
      });
      await current.close();
      // The status line goes first even when its post was delayed (429), so the thread reads in order.
      await statusTs;
      for (const message of renderReply(reply)) await calls.post(target, message);
      await removeStatus();
      log.info({ kind: reply.kind, subsidies: reply.subsidies.length }, "slack: answered");
    } catch (error) {
      await updater?.close();
      await apologise(calls, log, target, error);
      await removeStatus().catch(() => undefined);
    }
  }
}

/** Logs the failure with a new reference id and posts the apology carrying it in the thread. Never throws. */
export async function apologise(
  calls: SlackCalls,
  log: Logger,
  target: SlackTarget,
  error: unknown,
): Promise<void> {
  const ref = currentTraceId() ?? randomUUID().slice(0, 8);
  log.error({ ref, err: error }, "slack: answering failed");
  try {
    await calls.post(target, plainMessage(apologyText(ref)));
  } catch (postError) {
    log.error({ ref, err: postError }, "slack: the apology could not be posted either");
  }
}
