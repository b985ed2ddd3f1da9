import { analyseQuery } from "../src/catalog/query.ts";
for (const q of ["店の看板をLEDに替えて電気代を下げたい。京都市の飲食店で従業員8名", "人が足りないので採用に使える助成金はある？東京都の介護事業所です", "厨房機器を新しくしたい", "電子カルテを入れたいクリニック", "Wi-Fiを整備したい旅館", "東京都でIT導入に使える補助金は？"]) {
  console.log(q, "\n  ", analyseQuery(q).map((c) => `${c.from}:${c.weight}:${c.alternatives.map(a=>a.text+"="+a.weight.toFixed(2)).join("|")}`).join(" "));
}
