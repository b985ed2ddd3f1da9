/** The fake Gemini server's own contract, as the benchmark and agent tests rely on it. */
import { afterEach, describe, expect, it } from "vitest";
import { createGeminiClient } from "../../src/llm/gemini-client.ts";
import { type FakeGemini, startFakeGemini } from "../fakes/fake-gemini.ts";
import { geminiConfig } from "../planner/gemini-fixtures.ts";

let fake: FakeGemini | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const request = { contents: [{ role: "user", parts: [{ text: "質問" }] }] };

describe("fake gemini", () => {
  it("applies the injected latency to every request (a shorter client timeout fires)", async () => {
    fake = await startFakeGemini([{ text: "late" }], { latencyMs: 2000 });
    const client = createGeminiClient({ config: geminiConfig(fake.url, { timeoutMs: 300, maxRetries: 0 }) });
    await expect(client.generate(request)).rejects.toMatchObject({ code: "GEMINI_TIMEOUT" });
  });

  it("answers 500 once the scripted queue runs out, so a test notices", async () => {
    fake = await startFakeGemini([{ text: "一度だけ" }]);
    const client = createGeminiClient({ config: geminiConfig(fake.url, { maxRetries: 0 }) });
    await expect(client.generate(request)).resolves.toMatchObject({ text: "一度だけ" });
    const error = await client.generate(request).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "GEMINI_SERVER_ERROR", status: 500 });
    expect(String((error as Error).message)).toContain("script exhausted");
  });

  it("records each request with its model, stream flag, body and text", async () => {
    fake = await startFakeGemini((recorded) => ({ text: `#${recorded.index} ${recorded.model}` }));
    const client = createGeminiClient({ config: geminiConfig(fake.url, { model: "gemini-test" }) });
    const result = await client.generateStream({ ...request, systemInstruction: "sys" });
    expect(result.text).toBe("#0 gemini-test");
    expect(fake.requests[0]).toMatchObject({
      index: 0,
      model: "gemini-test",
      stream: true,
      text: "sys\n質問",
    });
    expect(fake.requests[0]?.bytes).toBeGreaterThan(0);
  });

  it("answers unknown routes with 404", async () => {
    fake = await startFakeGemini([]);
    const response = await fetch(`${fake.url}/v1beta/models`, { method: "GET" });
    expect(response.status).toBe(404);
    await response.body?.cancel();
  });
});
