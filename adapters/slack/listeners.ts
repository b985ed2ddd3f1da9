/**
 * What happens after Bolt has acked: access checks, the history rule for un-mentioned thread replies,
 * and exactly-once delivery. Two keys are claimed through the store: the event_id (drops Slack's
 * retries of an event already taken) and channel+ts (one answer when a message arrives both as
 * app_mention and as message). A retry whose first delivery never got that far claims both, and is answered.
 */
import type { Config } from "../../src/config.ts";
import type { Logger } from "../../src/logger.ts";
import type { ThreadStore } from "../../src/types.ts";
import { parseSlackEvent, type SlackIdentity, type SlackInbound, slackThreadKey } from "./parse.ts";
import { SUGGEST_ACTION_PREFIX, WATCH_ACTION_ID, WATCH_COMMAND } from "./render.ts";
import { parseDetailValue } from "./render-subsidy.ts";

export type SlackConfig = NonNullable<Config["slack"]>;

export interface ListenerDeps {
  config: SlackConfig;
  store: ThreadStore;
  logger: Logger;
  respond: (inbound: SlackInbound, signal: AbortSignal) => Promise<void>;
  /** Tells the asker that something failed (used when the store fails before the answer starts). */
  apologise: (inbound: SlackInbound, error: unknown) => Promise<void>;
}

/** Who wrote where: what the allowlists are checked against. */
export interface SlackOrigin {
  teamId: string;
  channel: string;
  userId: string;
}

/** Why a message is outside the allowlists, or null when it may be answered. */
export function accessDenied(origin: SlackOrigin, config: SlackConfig): string | null {
  const outside = (list: string[] | undefined, value: string) =>
    list !== undefined && list.length > 0 && !list.includes(value);
  if (outside(config.allowedTeams, origin.teamId)) return "team";
  if (outside(config.allowedChannels, origin.channel)) return "channel";
  if (outside(config.allowedUsers, origin.userId)) return "user";
  return null;
}

const originOf = (inbound: SlackInbound): SlackOrigin => ({
  teamId: inbound.teamId,
  channel: inbound.channel,
  userId: inbound.turn.userId,
});

/** Claims both delivery keys; false when either was already taken. */
async function claim(store: ThreadStore, inbound: SlackInbound, actionKey?: string): Promise<boolean> {
  const eventKey = actionKey ?? (inbound.turn.eventId ? `slack:event:${inbound.turn.eventId}` : undefined);
  if (eventKey && !(await store.markDelivered(eventKey))) return false;
  if (actionKey) return true;
  return store.markDelivered(`slack:message:${inbound.teamId}:${inbound.channel}:${inbound.ts}`);
}

/** Handles one Events API envelope (already acked). */
export function createEventHandler(deps: ListenerDeps) {
  const { config, store, logger } = deps;
  // Threads with an answer in progress: a follow-up sent before the first answer is saved still counts.
  const active = new Map<string, number>();
  const hasHistory = async (key: string) => (active.get(key) ?? 0) > 0 || (await store.load(key)).length > 0;
  return async (
    envelope: unknown,
    identity: SlackIdentity,
    retryNum: number | undefined,
    signal: AbortSignal,
  ) => {
    const inbound = parseSlackEvent(envelope, identity);
    if (!inbound) return;
    const log = logger.child({ threadKey: inbound.turn.threadKey, eventId: inbound.turn.eventId, retryNum });
    const denied = accessDenied(originOf(inbound), config);
    if (denied) {
      log.info({ denied, user: inbound.turn.userId }, "slack: ignored a message outside the allowlist");
      return;
    }
    const key = inbound.turn.threadKey;
    try {
      if (inbound.reason === "follow-up" && !(await hasHistory(key))) return;
      if (!(await claim(store, inbound))) {
        log.debug("slack: duplicate delivery dropped");
        return;
      }
    } catch (error) {
      // The store is down. A follow-up in an unknown thread stays silent; a mention or DM is surely ours:
      // answer a first delivery (the agent answers without history and says the turn was not saved), but
      // not a retry, since it may already have been answered.
      if (inbound.reason === "follow-up") {
        log.warn({ err: error }, "slack: store unavailable; follow-up not answered");
        return;
      }
      if (retryNum !== undefined) {
        log.warn({ err: error }, "slack: store unavailable; retry not answered to avoid a duplicate");
        return;
      }
      log.error({ err: error }, "slack: store unavailable; answering without exactly-once protection");
    }
    active.set(key, (active.get(key) ?? 0) + 1);
    try {
      await deps.respond(inbound, signal);
    } finally {
      const left = (active.get(key) ?? 1) - 1;
      if (left > 0) active.set(key, left);
      else active.delete(key);
    }
  };
}

/** Handles a "詳しく聞く", a suggestion or the watch button: a follow-up turn in the button's thread. */
export function createActionHandler(deps: ListenerDeps) {
  const { config, store, logger } = deps;
  return async (body: Record<string, unknown>, signal: AbortSignal) => {
    const action = (body.actions as Array<Record<string, unknown>> | undefined)?.[0];
    const detail = parseDetailValue(action?.value);
    // A suggestion button asks its own question; a detail button asks for the n-th subsidy.
    const suggested =
      typeof action?.action_id === "string" &&
      action.action_id.startsWith(SUGGEST_ACTION_PREFIX) &&
      typeof action.value === "string"
        ? action.value.trim()
        : "";
    // The watch button says the command in words, so its confirmation is the typed one's.
    const watch = action?.action_id === WATCH_ACTION_ID ? WATCH_COMMAND : "";
    const text = watch || suggested || (detail ? `${detail.n}番目の詳細は？（ID: ${detail.id}）` : "");
    const channel = (body.channel as { id?: string } | undefined)?.id;
    const message = body.message as { ts?: string; thread_ts?: string } | undefined;
    const teamId =
      (body.team as { id?: string } | null | undefined)?.id ?? (body.user as { team_id?: string })?.team_id;
    const userId = (body.user as { id?: string } | undefined)?.id;
    const ts = message?.ts;
    if (!text || !channel || !ts || !teamId || !userId) return;
    const threadTs = message?.thread_ts ?? ts;
    const inbound: SlackInbound = {
      turn: {
        threadKey: slackThreadKey(teamId, channel, threadTs),
        platform: "slack",
        userId,
        text,
        receivedAt: new Date().toISOString(),
      },
      teamId,
      channel,
      ts,
      threadTs,
      reason: "action",
      isDm: channel.startsWith("D"),
    };
    const denied = accessDenied(originOf(inbound), config);
    if (denied) {
      logger.info(
        { denied, threadKey: inbound.turn.threadKey },
        "slack: ignored an action outside the allowlist",
      );
      return;
    }
    const actionTs = typeof action?.action_ts === "string" ? action.action_ts : String(Date.now());
    if (!(await claim(store, inbound, `slack:action:${channel}:${ts}:${userId}:${actionTs}`))) return;
    await deps.respond(inbound, signal);
  };
}
