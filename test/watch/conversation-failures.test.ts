/**
 * The watch conversation when the search cannot run (the jGrants server answers with an error): a clear
 * Japanese reply and nothing saved. And 「通知をオン」 outside LINE says where it applies.
 */
import { afterAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.ts";
import { createThreadStore } from "../../src/store/index.ts";
import type { ToolHost } from "../../src/types.ts";
import { createWatchConversation } from "../../src/watch/conversation.ts";
import { createPushGate } from "../../src/watch/push-gate.ts";
import { createWatchStore } from "../../src/watch/watch-store.ts";
import { changingCatalog, ENERGY, NOW } from "./changing-catalog.ts";

const catalog = changingCatalog();
const store = await createThreadStore(loadConfig({ STORE_BACKEND: "memory" }).store);
afterAll(async () => {
  await catalog.host.close();
  await store.close();
});

/** The real server, whose ranked search now fails (e.g. its catalog is being rebuilt). */
const failing: ToolHost = {
  ...catalog.host,
  async callTool(call) {
    return { call, isError: true, error: "jGrants API unavailable", text: "", durationMs: 1 };
  },
};

const watches = createWatchStore(store.records);
const conversation = (tools: ToolHost) =>
  createWatchConversation({
    watches,
    history: store,
    tools,
    clock: () => NOW,
    maxPerThread: 5,
    push: createPushGate(store.records, 4),
  });

describe("the watch conversation when things fail", () => {
  it("says the watch could not be saved when the search fails, and saves nothing", async () => {
    await store.append("web:f1", {
      question: "省エネ設備の補助金",
      answer: "…",
      subsidies: [],
      conditions: ENERGY,
      at: NOW.toISOString(),
    });
    const said = await conversation(failing).handle("web:f1", { kind: "set" });
    expect(said).toContain("いまはウォッチを保存・確認できません");
    expect(await watches.list("web:f1")).toEqual([]);
    // With the search back, the same command saves it.
    expect(await conversation(catalog.host).handle("web:f1", { kind: "set" })).toContain(
      "ウォッチ1を保存しました",
    );
  });

  it("explains that push notifications are a LINE setting in other chats", async () => {
    const said = await conversation(catalog.host).handle("slack:T1:C1:1.0", { kind: "push", on: true });
    expect(said).toContain("LINEのトークで使えます");
  });
});
