/** `npm run eval`: prints the relevance figures and every miss (question, gold, what was shown). */
import { evaluate } from "./evaluate.ts";

const f = await evaluate();
const out = process.stdout;
for (const o of f.misses) {
  out.write(`\nMISS ${o.q.id} ${o.q.question}\n  gold: ${o.q.primary.join(", ")}  (match=${o.match})\n`);
  for (const s of o.shown) out.write(`  shown: ${s.ids[0]} ${s.title.slice(0, 60)}\n`);
}
for (const o of f.dishonest) {
  out.write(`\nDISHONEST ${o.q.id} ${o.q.question}\n`);
  for (const s of o.shown) out.write(`  shown: ${s.ids[0]} ${s.title.slice(0, 60)}\n`);
}
const r = (x: number) => x.toFixed(3);
out.write(`
questions ${f.questions} (answerable ${f.answerable}, no-match ${f.noMatch})
hit@5 ${r(f.hitAt5)}  precision@5 ${r(f.precisionAt5)} (strict /5: ${r(f.precisionAt5Strict)})  nDCG@10 ${r(f.ndcgAt10)}  recall@20 ${r(f.recallAt20)}
honesty ${r(f.honesty)}  procedural/duplicate in top 5: ${f.proceduralOrDuplicateInTop5}  time p50 ${f.p50Ms.toFixed(1)} ms, p95 ${f.p95Ms.toFixed(1)} ms
`);
