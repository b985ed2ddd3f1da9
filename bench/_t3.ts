import { createCatalog } from "../src/catalog/catalog.ts";
import { snapshotRecordSource } from "../src/catalog/record-source.ts";
const t0 = performance.now();
const cat = createCatalog(snapshotRecordSource(), { now: () => new Date("2026-08-22T00:00:00+09:00") });
console.log("build ms", (performance.now() - t0).toFixed(0), cat.size);
const qs: Array<[string, object]> = [
  ["店の看板をLEDに替えて電気代を下げたい。京都市の飲食店で従業員8名", { area: "京都府", city: "京都市", employees: 8 }],
  ["人が足りないので採用に使える助成金はある？東京都の介護事業所です", { area: "東京都" }],
  ["厨房機器を新しくしたい。福岡市のラーメン屋", { area: "福岡県", city: "福岡市" }],
  ["電子カルテを入れたいクリニック", {}],
  ["跡継ぎがいなくて困っている。東京都の町工場", { area: "東京都" }],
  ["宇宙旅行の補助金", {}],
  ["東京都でIT導入に使える補助金は？", { area: "東京都" }],
];
for (const [q, f] of qs) {
  const t = performance.now();
  const r = cat.find(q, f, 5);
  console.log(`\n${q} [${r.match} total=${r.total}] ${(performance.now() - t).toFixed(1)}ms`);
  for (const h of r.hits) console.log(`  ${h.score.toFixed(1)} cov=${h.coverage.toFixed(2)} ${h.entry.title.slice(0, 50)} [${h.entry.areas.join("/")}${h.entry.city ? ":" + h.entry.city : ""}] {${h.matched.map((c) => c.from).slice(0, 5).join(",")}} +${h.rounds.length}`);
}
