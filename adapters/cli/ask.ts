/** `npm run ask -- "質問"`: one question from the terminal, with progress lines and the final answer. */
import { createCore } from "../../src/compose.ts";
import { loadConfig } from "../../src/config.ts";
import { describeError } from "../../src/errors.ts";
import { chatResponse } from "../../src/http/chat-routes.ts";
import { createLogger } from "../../src/logger.ts";
import type { Reply } from "../../src/types.ts";
import { parseAskArgs, USAGE } from "./args.ts";
import { terminalProgress } from "./progress.ts";
import { toTerminalText } from "./render.ts";

/** The line between a resumed thread's digests and the answer. */
const RULE = "────────";

/** The quiet level: errors only, unless the configured level is quieter still. */
function quietLevel(level: string): string {
  return level === "fatal" || level === "silent" ? level : "error";
}

/**
 * One short line when auto mode fell back to the bundled snapshot (the logs' warnings say it at length
 * with --verbose); null otherwise.
 */
function fallbackLine(reply: Reply, source: string): string | null {
  const data = reply.subsidies[0]?.source ?? null;
  if (source !== "auto" || data?.mode !== "snapshot") return null;
  return `ℹ️ Jグランツに接続できなかったため、収録データ（${data.asOf ?? "日付不明"}時点）でお答えしています。`;
}

async function ask(argv: string[]): Promise<number> {
  let args: ReturnType<typeof parseAskArgs>;
  try {
    args = parseAskArgs(argv);
  } catch (error) {
    process.stderr.write(`${describeError(error)}\n${USAGE}\n`);
    return 2;
  }
  if (args.help || !args.question) {
    process.stderr.write(`${USAGE}\n`);
    return args.help ? 0 : 2;
  }
  const config = loadConfig();
  // Logs go to stderr, never stdout (which holds only the answer or the JSON); errors only unless --verbose.
  const logger = createLogger({
    level: args.verbose ? config.logLevel : quietLevel(config.logLevel),
    destination: process.stderr,
  });
  const progress = terminalProgress(process.stderr, !args.json);
  const core = await createCore(config, logger);
  try {
    const threadId = args.thread ?? `cli-${Date.now().toString(36)}`;
    // A resumed thread first shows the watch digests that arrived since (they enter its history first).
    const digests = args.thread ? ((await core.watching?.openThread(`cli:${threadId}`)) ?? []) : [];
    if (digests.length > 0 && !args.json) {
      process.stdout.write(`${digests.map(toTerminalText).join(`\n\n${RULE}\n\n`)}\n\n${RULE}\n\n`);
    }
    const reply = await core.agent.handle(
      { threadKey: `cli:${threadId}`, platform: "cli", userId: "cli", text: args.question },
      { onProgress: (event) => progress.onProgress(event) },
    );
    progress.end();
    const fallback = fallbackLine(reply, config.jgrants.source);
    if (fallback && !args.verbose) process.stderr.write(`${fallback}\n`);
    if (args.json)
      process.stdout.write(
        `${JSON.stringify({ ...chatResponse(reply, threadId, "subsidy-concierge"), ...(digests.length > 0 ? { digests } : {}) }, null, 2)}\n`,
      );
    else {
      process.stdout.write(`${toTerminalText(reply.text)}\n`);
      // A memory store forgets everything when the command ends: no thread to continue then.
      if (!args.thread && config.store.backend !== "memory") {
        process.stderr.write(`\n（続けて質問するには --thread ${threadId} を付けてください）\n`);
      }
    }
    return reply.kind === "error" ? 1 : 0;
  } finally {
    await core.close();
  }
}

ask(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error) => {
    process.stderr.write(`ask failed: ${describeError(error)}\n`);
    process.exit(1);
  },
);
