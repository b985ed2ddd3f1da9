import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createThreadStore, type KeyvThreadStore } from "../../src/store/index.ts";
import { type RedisServer, redisServerAvailable, startRedisServer } from "../helpers/redis-server.ts";

interface Reply {
  id?: string;
  kind: string;
  seen?: number;
  by?: string;
  questions?: string[];
  message?: string;
}

interface Pending {
  done: (reply: Reply) => void;
  queued: () => void;
  started: () => void;
}

/** One bot child process; `send` resolves `done` with its final reply, `queued`/`started` along the way. */
class Bot {
  readonly child: ChildProcessWithoutNullStreams;
  readonly ready: Promise<void>;
  private readonly waiting = new Map<string, Pending>();
  private next = 0;

  constructor(
    url: string,
    readonly name: string,
    lockTimings: number[] = [],
  ) {
    const args = ["--import", "tsx", "test/store/fixtures/bot.ts", url, name, ...lockTimings.map(String)];
    this.child = spawn(process.execPath, args);
    let markReady: () => void = () => {};
    this.ready = new Promise((resolve) => {
      markReady = resolve;
    });
    createInterface({ input: this.child.stdout }).on("line", (line) => {
      const reply = JSON.parse(line) as Reply;
      if (reply.kind === "ready") return markReady();
      const entry = reply.id ? this.waiting.get(reply.id) : undefined;
      if (!entry) return;
      if (reply.kind === "queued") return entry.queued();
      if (reply.kind === "started") return entry.started();
      this.waiting.delete(reply.id!);
      entry.done(reply);
    });
  }

  send(command: Record<string, unknown>): {
    done: Promise<Reply>;
    queued: Promise<void>;
    started: Promise<void>;
  } {
    this.next += 1;
    const id = `${this.name}-${this.next}`;
    const pending: Partial<Pending> = {};
    const done = new Promise<Reply>((resolve) => {
      pending.done = resolve;
    });
    const queued = new Promise<void>((resolve) => {
      pending.queued = resolve;
    });
    const started = new Promise<void>((resolve) => {
      pending.started = resolve;
    });
    this.waiting.set(id, pending as Pending);
    this.child.stdin.write(`${JSON.stringify({ ...command, id })}\n`);
    return { done, queued, started };
  }

  stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return Promise.resolve();
    return new Promise((resolve) => {
      this.child.once("exit", () => resolve());
      this.child.stdin.end();
      setTimeout(() => this.child.kill("SIGKILL"), 5_000).unref();
    });
  }
}

const available = redisServerAvailable();

describe.runIf(available)("two bot processes on one Redis", () => {
  let server: RedisServer;
  let bots: [Bot, Bot];
  let reader: KeyvThreadStore;

  beforeAll(async () => {
    server = await startRedisServer();
    bots = [new Bot(server.url, "A"), new Bot(server.url, "B")];
    await Promise.all(bots.map((bot) => bot.ready));
    reader = await createThreadStore({
      backend: "redis",
      sqlitePath: "unused",
      redisUrl: server.url,
      maxTurns: 1_000,
      maxBytes: 10_000_000,
      ttlMs: 3_600_000,
      dedupTtlMs: 3_600_000,
      lockWaitMs: 30_000,
    });
  });

  afterAll(async () => {
    await reader?.close();
    await Promise.all((bots ?? []).map((bot) => bot.stop()));
    await server?.stop();
  });

  it("runs exactly 200 turns for 200 events delivered to both processes, some twice", async () => {
    const deliveries: Array<{ bot: Bot; eventId: string; threadKey: string; text: string }> = [];
    for (let i = 0; i < 200; i += 1) {
      const event = { eventId: `Ev${i}`, threadKey: `slack:T1:C${i % 20}:1700.0001`, text: `質問 ${i}` };
      deliveries.push({ bot: bots[0], ...event }, { bot: bots[1], ...event });
      if (i % 10 === 0) deliveries.push({ bot: bots[i % 20 === 0 ? 0 : 1], ...event });
    }
    // A fixed pseudo-random interleaving (Fisher-Yates with the MINSTD generator), so retries land between other events.
    let seed = 42;
    for (let i = deliveries.length - 1; i > 0; i -= 1) {
      seed = (seed * 48_271) % 2_147_483_647;
      const j = seed % (i + 1);
      [deliveries[i], deliveries[j]] = [deliveries[j]!, deliveries[i]!];
    }
    const replies = await Promise.all(
      deliveries.map(
        ({ bot, eventId, threadKey, text }) => bot.send({ op: "event", eventId, threadKey, text }).done,
      ),
    );
    expect(replies.filter((reply) => reply.kind === "error")).toEqual([]);
    expect(replies.filter((reply) => reply.kind === "done")).toHaveLength(200);
    expect(replies.filter((reply) => reply.kind === "dup")).toHaveLength(deliveries.length - 200);
    let total = 0;
    for (let c = 0; c < 20; c += 1) {
      const turns = await reader.load(`slack:T1:C${c}:1700.0001`);
      total += turns.length;
      // Each turn saw every earlier one: no two turns of a thread overlapped.
      expect(turns.map((turn) => turn.answer.split(" by ")[0])).toEqual(turns.map((_, k) => `seen ${k}`));
      expect(new Set(turns.map((turn) => turn.messageIds?.[0])).size).toBe(10);
    }
    expect(total).toBe(200);
  });

  it("gives follow-ups sent alternately to the two processes the whole history", async () => {
    const threadKey = "line:Ufollow";
    for (let i = 0; i < 6; i += 1) {
      const reply = await bots[i % 2]!.send({ op: "event", eventId: `EvF${i}`, threadKey, text: `続き ${i}` })
        .done;
      expect(reply).toMatchObject({ kind: "done", seen: i, by: i % 2 === 0 ? "A" : "B" });
    }
    const loaded = await bots[1].send({ op: "load", threadKey }).done;
    expect(loaded.questions).toEqual([0, 1, 2, 3, 4, 5].map((i) => `続き ${i}`));
  });

  it("answers 5 messages sent at once to one thread in order, across both processes", async () => {
    const threadKey = "slack:T1:Cburst:1700.0002";
    const sent: Array<Promise<Reply>> = [];
    for (let i = 1; i <= 5; i += 1) {
      const { done, queued } = bots[i % 2]!.send({
        op: "event",
        eventId: `EvB${i}`,
        threadKey,
        text: `一斉 ${i}`,
        workMs: 60,
      });
      sent.push(done);
      await queued;
    }
    const replies = await Promise.all(sent);
    expect(replies.map((reply) => reply.seen)).toEqual([0, 1, 2, 3, 4]);
    expect((await reader.load(threadKey)).map((turn) => turn.question)).toEqual(
      [1, 2, 3, 4, 5].map((i) => `一斉 ${i}`),
    );
  });
});

describe.runIf(available)("a bot process that dies during a turn", () => {
  let server: RedisServer;
  const bots: Bot[] = [];

  beforeAll(async () => {
    server = await startRedisServer();
    // Short lock timings: a dead holder frees the thread after 800 ms, a dead waiter leaves after 400 ms.
    bots.push(new Bot(server.url, "A", [800, 400]), new Bot(server.url, "B", [800, 400]));
    await Promise.all(bots.map((bot) => bot.ready));
  });

  afterAll(async () => {
    await Promise.all(bots.map((bot) => bot.stop()));
    await server?.stop();
  });

  it("does not block the thread forever: the dead holder's lock and the dead waiter's place expire", async () => {
    const [a, b] = bots as [Bot, Bot];
    const threadKey = "slack:T1:Ccrash:1700.0003";
    // A holds the thread's lock and dies; B queues behind it.
    const held = a.send({ op: "event", eventId: "EvC1", threadKey, text: "落ちる", workMs: 60_000 });
    await held.started;
    const first = b.send({ op: "event", eventId: "EvC2", threadKey, text: "次 1", workMs: 300 });
    await first.queued;
    a.child.kill("SIGKILL");
    expect(await first.done).toMatchObject({ kind: "done", seen: 0, by: "B" });
    // A second crash, this time of a waiter: C queues behind B's turn and dies; B's next turn must still run.
    const c = new Bot(server.url, "C", [800, 400]);
    bots.push(c);
    await c.ready;
    const long = b.send({ op: "event", eventId: "EvC3", threadKey, text: "次 2", workMs: 300 });
    await long.started;
    const dying = c.send({ op: "event", eventId: "EvC4", threadKey, text: "落ちる 2" });
    await dying.queued;
    c.child.kill("SIGKILL");
    const after = b.send({ op: "event", eventId: "EvC5", threadKey, text: "次 3" });
    expect(await long.done).toMatchObject({ kind: "done", seen: 1 });
    expect(await after.done).toMatchObject({ kind: "done", seen: 2 });
    const loaded = await b.send({ op: "load", threadKey }).done;
    expect(loaded.questions).toEqual(["次 1", "次 2", "次 3"]);
  });
});
