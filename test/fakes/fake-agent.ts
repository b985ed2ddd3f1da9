/** A scripted AgentLike for adapter tests: emits the given progress events, then returns a reply. */
import type { AgentLike, HandleOptions, ProgressEvent, Reply, Turn } from "../../src/types.ts";
import { sampleReply } from "./sample-subsidies.ts";

export interface FakeAgentOptions {
  /** Builds the reply for a turn (default: 3 sample subsidies). Throw to simulate an agent failure. */
  reply?: (turn: Turn, calls: Turn[]) => Reply | Promise<Reply>;
  progress?: ProgressEvent[];
  /** Delay between progress events and before the reply, in ms. */
  stepMs?: number;
}

export interface FakeAgent extends AgentLike {
  /** Every turn handled, in order. */
  turns: Turn[];
}

export function createFakeAgent(options: FakeAgentOptions = {}): FakeAgent {
  const turns: Turn[] = [];
  const progress = options.progress ?? [
    { type: "searching", keywords: ["IT導入", "DX"], filters: { area: "東京都" } },
    { type: "found", count: 12, shown: 5 },
    { type: "fetching-details", count: 5 },
    { type: "composing" },
    { type: "done" },
  ];
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  return {
    turns,
    async handle(turn: Turn, handleOptions: HandleOptions = {}): Promise<Reply> {
      turns.push(turn);
      for (const event of progress) {
        if (options.stepMs) await sleep(options.stepMs);
        handleOptions.onProgress?.(event);
      }
      if (options.stepMs) await sleep(options.stepMs);
      const reply = options.reply ? await options.reply(turn, turns) : sampleReply(3);
      return { ...reply, threadKey: turn.threadKey };
    },
  };
}
