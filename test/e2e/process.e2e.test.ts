/**
 * `npm start` as a real process: the server answers over HTTP, keeps threads in a SQLite file across a
 * restart, shuts down cleanly on SIGTERM without leaving MCP stdio children behind, falls back to the
 * bundled snapshot when the live API is unreachable, and refuses a bad environment with exit code 2.
 */
import { once } from "node:events";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { Json } from "../helpers/json.ts";
import {
  type AppProcess,
  descendantsOf,
  spawnTsx,
  startAppProcess,
  survivors,
} from "./support/app-process.ts";
import { closedPort, getJson, idsOf, postChat } from "./support/chat.ts";

const dir = mkdtempSync(join(tmpdir(), "sc-process-e2e-"));
const sqlitePath = join(dir, "threads.sqlite");
const mcpConfig = join(dir, "mcp.json");
writeFileSync(
  mcpConfig,
  JSON.stringify({
    mcpServers: {
      jgrants: { builtin: "jgrants" },
      time: { builtin: "time" },
      // A second jGrants server as a stdio child: the process that must not outlive the app.
      jgrants_stdio: {
        command: process.execPath,
        args: ["--import", "tsx", "src/mcp-servers/jgrants/cli.ts", "--stdio", "--source", "snapshot"],
        env: { JGRANTS_SOURCE: "snapshot", JGRANTS_NOW: "2026-08-22T12:00:00+09:00", LOG_LEVEL: "silent" },
      },
    },
  }),
);
const baseEnv = {
  JGRANTS_SOURCE: "snapshot",
  JGRANTS_NOW: "2026-08-22T12:00:00+09:00",
  SQLITE_PATH: sqlitePath,
  MCP_CONFIG: mcpConfig,
  MCP_HEARTBEAT_MS: "0",
};

const started: AppProcess[] = [];
async function start(env: Record<string, string>): Promise<AppProcess> {
  const app = await startAppProcess(env);
  started.push(app);
  return app;
}

afterAll(() => {
  for (const app of started) app.kill();
  rmSync(dir, { recursive: true, force: true });
});

describe("npm start as a process", () => {
  const thread = "process-e2e-1";
  /** The list shown last before the restart: what "2番目" refers to afterwards. */
  let shown: Json;

  it("serves /healthz and /chat, continues a thread, and exits cleanly on SIGTERM", async () => {
    const app = await start(baseEnv);
    const health = await getJson(app.url, "/healthz");
    expect(health.status).toBe(200);
    expect(health.body.status).toBe("ok");
    expect(health.body.components.llm).toEqual({ mode: "offline", model: null });

    const tools = await getJson(app.url, "/tools");
    const servers = new Set(tools.body.tools.map((t: { server: string }) => t.server));
    expect([...servers]).toEqual(expect.arrayContaining(["jgrants", "time", "jgrants_stdio"]));

    const first = await postChat(app.url, "東京都でIT導入に使える補助金は？", thread);
    expect(first.kind).toBe("answer");
    expect(first.threadId).toBe(thread);
    expect(first.subsidies.length).toBeGreaterThan(1);
    expect(first.answer).toContain(first.subsidies[0].title);
    expect(first.answer).toContain("出典: Jグランツ");

    // A follow-up in the same thread re-sorts the results shown before.
    shown = await postChat(app.url, "締切が近い順にして", thread);
    expect(shown.kind).toBe("answer");
    // The same search, its results ordered by deadline (the top five may differ from the first answer's,
    // which were ranked by how well they matched).
    const keywordsOf = (r: Json) =>
      r.plan.filter((p: Json) => p.tool === "search_subsidies").map((p: Json) => p.args.keyword);
    expect(keywordsOf(shown)).toEqual(expect.arrayContaining(keywordsOf(first).slice(-1)));
    const ends = shown.subsidies.map((s: Json) => s.end?.iso ?? "9999");
    expect([...ends].sort()).toEqual(ends);

    // The stdio MCP server runs as a child of the app while it serves.
    const children = descendantsOf(app.pid);
    const stdioChild = children.filter((p) => p.args.includes("src/mcp-servers/jgrants/cli.ts"));
    expect(stdioChild).toHaveLength(1);

    expect(await app.terminate(15_000)).toBe(0);
    expect(app.stdout()).toContain('"msg":"shutting down"');
    expect(
      survivors(
        children.map((p) => p.pid),
        app.pid,
      ),
    ).toEqual([]);
  });

  it("answers a follow-up after a restart from the history in the same SQLite file", async () => {
    expect(shown, "the first test must have run").toBeDefined();
    const app = await start(baseEnv);
    const second = await postChat(app.url, "2番目の詳細は？", thread);
    expect(idsOf(second)).toEqual([shown.subsidies[1].id]);
    expect(second.plan).toContainEqual(
      expect.objectContaining({
        tool: "get_subsidy_detail",
        args: expect.objectContaining({ subsidy_id: shown.subsidies[1].id }),
      }),
    );
    expect(second.answer).toContain(shown.subsidies[1].title);
    expect(await app.terminate(15_000)).toBe(0);
  });

  it("falls back to the bundled snapshot when the live API cannot be reached, and says so", async () => {
    const port = await closedPort();
    const app = await start({
      JGRANTS_SOURCE: "auto",
      JGRANTS_NOW: "2026-08-22T12:00:00+09:00",
      JGRANTS_API_URL: `http://127.0.0.1:${port}/exp`,
      SQLITE_PATH: join(dir, "auto.sqlite"),
      MCP_HEARTBEAT_MS: "0",
    });
    const reply = await postChat(app.url, "事業承継に使える補助金を教えて");
    expect(reply.kind).toBe("answer");
    expect(reply.subsidies.length).toBeGreaterThan(0);
    expect(reply.subsidies[0].source.mode).toBe("snapshot");
    // The ranked search runs over the bundled catalog until a live catalog is synced; the answer says so.
    const note =
      "2026-08-22時点のデータ（オフラインの収録データ）です。最新の情報はJグランツでご確認ください。";
    expect(reply.notes).toContain(note);
    // The answer text says the data's date once, beside the first card's status.
    expect(reply.answer).toContain("2026-08-22時点");
    expect(await app.terminate(15_000)).toBe(0);
  });

  it("exits with code 2 and names the variable when the environment is invalid", async () => {
    const child = spawnTsx("src/main.ts", [], { PORT: "abc", SQLITE_PATH: join(dir, "bad.sqlite") });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const [code] = await once(child, "exit");
    expect(code).toBe(2);
    expect(stderr).toContain("PORT");
    expect(stderr).toContain('"abc"');
  });
});
