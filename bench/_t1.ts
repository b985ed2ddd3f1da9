import { loadSnapshot } from "../src/mcp-servers/jgrants/snapshot-data.ts";
import { toEntry } from "../src/catalog/entry.ts";
const es = loadSnapshot().records.map((r) => toEntry(r.record));
console.log("cities", es.filter(e=>e.city).map(e=>`${e.city}<-${e.title.slice(0,30)}`).join("\n"));
console.log("procedural", es.filter(e=>e.procedural).length);
const g = new Map<string, string[]>(); for (const e of es) g.set(e.groupKey, [...(g.get(e.groupKey)??[]), e.title.slice(0,50)+" {"+e.roundLabel+"}"]);
for (const [k,v] of g) if (v.length>1) console.log("GROUP", v.join(" || "));
