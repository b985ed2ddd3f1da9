import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  compactSudachi,
  parseSudachi,
  readInPieces,
  SUDACHI_DATA,
  type SudachiItem,
  scanSudachiGroups,
  sudachiPackageFile,
  sudachiWords,
} from "../../src/catalog/sudachi.ts";
import { sudachiSynonyms } from "../../src/catalog/synonyms.ts";

const packageJson = () =>
  JSON.parse(readFileSync(join(sudachiPackageFile(), "..", "package.json"), "utf8")) as { version: string };

describe("Sudachi synonym table", () => {
  it("scans the package's JSON in pieces to exactly what JSON.parse reads", () => {
    const parsed = (
      JSON.parse(readFileSync(sudachiPackageFile(), "utf8")) as Array<{ items: SudachiItem[] }>
    ).map((g) => g.items.map(({ midashi, expandControl }) => ({ midashi, expandControl })));
    // Small pieces put cuts inside headwords and multi-byte characters.
    const scanned = scanSudachiGroups(readInPieces(sudachiPackageFile(), 4099));
    expect(scanned.length).toBeGreaterThan(20_000);
    expect(scanned).toEqual(parsed);
  });

  it("ships a data file derived from the installed package (npm run synonyms:update after upgrading it)", () => {
    const derived = compactSudachi(
      scanSudachiGroups(readInPieces(sudachiPackageFile())),
      packageJson().version,
    );
    expect(readFileSync(SUDACHI_DATA, "utf8") === derived).toBe(true);
  });

  it("expands a trigger word to the rest of its groups, never to itself, and not from flag-1 words", () => {
    const table = parseSudachi(
      ["# header", "0曖昧\t0あいまい\t0不明確", "0曖昧\t1ファジー", "1略称語\t0正式名称", "2x\t0y"].join(
        "\n",
      ),
    );
    expect(table.groups).toEqual([
      ["曖昧", "あいまい", "不明確"],
      ["曖昧", "ファジー"],
      ["略称語", "正式名称"],
    ]);
    expect(table.groupsOf.get("曖昧")).toEqual([0, 1]);
    expect(table.groupsOf.has("略称語")).toBe(false);
    expect(table.groupsOf.get("正式名称")).toBe(2);
  });

  it("answers from the bundled file: 曖昧 → あいまい, 不明確 …", () => {
    expect(sudachiWords("曖昧")).toEqual(expect.arrayContaining(["あいまい", "不明確"]));
    expect(sudachiWords("曖昧")).not.toContain("曖昧");
    expect(sudachiSynonyms("人材")).toEqual(expect.arrayContaining(["人財"]));
  });
});
