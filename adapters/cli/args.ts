/** Parses `ask` arguments: the question words, --json, --thread ID, --verbose, --help. */
export interface AskArgs {
  question: string;
  json: boolean;
  thread?: string;
  /** Show the logs' warnings (quiet by default: errors only). */
  verbose: boolean;
  help: boolean;
}

export function parseAskArgs(argv: string[]): AskArgs {
  const words: string[] = [];
  const args: AskArgs = { question: "", json: false, verbose: false, help: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--json") args.json = true;
    else if (arg === "--verbose" || arg === "-v") args.verbose = true;
    else if (arg === "--help" || arg === "-h") args.help = true;
    else if (arg === "--thread" || arg === "-t") {
      const value = argv[++i];
      if (!value) throw new Error("--thread needs an id, e.g. --thread my-company");
      args.thread = value;
    } else if (arg.startsWith("--thread=")) args.thread = arg.slice("--thread=".length);
    else if (arg.startsWith("--"))
      throw new Error(`unknown option ${arg} (use --json, --thread ID, --verbose)`);
    else words.push(arg);
  }
  args.question = words.join(" ").trim();
  return args;
}

export const USAGE = `usage: npm run -s ask -- [--json] [--thread ID] [--verbose] "東京都でITツール導入の補助金"

  --json        print the whole reply as JSON (stdout holds nothing else)
  --thread ID   continue a conversation (history is kept in the configured store)
  --verbose     also print the logs' warnings on stderr (quiet by default)`;
