/** `npm run ask -- "質問"`: one question from the terminal, with progress lines and the final answer. */
import { progressText } from "../../src/agent/progress-text.ts";
import { createCore } from "../../src/compose.ts";
import { loadConfig } from "../../src/config.ts";
import { describeError } from "../../src/errors.ts";
import { chatResponse } from "../../src/http/chat-routes.ts";
import { createLogger } from "../../src/logger.ts";
import { parseAskArgs, USAGE } from "./args.ts";
import { toTerminalText } from "./render.ts";

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
  // Logs go to stderr at warn level so that stdout holds only the answer (or the JSON).
  const logger = createLogger({
    level: config.logLevel === "info" ? "warn" : config.logLevel,
    destination: process.stderr,
  });
  const core = await createCore(config, logger);
  try {
    const threadId = args.thread ?? `cli-${Date.now().toString(36)}`;
    const reply = await core.agent.handle(
      { threadKey: `cli:${threadId}`, platform: "cli", userId: "cli", text: args.question },
      {
        onProgress: (event) => {
          const line = progressText(event);
          if (line && !args.json) process.stderr.write(`${line}\n`);
        },
      },
    );
    if (args.json)
      process.stdout.write(
        `${JSON.stringify(chatResponse(reply, threadId, "subsidy-concierge"), null, 2)}\n`,
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
