// Derives src/catalog/data/sudachi-synonyms.txt from the installed sudachi-synonyms-dictionary package
// (run after upgrading it): `npm run synonyms:update`.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  compactSudachi,
  readInPieces,
  SUDACHI_DATA,
  scanSudachiGroups,
  sudachiPackageFile,
} from "../src/catalog/sudachi.ts";

const file = sudachiPackageFile();
const { version } = JSON.parse(readFileSync(join(file, "..", "package.json"), "utf8")) as { version: string };
const text = compactSudachi(scanSudachiGroups(readInPieces(file)), version);
writeFileSync(SUDACHI_DATA, text);
console.log(`wrote ${SUDACHI_DATA} (${(text.length / 1e6).toFixed(1)} M characters) from version ${version}`);
