/**
 * `npm run ask` as a real process (`node --import tsx adapters/cli/ask.ts`), keyless with the bundled
 * snapshot and a SQLite file: progress on stderr and the answer on stdout, --json, --thread across runs,
 * --help, and an unknown option.
 */

import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { Json } from "../helpers/json.ts";
import { childEnv, REPO_ROOT, spawnTsx } from "./support/app-process.ts";

const dir = mkdtempSync(join(tmpdir(), "sc-cli-e2e-"));
const env = {
  JGRANTS_SOURCE: "snapshot",
  JGRANTS_NOW: "2026-08-22T12:00:00+09:00",
  SQLITE_PATH: join(dir, "threads.sqlite"),
  MCP_HEARTBEAT_MS: "0",
  LOG_LEVEL: "info",
};

afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Collects a child's output and exit code. */
async function collect(child: ReturnType<typeof spawnTsx>): Promise<Run> {
  child.stdin.end();
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const [code] = await once(child, "close");
  return { code: code as number | null, stdout, stderr };
}

const ask = (...args: string[]): Promise<Run> => collect(spawnTsx("adapters/cli/ask.ts", args, env));
const askWith = (extra: Record<string, string>, ...args: string[]): Promise<Run> =>
  collect(spawnTsx("adapters/cli/ask.ts", args, { ...env, ...extra }));

/** The README's way: `npm run -s ask -- …` (npm's banner would otherwise share stdout with the JSON). */
const npmAsk = (...args: string[]): Promise<Run> =>
  collect(
    spawn("npm", ["run", "-s", "ask", "--", ...args], {
      cwd: REPO_ROOT,
      env: childEnv(env),
      stdio: ["pipe", "pipe", "pipe"],
    }),
  );

describe("the ask CLI", () => {
  it("prints progress lines on stderr and the answer on stdout", async () => {
    const run = await ask("東京都でITツール導入の補助金");
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/🔍(「[^」]+」)+で検索中（東京都）/);
    expect(run.stderr).toMatch(/📋 \d+件見つかりました。✍️ 回答をまとめています…/);
    expect(run.stderr).toMatch(/📋 \d+件見つかりました/);
    // The detail count is printed once, not 0/5 … 5/5, and no log line reaches the terminal by default.
    expect(run.stderr.match(/詳細を確認しています/g)).toHaveLength(1);
    expect(run.stderr).not.toContain('"level"');
    expect(run.stderr).toContain("--thread cli-");
    // stdout holds only the answer: no log lines, no progress, no markdown markup.
    expect(run.stdout).not.toContain('"level"');
    expect(run.stdout).toContain("出典: Jグランツ");
    expect(run.stdout).toContain("上限額");
    expect(run.stdout).not.toContain("**");
    expect(run.stdout).not.toContain("🔍");
  });

  it("--json prints the reply with answer, plan, subsidies and _meta", async () => {
    const run = await ask("--json", "創業支援の補助金");
    expect(run.code).toBe(0);
    const reply = JSON.parse(run.stdout) as Json;
    expect(reply.kind).toBe("answer");
    expect(typeof reply.answer).toBe("string");
    expect(reply.answer).toContain(reply.subsidies[0].title);
    expect(reply.plan[0]).toMatchObject({ server: "jgrants", tool: "find_subsidies" });
    expect(reply.plan[0].reason).toBeTruthy();
    expect(reply.subsidies.length).toBeGreaterThan(0);
    expect(reply.subsidies[0]).toHaveProperty("maxAmountText");
    expect(reply._meta).toMatchObject({
      agent: { name: "subsidy-concierge", mode: "offline" },
      mode: "offline",
      tools: { used_count: reply.plan.length },
    });
    // No progress lines with --json.
    expect(run.stderr).not.toContain("🔍");
  });

  it("--thread continues a conversation across runs (history in SQLite)", async () => {
    const first = await ask("--json", "--thread", "acme", "事業承継に使える補助金を教えて");
    expect(first.code).toBe(0);
    const one = JSON.parse(first.stdout) as Json;
    expect(one.threadId).toBe("acme");
    expect(one.subsidies.length).toBeGreaterThan(1);

    const second = await ask("--thread", "acme", "2番目の詳細は？");
    expect(second.code).toBe(0);
    expect(second.stderr).toMatch(/詳細/);
    expect(second.stdout).toContain(one.subsidies[1].title);
    expect(second.stdout).toContain(one.subsidies[1].url);
    expect(second.stdout).not.toContain(one.subsidies[0].title);
    // A details answer: the fuller fields, labelled as details, not as a new search.
    expect(second.stdout).toContain("ご質問の補助金の詳細です。");
    expect(second.stdout).toMatch(/- 受付開始: |- 利用目的: |- 複数回申請: /);
    expect(second.stdout).not.toMatch(/件見つかりました|^1\. /m);
    expect(second.stderr).not.toContain("--thread cli-");
  });

  it("--help prints the usage and exits 0", async () => {
    const run = await ask("--help");
    expect(run.code).toBe(0);
    expect(run.stderr).toContain("usage: npm run -s ask --");
    expect(run.stderr).toContain("--thread ID");
    expect(run.stderr).toContain("--verbose");
    expect(run.stdout).toBe("");
  });

  it("the README's npm command prints pure JSON on stdout", async () => {
    const run = await npmAsk("--json", "創業支援の補助金");
    expect(run.code).toBe(0);
    const reply = JSON.parse(run.stdout) as Json;
    expect(reply.kind).toBe("answer");
    expect(run.stderr).not.toContain('"level"');
  });

  it("the README's thread example: a first question, then 大阪府なら？ refines it", async () => {
    const first = await npmAsk("--json", "--thread", "readme", "東京都でITツール導入の補助金");
    const second = await npmAsk("--json", "--thread", "readme", "大阪府なら？");
    expect(second.code).toBe(0);
    const [one, two] = [JSON.parse(first.stdout) as Json, JSON.parse(second.stdout) as Json];
    expect(one.conditions.area).toBe("東京都");
    expect(two.conditions.area).toBe("大阪府");
    expect(two.conditions.keywords).toEqual(one.conditions.keywords);
  });

  it("says the live-API fallback in one short line; --verbose shows the log warnings", async () => {
    // A closed port: the live API is unreachable and auto mode falls back to the bundled snapshot.
    const offline = { JGRANTS_SOURCE: "auto", JGRANTS_API_URL: "http://127.0.0.1:1/exp" };
    const quiet = await askWith(offline, "--json", "創業支援の補助金");
    expect(quiet.code).toBe(0);
    expect(JSON.parse(quiet.stdout).kind).toBe("answer");
    expect(quiet.stderr.trim().split("\n")).toEqual([
      "ℹ️ Jグランツに接続できなかったため、収録データ（2026-08-22時点）でお答えしています。",
    ]);
    const verbose = await askWith(offline, "--json", "--verbose", "創業支援の補助金");
    expect(verbose.stderr).toContain('"level":40');
    expect(verbose.stderr).not.toContain("ℹ️");
  });

  it("rejects an unknown option with exit code 2 and the usage", async () => {
    const run = await ask("--loud", "補助金");
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("unknown option --loud");
    expect(run.stderr).toContain("usage: npm run -s ask --");
    expect(run.stdout).toBe("");
  });
});
