/** The Messaging API client: a call to a LINE API that never answers fails in bounded time, as a network failure. */
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLineApi, LineApiError } from "../../../adapters/line/client.ts";

const held: IncomingMessage[] = [];
const silent = createServer((req) => {
  held.push(req); // never answers
});
let url = "";

beforeAll(async () => {
  await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
});
afterAll(async () => {
  silent.closeAllConnections();
  await new Promise((resolve) => silent.close(resolve));
});

describe("LINE API client", () => {
  it("gives up on a call that hangs and reports a retryable network failure", async () => {
    const api = createLineApi({ channelAccessToken: "t", baseURL: url, timeoutMs: 200 });
    const error = await api.push("U1", [{ type: "text", text: "こんにちは" }], "retry-key-1").catch((e) => e);
    expect(error).toBeInstanceOf(LineApiError);
    expect(error.failure).toBe("network");
    expect(error.retryable).toBe(true);
    expect(held.length).toBe(1);
  });
});
