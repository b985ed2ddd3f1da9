/**
 * The Slack adapter: Bolt wiring only. Bolt acks every event before our listener runs; the listener
 * starts the work in the background and returns, so no delivery ever waits for the agent.
 * HTTP mode mounts Bolt's ExpressReceiver at /slack/events (events and interactivity) on the shared app;
 * Socket Mode connects with the app token instead. Until start() has run auth.test, and again after stop(),
 * HTTP deliveries get 503: Slack then retries them (here once started, or on another instance), where a
 * 200 would have acked an event that nobody answers.
 */
import { App, ExpressReceiver, SocketModeReceiver } from "@slack/bolt";
import express, { type RequestHandler } from "express";
import type { Config } from "../../src/config.ts";
import { AppError, describeError } from "../../src/errors.ts";
import { type Logger, silentLogger } from "../../src/logger.ts";
import type { AgentLike, PlatformAdapter, ThreadStore } from "../../src/types.ts";
import { createAssistantStartedHandler } from "./assistant.ts";
import { toBoltLogger } from "./bolt-logger.ts";
import { createSlackDigestSender } from "./digest.ts";
import { createActionHandler, createEventHandler } from "./listeners.ts";
import type { SlackInbound } from "./parse.ts";
import { SUGGEST_ACTION_PREFIX, WATCH_ACTION_ID } from "./render.ts";
import { DETAIL_ACTION_PREFIX } from "./render-subsidy.ts";
import { apologise, createResponder } from "./responder.ts";
import { createSlackCalls, slackClientOptions } from "./web-api.ts";

/** The path Slack posts events and interactivity payloads to (HTTP mode). */
export const SLACK_EVENTS_PATH = "/slack/events";

/** Minimum spacing of status message edits (Slack's chat.update tier allows about one a second). */
const PROGRESS_INTERVAL_MS = 1000;

/** How long stop() lets answers in progress finish before aborting them (as the LINE adapter does). */
const STOP_GRACE_MS = 10_000;

const idleWaiters = new WeakMap<object, () => Promise<void>>();
const digestSenders = new WeakMap<object, ReturnType<typeof createSlackDigestSender>>();

/** Posts a watch digest into its Slack thread through the adapter's client (main.ts routes digests here). */
export function slackDigestSender(adapter: PlatformAdapter) {
  return digestSenders.get(adapter);
}

/** Resolves when the adapter has no answer in progress (tests, graceful shutdown). */
export function whenSlackIdle(adapter: PlatformAdapter): Promise<void> {
  return idleWaiters.get(adapter)?.() ?? Promise.resolve();
}

/** Builds the Slack adapter; start() checks the token (auth.test) and, in Socket Mode, connects. */
export function createSlackAdapter(
  config: NonNullable<Config["slack"]>,
  deps: { agent: AgentLike; store: ThreadStore; logger?: Logger; app?: import("express").Application },
): PlatformAdapter & { readonly receiver: unknown } {
  const logger = (deps.logger ?? silentLogger).child({ adapter: "slack" });
  const boltLogger = toBoltLogger(logger);
  const clientOptions = { ...slackClientOptions(config.apiUrl), logger: boltLogger };
  let receiver: ExpressReceiver | SocketModeReceiver;
  let ready = false;
  let stopped = false;
  if (config.socketMode) {
    if (!config.appToken) throw new AppError("SLACK_CONFIG", "SLACK_APP_TOKEN is required for Socket Mode");
    receiver = new SocketModeReceiver({
      appToken: config.appToken,
      logger: boltLogger,
      installerOptions: { clientOptions },
    });
  } else {
    if (!config.signingSecret) {
      throw new AppError("SLACK_CONFIG", "SLACK_SIGNING_SECRET is required when SLACK_APP_TOKEN is not set");
    }
    const expressApp = deps.app ?? express();
    // Registered before the receiver's route, so it runs first on the path.
    const unavailable: RequestHandler = (_req, res, next) => {
      if (ready && !stopped) return next();
      const state = stopped ? "stopping" : "starting";
      logger.info({ state }, "slack: delivery refused with 503; Slack will retry it");
      res.status(503).json({ error: state });
    };
    expressApp.post(SLACK_EVENTS_PATH, unavailable);
    receiver = new ExpressReceiver({
      signingSecret: config.signingSecret,
      endpoints: SLACK_EVENTS_PATH,
      app: expressApp,
      logger: boltLogger,
      processBeforeResponse: false,
    });
  }
  const app = new App({
    token: config.botToken,
    receiver,
    clientOptions,
    logger: boltLogger,
    // auth.test runs in start(), not in the constructor, so building the adapter needs no network.
    deferInitialization: true,
    convoStore: false,
    ignoreSelf: true,
  });

  const inflight = new Set<Promise<void>>();
  const controllers = new Set<AbortController>();
  const track = (work: (signal: AbortSignal) => Promise<void>) => {
    // Only a Socket Mode envelope can get here after stop(): HTTP deliveries get 503 (see above).
    if (stopped) return;
    const controller = new AbortController();
    controllers.add(controller);
    // setImmediate: requests already waiting on the socket are parsed and acked before this work starts.
    const task: Promise<void> = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => work(controller.signal))
      .catch((error) => logger.error({ err: error }, "slack: handler failed"))
      .finally(() => {
        inflight.delete(task);
        controllers.delete(controller);
      });
    inflight.add(task);
  };

  const calls = createSlackCalls(app.client, logger);
  const respond = createResponder({
    agent: deps.agent,
    calls,
    logger,
    progressIntervalMs: PROGRESS_INTERVAL_MS,
  });
  const listenerDeps = {
    config,
    store: deps.store,
    logger,
    respond,
    apologise: (inbound: SlackInbound, error: unknown) =>
      apologise(calls, logger.child({ threadKey: inbound.turn.threadKey }), inbound, error),
  };
  const onEvent = createEventHandler(listenerDeps);
  const onAction = createActionHandler(listenerDeps);
  const onAssistantStarted = createAssistantStartedHandler({ config, store: deps.store, calls, logger });

  const handleEvent = async ({ body, context }: { body: unknown; context: Record<string, unknown> }) => {
    const identity = {
      botUserId: context.botUserId as string | undefined,
      botId: context.botId as string | undefined,
    };
    track((signal) => onEvent(body, identity, context.retryNum as number | undefined, signal));
  };
  app.event("app_mention", handleEvent);
  app.event("message", handleEvent);
  app.event("assistant_thread_started", async ({ body }) => {
    track(() => onAssistantStarted(body));
  });
  app.action(
    new RegExp(`^(?:(?:${DETAIL_ACTION_PREFIX}|${SUGGEST_ACTION_PREFIX})\\d+|${WATCH_ACTION_ID})$`),
    async ({ ack, body }) => {
      await ack();
      track((signal) => onAction(body as unknown as Record<string, unknown>, signal));
    },
  );
  // The portal link buttons open a URL; Slack still reports the click, which needs only an ack.
  app.action(/^portal_/, async ({ ack }) => {
    await ack();
  });
  app.error(async (error) => {
    logger.warn({ err: error }, "slack: Bolt reported an error");
  });

  const adapter = {
    name: "slack",
    receiver: receiver as unknown,
    async start() {
      try {
        await app.init();
      } catch (error) {
        throw new AppError(
          "SLACK_AUTH",
          `Slack auth.test failed; check SLACK_BOT_TOKEN (and SLACK_API_URL): ${describeError(error)}`,
          { cause: error },
        );
      }
      if (config.socketMode) await app.start();
      ready = true;
      logger.info({ mode: config.socketMode ? "socket" : "http" }, "slack: adapter started");
    },
    async stop() {
      stopped = true;
      // Socket Mode: disconnect first, so no envelope is acked that this instance would then drop.
      if (config.socketMode) await app.stop().catch(() => undefined);
      // Answers in progress were claimed and will not be retried: let them finish (bounded), then abort.
      let timer: NodeJS.Timeout | undefined;
      const grace = new Promise((resolve) => {
        timer = setTimeout(resolve, STOP_GRACE_MS);
      });
      await Promise.race([Promise.allSettled([...inflight]), grace]);
      clearTimeout(timer);
      for (const controller of controllers) controller.abort();
      await Promise.allSettled([...inflight]);
    },
  };
  digestSenders.set(adapter, createSlackDigestSender(calls));
  idleWaiters.set(adapter, async () => {
    await new Promise((resolve) => setImmediate(resolve));
    while (inflight.size > 0) await Promise.allSettled([...inflight]);
  });
  return adapter;
}
