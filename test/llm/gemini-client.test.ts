/** The Gemini client wrapper through the real SDK against the fake Gemini server (and a closed port). */
import { createServer } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.ts";
import { createGeminiClient, type GeminiRequest, promptBytesOf } from "../../src/llm/gemini-client.ts";
import { degradedReason, GeminiError } from "../../src/llm/gemini-errors.ts";
import { type FakeGemini, type FakeGeminiScript, startFakeGemini } from "../fakes/fake-gemini.ts";
import { geminiConfig } from "../planner/gemini-fixtures.ts";

let fake: FakeGemini | undefined;
const sleeps: number[] = [];

afterEach(async () => {
  await fake?.close();
  fake = undefined;
  sleeps.length = 0;
});

const request: GeminiRequest = {
  systemInstruction: "You are a test.",
  contents: [{ role: "user", parts: [{ text: "こんにちは" }] }],
};

async function clientWith(script: FakeGeminiScript, overrides: Parameters<typeof geminiConfig>[1] = {}) {
  fake = await startFakeGemini(script);
  return createGeminiClient({
    config: geminiConfig(fake.url, overrides),
    retry: { baseDelayMs: 100, maxDelayMs: 250, sleep: async (ms) => void sleeps.push(ms) },
  });
}

async function failure(promise: Promise<unknown>): Promise<GeminiError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(GeminiError);
  return error as GeminiError;
}

describe("gemini client", () => {
  it("sends the model, key, system instruction and declarations, and counts prompt bytes", async () => {
    const client = await clientWith([{ text: "やあ" }]);
    const withTools: GeminiRequest = {
      ...request,
      functionDeclarations: [{ name: "t__x", description: "x", parametersJsonSchema: { type: "object" } }],
    };
    const result = await client.generate(withTools);
    expect(result).toMatchObject({ text: "やあ", functionCalls: [], finishReason: "STOP", attempts: 1 });
    expect(result.promptBytes).toBe(promptBytesOf(withTools));
    // The counter is the JSON body that went over the wire.
    expect(result.promptBytes).toBe(fake?.requests[0]?.bytes);
    const sent = fake?.requests[0];
    expect(sent?.model).toBe("gemini-2.5-flash");
    expect(sent?.headers["x-goog-api-key"]).toBe("test-key-not-secret");
    expect(sent?.text).toBe("You are a test.\nこんにちは");
    expect(sent?.functionNames).toEqual(["t__x"]);
  });

  it("returns function calls and keeps the model's parts verbatim", async () => {
    const client = await clientWith([
      {
        functionCalls: [
          { name: "a", args: { q: 1 }, thoughtSignature: "c2ln" },
          { name: "b", args: {} },
        ],
      },
    ]);
    const result = await client.generate(request);
    expect(result.functionCalls).toEqual([
      { name: "a", args: { q: 1 } },
      { name: "b", args: {} },
    ]);
    expect(result.content?.parts?.[0]).toEqual({
      functionCall: { name: "a", args: { q: 1 } },
      thoughtSignature: "c2ln",
    });
  });

  it("retries 429 and 5xx with bounded exponential backoff", async () => {
    const client = await clientWith([{ error: 429 }, { error: 503 }, { error: 500 }, { text: "ok" }], {
      maxRetries: 3,
    });
    const result = await client.generate(request);
    expect(result.text).toBe("ok");
    expect(result.attempts).toBe(4);
    expect(result.promptBytes).toBe(promptBytesOf(request) * 4);
    expect(sleeps).toEqual([100, 200, 250]);
  });

  it("gives up after maxRetries with the last error's code", async () => {
    const client = await clientWith(() => ({ error: 429 }), { maxRetries: 1 });
    const error = await failure(client.generate(request));
    expect(error.code).toBe("GEMINI_RATE_LIMITED");
    expect(error.status).toBe(429);
    expect(error.attempts).toBe(2);
    expect(degradedReason(error)).toBe("gemini: rate limited (429)");
  });

  it("does not retry a 4xx other than 429", async () => {
    const client = await clientWith(() => ({ error: 403 }));
    const error = await failure(client.generate(request));
    expect(error.code).toBe("GEMINI_HTTP_ERROR");
    expect(fake?.requests).toHaveLength(1);
  });

  it("times out a slow answer without retrying it", async () => {
    const client = await clientWith(() => ({ delayMs: 5000, text: "late" }), { timeoutMs: 300 });
    const error = await failure(client.generate(request));
    expect(error.code).toBe("GEMINI_TIMEOUT");
    expect(error.attempts).toBe(1);
    expect(sleeps).toEqual([]);
  });

  it("reports malformed JSON as a bad response", async () => {
    const client = await clientWith([{ malformedJson: true }]);
    const error = await failure(client.generate(request));
    expect(error.code).toBe("GEMINI_BAD_RESPONSE");
    expect(error.retryable).toBe(false);
  });

  it("streams text deltas in order", async () => {
    const client = await clientWith([{ text: ["一", "二", "三"] }]);
    const deltas: string[] = [];
    const result = await client.generateStream(request, { onDelta: (d) => deltas.push(d) });
    expect(deltas).toEqual(["一", "二", "三"]);
    expect(result.text).toBe("一二三");
    expect(fake?.requests[0]?.stream).toBe(true);
  });

  it("reports an aborted call as aborted, not retried", async () => {
    const client = await clientWith(() => ({ delayMs: 3000, text: "late" }));
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const error = await failure(client.generate(request, { signal: controller.signal }));
    expect(error.code).toBe("GEMINI_ABORTED");
    expect(sleeps).toEqual([]);
  });

  it("retries an unreachable server as a network error", async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, "127.0.0.1", () => {
        const address = probe.address();
        probe.close(() => resolve(typeof address === "object" && address ? address.port : 0));
      });
    });
    const client = createGeminiClient({
      config: geminiConfig(`http://127.0.0.1:${port}`, { maxRetries: 1 }),
      retry: { sleep: async (ms) => void sleeps.push(ms) },
    });
    const error = await failure(client.generate(request));
    expect(error.code).toBe("GEMINI_NETWORK");
    expect(error.attempts).toBe(2);
    expect(error.message).not.toContain("test-key-not-secret");
  });

  it("counts the exact body bytes of a streamed request with a temperature", async () => {
    const client = await clientWith([{ text: ["あ", "い"] }]);
    const result = await client.generateStream({ ...request, temperature: 0.3 });
    expect(result.promptBytes).toBe(fake?.requests[0]?.bytes);
  });

  it("honours a 429's retryDelay when it ends before the deadline", async () => {
    const client = await clientWith([{ error: 429, retryDelay: "1.5s" }, { text: "ok" }]);
    const result = await client.generate(request, { deadline: Date.now() + 25_000 });
    expect(result.text).toBe("ok");
    expect(sleeps).toEqual([1500]);
  });

  it("gives up at once when the retryDelay would outlast the turn's budget", async () => {
    const client = await clientWith([{ error: 429, retryDelay: "37s" }, { text: "too late" }]);
    const started = Date.now();
    const error = await failure(client.generate(request, { deadline: Date.now() + 25_000 }));
    expect(error.code).toBe("GEMINI_RATE_LIMITED");
    expect(error.retryDelayMs).toBe(37_000);
    expect(fake?.requests).toHaveLength(1);
    expect(sleeps).toEqual([]);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it("ends an attempt at the turn's deadline even when the per-call deadline is later", async () => {
    const client = await clientWith(() => ({ delayMs: 30_000, text: "late" }), { timeoutMs: 10_000 });
    const started = Date.now();
    const error = await failure(client.generate(request, { deadline: Date.now() + 400 }));
    expect(error.code).toBe("GEMINI_TIMEOUT");
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it("sends nothing once the turn's budget is spent", async () => {
    const client = await clientWith([{ text: "unused" }]);
    const error = await failure(client.generate(request, { deadline: Date.now() - 1 }));
    expect(error.code).toBe("GEMINI_BUDGET_SPENT");
    expect(error.attempts).toBe(0);
    expect(fake?.requests).toHaveLength(0);
  });

  it("defaults to a 12 s per-call deadline and a 25 s turn budget", () => {
    const gemini = loadConfig({ GOOGLE_API_KEY: "k" }).gemini;
    expect(gemini).toMatchObject({ timeoutMs: 12_000, turnBudgetMs: 25_000 });
  });

  it.each([
    ["a SAFETY finish", { finishReason: "SAFETY" }, "reply blocked (SAFETY)"],
    ["a RECITATION finish", { finishReason: "RECITATION" }, "reply blocked (RECITATION)"],
    ["an OTHER finish", { finishReason: "OTHER" }, "reply blocked (OTHER)"],
    ["a blocked prompt", { raw: { promptFeedback: { blockReason: "SAFETY" } } }, "prompt blocked (SAFETY)"],
    ["no candidates", { raw: { candidates: [] } }, "no candidates"],
    ["no parts", { raw: { candidates: [{ content: { role: "model", parts: [] } }] } }, "empty reply"],
  ] as const)("says why %s carries nothing usable", async (_label, reply, withheld) => {
    const client = await clientWith([reply]);
    const result = await client.generate(request);
    expect(result.withheld).toBe(withheld);
    expect(result.functionCalls).toEqual([]);
  });

  it("reads a usable reply as not withheld", async () => {
    const client = await clientWith([{ text: "DONE" }]);
    expect((await client.generate(request)).withheld).toBeUndefined();
  });
});
