/**
 * Fuzz: random and mutated bodies and headers on /chat, /slack/events and /line/webhook of one replica
 * (Slack and LINE enabled). A third of the Slack and LINE bodies carry a valid signature, so the parsers
 * behind the signature check are reached too. 0 responses of 500 or more, and the replica stays up.
 */
import { createHmac } from "node:crypto";
import { sign } from "../../test/adapters/line/helpers.ts";
import { envelope, mentionEvent, SIGNING_SECRET } from "../../test/adapters/slack/harness.ts";
import { textEvent, userSource } from "../../test/e2e/helpers/line.ts";
import { seeded } from "../../test/helpers/random.ts";
import { type Row, runPool } from "./load.ts";
import type { Replica } from "./processes.ts";

const PIECES = [
  '{"',
  '"}',
  "null",
  "[]",
  "{}",
  "\u0000",
  "\\u0000",
  "😀",
  "補助金",
  '":',
  ",",
  "1e999",
  "-0",
  "true",
  '"message"',
  '"threadId"',
  '"event"',
  '"events"',
  '"type"',
  "<script>",
  "%00",
  "\ud800",
  "'",
  "\n",
];
const HEADER_VALUES = [
  "",
  "x://[",
  "http://",
  "http://%",
  "[::1",
  "null",
  "v0=zz",
  "-1",
  "99999999999",
  "😀",
];

function mutate(text: string, random: () => number): string {
  let out = text;
  const edits = 1 + Math.floor(random() * 4);
  for (let e = 0; e < edits; e += 1) {
    const at = Math.floor(random() * (out.length + 1));
    const choice = random();
    if (choice < 0.3) out = out.slice(0, at) + out.slice(at + 1 + Math.floor(random() * 8));
    else if (choice < 0.7)
      out = out.slice(0, at) + PIECES[Math.floor(random() * PIECES.length)] + out.slice(at);
    else out = out.slice(0, at) + String.fromCharCode(Math.floor(random() * 0xffff)) + out.slice(at);
  }
  return random() < 0.05 ? out.repeat(1 + Math.floor(random() * 2000)).slice(0, 70_000) : out;
}

let serial = 0;
const VALID: Record<string, () => unknown> = {
  "/chat": () => {
    serial += 1;
    return { message: "東京都のIT導入補助金", threadId: `fuzz-${serial % 50}` };
  },
  "/slack/events": () => envelope(mentionEvent("創業の補助金")),
  "/line/webhook": () => ({ destination: "Ubot", events: [textEvent("省エネ", userSource("Ufuzz"))] }),
};

function request(path: string, random: () => number, lineSecret: string) {
  const base = JSON.stringify(VALID[path]!());
  const body = random() < 0.1 ? base : mutate(base, random);
  const headers: Record<string, string> = {
    "content-type":
      random() < 0.85
        ? "application/json"
        : ["text/plain", "", "application/x-www-form-urlencoded"][Math.floor(random() * 3)]!,
  };
  const signed = random() < 0.33;
  if (path === "/slack/events") {
    const ts = String(Math.floor(Date.now() / 1000));
    headers["x-slack-request-timestamp"] = signed
      ? ts
      : HEADER_VALUES[Math.floor(random() * HEADER_VALUES.length)]!;
    headers["x-slack-signature"] = signed
      ? `v0=${createHmac("sha256", SIGNING_SECRET).update(`v0:${ts}:${body}`).digest("hex")}`
      : HEADER_VALUES[Math.floor(random() * HEADER_VALUES.length)]!;
    if (random() < 0.3)
      headers["x-slack-retry-num"] = HEADER_VALUES[Math.floor(random() * HEADER_VALUES.length)]!;
  } else if (path === "/line/webhook") {
    headers["x-line-signature"] = signed
      ? sign(body, lineSecret)
      : HEADER_VALUES[Math.floor(random() * HEADER_VALUES.length)]!;
  } else if (random() < 0.3) {
    headers.origin = HEADER_VALUES[Math.floor(random() * HEADER_VALUES.length)]!;
  }
  // Header values must be ByteStrings for fetch: drop characters it cannot send.
  for (const k of Object.keys(headers)) headers[k] = headers[k]!.replace(/[^\x20-\x7e]/g, "");
  return { body, headers };
}

export async function fuzzPhase(replica: Replica, count: number, lineSecret: string): Promise<Row> {
  const random = seeded(10_000);
  const paths = Object.keys(VALID);
  const byStatus = new Map<number, number>();
  await runPool(count, 20, async (i) => {
    const path = paths[i % paths.length]!;
    const { body, headers } = request(path, random, lineSecret);
    const status = await fetch(`${replica.url}${path}`, { method: "POST", headers, body }).then(
      async (res) => {
        await res.arrayBuffer();
        return res.status;
      },
      () => 0,
    );
    byStatus.set(status, (byStatus.get(status) ?? 0) + 1);
  });
  const alive = replica.child.exitCode === null && replica.child.signalCode === null;
  const health = alive ? (await fetch(`${replica.url}/healthz`)).status : 0;
  const bad = [...byStatus].filter(([s]) => s >= 500 || s === 0).reduce((sum, [, n]) => sum + n, 0);
  const summary = [...byStatus]
    .sort(([a], [b]) => a - b)
    .map(([s, n]) => `${s}×${n}`)
    .join(" ");
  return {
    phase: "fuzz",
    check: `${count} mutated requests on /chat, /slack/events, /line/webhook`,
    figure: `${summary}; process ${alive ? "up" : "DOWN"}, /healthz ${health}`,
    target: "0 × 5xx, 0 crashes",
    ok: bad === 0 && alive && health === 200,
  };
}
