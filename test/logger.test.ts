import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { createLogger } from "../src/logger.ts";

function capture() {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk, _enc, cb) {
      lines.push(String(chunk));
      cb();
    },
  });
  return { logger: createLogger({ level: "info", destination }), lines };
}

describe("logger", () => {
  it("redacts tokens, keys and signatures by path", () => {
    const { logger, lines } = capture();
    logger.info(
      {
        token: "xoxb-123",
        headers: {
          authorization: "Bearer abc",
          "x-slack-signature": "v0=deadbeef",
          "x-line-signature": "sig",
        },
        config: { gemini: { apiKey: "AIzaSyA-secret" } },
        channelAccessToken: "line-token",
      },
      "request",
    );
    const out = lines.join("");
    for (const secret of ["xoxb-123", "Bearer abc", "deadbeef", "AIzaSyA-secret", "line-token", '"sig"']) {
      expect(out).not.toContain(secret);
    }
    expect(out).toContain("[redacted]");
  });

  it("masks secret-looking text inside messages and errors", () => {
    const { logger, lines } = capture();
    logger.warn("called with xoxb-999-abc and ?key=AIzaSyB0123456789012345678901");
    logger.error({ err: new Error("auth failed for Bearer tok.en") }, "boom");
    const out = lines.join("");
    expect(out).not.toContain("xoxb-999-abc");
    expect(out).not.toContain("AIzaSyB0123456789012345678901");
    expect(out).not.toContain("tok.en");
    expect(out).toContain("auth failed");
  });

  it("masks secrets at any depth and whatever the key's case, and reduces thrown non-errors to text", () => {
    const { logger, lines } = capture();
    logger.warn(
      {
        stderr: "child said token xoxb-1-child-secret",
        request: {
          headers: { Authorization: "Bearer up.per", "X-Api-Key": "k-123" },
          url: "https://x/?api_key=S3CRET",
        },
        err: { config: { headers: { Authorization: "Bearer nested" } } },
      },
      "failed",
    );
    logger.error({ err: new TypeError("boom") }, "typed");
    const out = lines.join("");
    for (const secret of ["xoxb-1-child-secret", "up.per", "k-123", "S3CRET", "Bearer nested"]) {
      expect(out).not.toContain(secret);
    }
    expect(out).toContain('"type":"TypeError"');
  });
});
