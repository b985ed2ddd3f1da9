/**
 * Sudachi's synonym dictionary (npm `sudachi-synonyms-dictionary`, Apache-2.0, by WorksApplications /
 * azu), as the catalog uses it: groups of words, each word folded and marked whether it triggers an
 * expansion. The package ships 14.5 MB of JSON with eight fields per item; loading that at run time left
 * about 50 MB more RSS in the process. `npm run synonyms:update` derives the two fields used into
 * data/sudachi-synonyms.txt (1 MB), which the bot loads; a test checks the file against the package.
 */
import { closeSync, openSync, readFileSync, readSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { StringDecoder } from "node:string_decoder";
import { fileURLToPath } from "node:url";
import { fold } from "./text.ts";

export const SUDACHI_DATA = fileURLToPath(new URL("./data/sudachi-synonyms.txt", import.meta.url));

export interface SudachiItem {
  midashi: string;
  /** 0: always expands; 1: reachable from its group but never a trigger; 2: never used. */
  expandControl: 0 | 1 | 2;
}

/** The package's dictionary file (a development dependency: only the update and its test read it). */
export function sudachiPackageFile(): string {
  const require = createRequire(import.meta.url);
  return join(dirname(require.resolve("sudachi-synonyms-dictionary")), "sudachi-synonyms-dictionary.json");
}

/** A file's text in pieces of about 1 MB. */
export function* readInPieces(file: string, size = 1 << 20): Generator<string> {
  const fd = openSync(file, "r");
  try {
    const buffer = Buffer.alloc(size);
    const decoder = new StringDecoder("utf8");
    for (let n = readSync(fd, buffer, 0, size, null); n > 0; n = readSync(fd, buffer, 0, size, null))
      yield decoder.write(buffer.subarray(0, n));
    yield decoder.end();
  } finally {
    closeSync(fd);
  }
}

/**
 * The synonym groups of the dictionary's JSON text, keeping each item's headword and expansion flag: a
 * scan of the text as it is read (strings with escapes are decoded by JSON.parse one by one). A test
 * checks it against JSON.parse of the whole file.
 */
export function scanSudachiGroups(pieces: Iterable<string>): SudachiItem[][] {
  const groups: SudachiItem[][] = [];
  const token = /\{"id":"[^"]*","items":\[|"expandControl":(\d)|"midashi":"((?:[^"\\]|\\.)*)"/g;
  let expandControl: SudachiItem["expandControl"] = 0;
  const scan = (text: string) => {
    token.lastIndex = 0;
    for (let m = token.exec(text); m; m = token.exec(text)) {
      if (m[1] !== undefined) expandControl = Number(m[1]) as SudachiItem["expandControl"];
      else if (m[2] !== undefined) {
        const midashi = m[2].includes("\\") ? (JSON.parse(`"${m[2]}"`) as string) : m[2];
        groups.at(-1)?.push({ midashi, expandControl });
        expandControl = 0;
      } else groups.push([]);
    }
  };
  // Each piece is scanned up to its last headword, which may be cut off: that tail starts the next piece.
  let rest = "";
  for (const piece of pieces) {
    const text = rest + piece;
    const cut = text.lastIndexOf('"midashi":"');
    if (cut <= 0) {
      rest = text;
      continue;
    }
    scan(text.slice(0, cut));
    rest = text.slice(cut);
  }
  scan(rest);
  return groups;
}

/**
 * The data file's text: a header, then one group per line, its usable items (not expandControl 2)
 * folded and tab-separated, each prefixed with its flag (「0あいまい」).
 */
export function compactSudachi(groups: SudachiItem[][], version: string): string {
  const lines = groups
    .map((items) =>
      items
        .filter((i) => i.expandControl !== 2)
        .map((i) => `${i.expandControl}${fold(i.midashi)}`)
        .join("\t"),
    )
    .filter(Boolean);
  const header = [
    `# Derived from sudachi-synonyms-dictionary ${version} (Sudachi synonym dictionary, WorksApplications;`,
    "# Apache License 2.0). Regenerate with `npm run synonyms:update`; do not edit.",
  ];
  return `${[...header, ...lines].join("\n")}\n`;
}

interface SudachiTable {
  /** Each group's usable words (at least two characters, no spaces). */
  groups: string[][];
  /** A trigger word → its group (a number), or its groups when it is in several. */
  groupsOf: Map<string, number | number[]>;
}

/** The table of the data file's text. */
export function parseSudachi(text: string): SudachiTable {
  const groups: string[][] = [];
  const groupsOf = new Map<string, number | number[]>();
  for (const line of text.split("\n")) {
    if (!line || line.startsWith("#")) continue;
    const items = line.split("\t");
    const words = [...new Set(items.map((i) => i.slice(1)))].filter(
      (w) => [...w].length >= 2 && !/\s/.test(w),
    );
    if (words.length === 0) continue;
    const g = groups.push(words) - 1;
    for (const item of items) {
      // Flag 1: reachable from the group, but never a trigger itself.
      if (item[0] !== "0") continue;
      const own = item.slice(1);
      const known = groupsOf.get(own);
      if (known === undefined) groupsOf.set(own, g);
      else if (typeof known === "number") {
        if (known !== g) groupsOf.set(own, [known, g]);
      } else if (!known.includes(g)) known.push(g);
    }
  }
  return { groups, groupsOf };
}

let table: SudachiTable | undefined;

/** Every other word of a word's synonym groups, in the dictionary's order (loaded on first use). */
export function sudachiWords(word: string): string[] {
  table ??= parseSudachi(readFileSync(SUDACHI_DATA, "utf8"));
  const own = fold(word);
  const at = table.groupsOf.get(own);
  if (at === undefined) return [];
  const words = (typeof at === "number" ? [at] : at).flatMap((g) => table!.groups[g]!);
  return [...new Set(words)].filter((w) => w !== own);
}
