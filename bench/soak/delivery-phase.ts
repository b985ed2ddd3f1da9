/**
 * Exactly-once delivery across two replicas on one real redis-server: signed Slack deliveries including
 * retries (x-slack-retry-num 1–3) and LINE webhooks including redeliveries, each sent to a random replica.
 * Every event must be answered once: 0 duplicates, 0 lost. Slack and LINE are the test fakes on loopback.
 */
import { STARTING_TEXT } from "../../src/agent/progress-text.ts";
import { envelope, mentionEvent } from "../../test/adapters/slack/harness.ts";
import { postLine, textEvent, userSource } from "../../test/e2e/helpers/line.ts";
import { deliverSlack } from "../../test/e2e/helpers/slack.ts";
import type { FakeLineApi } from "../../test/fakes/fake-line-api.ts";
import type { FakeSlackApi } from "../../test/fakes/fake-slack-api.ts";
import { seeded } from "../../test/helpers/random.ts";
import { type Row, runPool, SOAK_QUESTIONS } from "./load.ts";
import type { Replica } from "./processes.ts";

/** `total` deliveries of `unique` events: each once, the rest as retries (1–3 per event), shuffled. */
export function deliveryPlan(unique: number, total: number, random: () => number) {
  const plan = Array.from({ length: unique }, (_, event) => ({ event, retry: 0 }));
  const retries = new Array<number>(unique).fill(0);
  for (let extra = 0; extra < total - unique; extra += 1) {
    let event = Math.floor(random() * unique);
    while (retries[event]! >= 3) event = (event + 1) % unique;
    retries[event]! += 1;
    plan.push({ event, retry: retries[event]! });
  }
  for (let i = plan.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [plan[i], plan[j]] = [plan[j]!, plan[i]!];
  }
  return plan;
}

async function until(check: () => boolean, timeoutMs: number): Promise<boolean> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return check();
}

function verdict(phase: string, total: number, unique: number, counts: number[], rejected: number): Row {
  const lost = counts.filter((n) => n === 0).length;
  const duplicates = counts.reduce((sum, n) => sum + Math.max(0, n - 1), 0);
  return {
    phase,
    check: `${total} deliveries of ${unique} events over 2 replicas`,
    figure: `${duplicates} duplicate answers, ${lost} lost, ${rejected} non-200 acks`,
    target: "0 / 0 / 0",
    ok: duplicates === 0 && lost === 0 && rejected === 0,
  };
}

export async function slackPhase(replicas: Replica[], slack: FakeSlackApi, total: number): Promise<Row> {
  const unique = Math.ceil(total / 2.5);
  const random = seeded(20_000);
  const events = Array.from({ length: unique }, (_, i) => {
    const event = mentionEvent(SOAK_QUESTIONS[i % 5]!, { channel: `CSOAK${i % 10}` });
    return { body: envelope(event, `EvSoak${i}`), ts: event.ts, channel: event.channel };
  });
  const plan = deliveryPlan(unique, total, random);
  const statuses = await runPool(plan.length, 20, async (i) => {
    const { event, retry } = plan[i]!;
    const replica = replicas[Math.floor(random() * replicas.length)]!;
    return deliverSlack(replica.url, events[event]!.body, retry > 0 ? { retryNum: retry } : {});
  });
  // An answer is the reply's first message; the status line before it is best-effort (it may fail under load).
  const posts = (e: (typeof events)[number]) =>
    slack.calls.filter(
      (c) =>
        c.method === "chat.postMessage" &&
        c.outcome === "ok" &&
        c.params.thread_ts === e.ts &&
        c.params.channel === e.channel &&
        c.params.text !== STARTING_TEXT,
    );
  const answers = (e: (typeof events)[number]) => {
    const lead = posts(e)[0]?.params.text;
    return lead === undefined ? 0 : posts(e).filter((c) => c.params.text === lead).length;
  };
  await until(() => events.every((e) => answers(e) > 0), 180_000);
  await new Promise((resolve) => setTimeout(resolve, 1_000)); // late duplicates would show by now
  const counts = events.map(answers);
  return verdict("slack", total, unique, counts, statuses.filter((s) => s !== 200).length);
}

export async function linePhase(replicas: Replica[], line: FakeLineApi, total: number): Promise<Row> {
  const unique = Math.ceil(total / 2.5);
  const random = seeded(30_000);
  const users = Array.from({ length: unique }, (_, i) => `Usoak${String(i).padStart(27, "0")}`);
  const events = users.map((user, i) => textEvent(SOAK_QUESTIONS[i % 5]!, userSource(user)));
  const plan = deliveryPlan(unique, total, random);
  const statuses = await runPool(plan.length, 20, async (i) => {
    const { event, retry } = plan[i]!;
    const replica = replicas[Math.floor(random() * replicas.length)]!;
    const body = retry > 0 ? { ...events[event]!, deliveryContext: { isRedelivery: true } } : events[event]!;
    return postLine(replica.url, [body]);
  });
  const answers = (i: number) =>
    line.calls.filter(
      (c) =>
        c.status < 300 &&
        ((c.kind === "reply" && c.body.replyToken === events[i]!.replyToken) ||
          (c.kind === "push" && c.body.to === users[i])),
    ).length;
  await until(() => users.every((_, i) => answers(i) > 0), 180_000);
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  return verdict(
    "line",
    total,
    unique,
    users.map((_, i) => answers(i)),
    statuses.filter((s) => s !== 200).length,
  );
}
