// After `tsc -p tsconfig.build.json`: copies the files the compiled code reads next to itself
// (the web chat page, the synonym table and the bundled jGrants data) into dist/, mirroring the source layout.
import { cpSync, existsSync, readdirSync } from "node:fs";
import { join, resolve } from "node:path";

// Usage: node scripts/copy-assets.mjs [outDir]   (outDir defaults to dist, as in tsconfig.build.json)
const root = new URL("..", import.meta.url).pathname;
const out = resolve(root, process.argv[2] ?? "dist");
const data = "src/mcp-servers/jgrants/data";
const copies = [
  "adapters/web/public",
  "src/catalog/data/sudachi-synonyms.txt",
  ...readdirSync(join(root, data))
    .filter((name) => name.endsWith(".json"))
    .map((name) => `${data}/${name}`),
];
for (const path of copies) {
  if (!existsSync(join(root, path))) throw new Error(`missing asset: ${path}`);
  cpSync(join(root, path), join(out, path), { recursive: true });
}
console.log(`copied ${copies.length} assets into ${out}`);
