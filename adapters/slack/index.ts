/**
 * The Slack adapter: Bolt wiring only. Bolt acks every event before our listener runs; the listener
 * starts the work in the background and returns, so no delivery ever waits for the agent.
 * HTTP mode mounts Bolt's ExpressReceiver at /slack/events (events and interactivity) on the shared app;
 * Socket Mode connects with the app token instead.
 */
import { App, ExpressReceiver, SocketModeReceiver } from "@slack/bolt";
import type { Config } from "../../src/config.ts";
import { AppError, describeError } from "../../src/errors.ts";
import { type Logger, silentLogger } from "../../src/logger.ts";
import type { AgentLike, PlatformAdapter, ThreadStore } from "../../src/types.ts";
import { toBoltLogger } from "./bolt-logger.ts";
import { createActionHandler, createEventHandler } from "./listeners.ts";
import type { SlackInbound } from "./parse.ts";
import { DETAIL_ACTION_PREFIX } from "./render-subsidy.ts";
import { apologise, createResponder } from "./responder.ts";
import { createSlackCalls, slackClientOptions } from "./web-api.ts";

/** The path Slack posts events and interactivity payloads to (HTTP mode). */
export const SLACK_EVENTS_PATH = "/slack/events";

/** Minimum spacing of status message edits (Slack's chat.update tier allows about one a second). */
const PROGRESS_INTERVAL_MS = 1000;

const idleWaiters = new WeakMap<object, () => Promise<void>>();

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
    receiver = new ExpressReceiver({
      signingSecret: config.signingSecret,
      endpoints: SLACK_EVENTS_PATH,
      app: deps.app,
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
  let stopped = false;
  const track = (work: (signal: AbortSignal) => Promise<void>) => {
    // The HTTP route stays mounted on the shared app after stop(); late deliveries are acked but not answered.
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

  const handleEvent = async ({ body, context }: { body: unknown; context: Record<string, unknown> }) => {
    const identity = {
      botUserId: context.botUserId as string | undefined,
      botId: context.botId as string | undefined,
    };
    track((signal) => onEvent(body, identity, context.retryNum as number | undefined, signal));
  };
  app.event("app_mention", handleEvent);
  app.event("message", handleEvent);
  app.action(new RegExp(`^${DETAIL_ACTION_PREFIX}\\d+$`), async ({ ack, body }) => {
    await ack();
    track((signal) => onAction(body as unknown as Record<string, unknown>, signal));
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
      logger.info({ mode: config.socketMode ? "socket" : "http" }, "slack: adapter started");
    },
    async stop() {
      stopped = true;
      for (const controller of controllers) controller.abort();
      await Promise.allSettled([...inflight]);
      if (config.socketMode) await app.stop().catch(() => undefined);
    },
  };
  idleWaiters.set(adapter, async () => {
    await new Promise((resolve) => setImmediate(resolve));
    while (inflight.size > 0) await Promise.allSettled([...inflight]);
  });
  return adapter;
}
