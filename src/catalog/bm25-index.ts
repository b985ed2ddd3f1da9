/**
 * A small BM25F inverted index over character bigrams (and Latin words). MiniSearch was measured first
 * (README.md): its general-purpose radix tree took 3.7 s to index 2,000 records here, far from the 3 s
 * budget for 10,000. This index keeps, per term, the documents and the term's count in each field, and
 * scores with per-field length normalisation and boosts: title > catch phrase > purpose > detail.
 *
 * The build is two passes over flat typed arrays: the first tokenizes each document once, interns its
 * terms as numbers and appends (term, counts) pairs to growing buffers; the second lays the postings out
 * term by term (compressed sparse rows). No per-term JS arrays are made, so the build makes little garbage
 * and the process keeps little memory beyond the index itself.
 */

export interface IndexedDoc {
  id: string;
  /** The text of each field, in FIELDS order. */
  fields: string[];
}

const K1 = 1.2;
const B = 0.7;
const DELTA = 0.5;
/** Term counts are stored per field in one byte. */
const MAX_TF = 255;

/** A typed array that grows by half again when full. */
class Buffer32 {
  data = new Int32Array(1 << 16);
  length = 0;
  push(value: number): void {
    if (this.length === this.data.length) this.data = grown(this.data, this.length * 1.5);
    this.data[this.length++] = value;
  }
}

function grown<T extends Int32Array | Uint8Array>(array: T, size: number): T {
  const bigger = new (array.constructor as new (n: number) => T)(Math.ceil(size));
  bigger.set(array);
  return bigger;
}

/** Code units U+3000–U+AFFF: kana, the CJK symbols and the unified ideographs most text uses. */
const PAIR_FROM = 0x3000;
const PAIR_SPAN = 0x8000;

/** A two-character term of that range as one small integer (below 2^30), else -1. */
function pairKey(token: string): number {
  if (token.length !== 2) return -1;
  const a = token.charCodeAt(0) - PAIR_FROM;
  const b = token.charCodeAt(1) - PAIR_FROM;
  return a >= 0 && a < PAIR_SPAN && b >= 0 && b < PAIR_SPAN ? a * PAIR_SPAN + b : -1;
}

export class Bm25Index {
  private ids: string[] = [];
  /** Field lengths in tokens, fieldCount per document. */
  private lengths = new Uint32Array(0);
  /**
   * Term → term number. Two-character Japanese terms (most of them: bigrams) are looked up by a small
   * integer made of their two code units, which V8 hashes far faster than a new string.
   */
  private readonly pairIds = new Map<number, number>();
  private readonly wordIds = new Map<string, number>();
  private termCount = 0;
  /** Postings of term t are docs[offsets[t] .. offsets[t + 1]), ascending. */
  private offsets = new Int32Array(1);
  private docs = new Int32Array(0);
  /** fieldCount counts per posting. */
  private tf = new Uint8Array(0);
  /** In how many documents each field holds the term: fieldCount per term. */
  private df = new Uint32Array(0);
  private readonly fieldCount: number;
  private avg: number[] = [];

  constructor(
    private readonly tokenize: (text: string) => string[],
    private readonly boosts: number[],
  ) {
    this.fieldCount = boosts.length;
  }

  get documentCount(): number {
    return this.ids.length;
  }

  /** Indexes every document (replacing what the index held), then computes the average field lengths. */
  addAll(docs: Iterable<IndexedDoc>): void {
    const F = this.fieldCount;
    this.pairIds.clear();
    this.wordIds.clear();
    this.termCount = 0;
    const ids: string[] = [];
    const lengths = new Buffer32();
    // Pass 1: per document, its distinct terms and their counts per field (F bytes a pair).
    const pairTerm = new Buffer32();
    let pairCounts = new Uint8Array(F << 16);
    const docEnd = new Buffer32();
    let postingsPerTerm = new Int32Array(1024);
    // Scratch, by term number: the last document that held it and its counts in that document.
    let seenIn = new Int32Array(1024).fill(-1);
    let counts = new Uint8Array(1024 * F);
    const inDoc: number[] = [];
    for (const doc of docs) {
      const d = ids.length;
      ids.push(doc.id);
      inDoc.length = 0;
      for (let f = 0; f < F; f++) {
        const tokens = this.tokenize(doc.fields[f] ?? "");
        lengths.push(tokens.length);
        for (const token of tokens) {
          let t = this.termOf(token);
          if (t === undefined) {
            t = this.termCount++;
            const pair = pairKey(token);
            if (pair >= 0) this.pairIds.set(pair, t);
            else this.wordIds.set(token, t);
            if (t >= seenIn.length) {
              const known = seenIn.length;
              seenIn = grown(seenIn, t * 2);
              seenIn.fill(-1, known);
              counts = grown(counts, t * 2 * F);
              postingsPerTerm = grown(postingsPerTerm, t * 2);
            }
          }
          if (seenIn[t] !== d) {
            seenIn[t] = d;
            for (let f2 = 0; f2 < F; f2++) counts[t * F + f2] = 0;
            inDoc.push(t);
          }
          if (counts[t * F + f]! < MAX_TF) counts[t * F + f]!++;
        }
      }
      for (const t of inDoc) {
        const p = pairTerm.length;
        pairTerm.push(t);
        if ((p + 1) * F > pairCounts.length) pairCounts = grown(pairCounts, pairCounts.length * 1.5);
        for (let f = 0; f < F; f++) pairCounts[p * F + f] = counts[t * F + f]!;
        postingsPerTerm[t]!++;
      }
      docEnd.push(pairTerm.length);
    }

    // Pass 2: postings laid out term by term; documents come in order, so each list is ascending.
    const termCount = this.termCount;
    const offsets = new Int32Array(termCount + 1);
    for (let t = 0; t < termCount; t++) offsets[t + 1] = offsets[t]! + postingsPerTerm[t]!;
    const total = offsets[termCount]!;
    const postDocs = new Int32Array(total);
    const postTf = new Uint8Array(total * F);
    const df = new Uint32Array(termCount * F);
    const cursor = offsets.slice(0, termCount);
    for (let d = 0, p = 0; d < ids.length; d++) {
      for (const end = docEnd.data[d]!; p < end; p++) {
        const t = pairTerm.data[p]!;
        const at = cursor[t]!++;
        postDocs[at] = d;
        for (let f = 0; f < F; f++) {
          const c = pairCounts[p * F + f]!;
          postTf[at * F + f] = c;
          if (c > 0) df[t * F + f]!++;
        }
      }
    }
    this.ids = ids;
    this.lengths = Uint32Array.from(lengths.data.subarray(0, lengths.length));
    this.offsets = offsets;
    this.docs = postDocs;
    this.tf = postTf;
    this.df = df;
    const n = Math.max(1, ids.length);
    this.avg = Array.from({ length: F }, (_, f) => {
      let sum = 0;
      for (let d = 0; d < ids.length; d++) sum += this.lengths[d * F + f]!;
      return Math.max(1, sum / n);
    });
  }

  private termOf(token: string): number | undefined {
    const pair = pairKey(token);
    return pair >= 0 ? this.pairIds.get(pair) : this.wordIds.get(token);
  }

  /** The id of document number `d` (numbers follow the order documents were added). */
  idOf(d: number): string {
    return this.ids[d]!;
  }

  /** How many documents hold every one of `tokens`. */
  documentFrequency(tokens: string[]): number {
    return this.search(tokens, undefined, false).docs.length;
  }

  /**
   * Documents that hold every token (AND), ascending, with their BM25F score summed over the tokens; only
   * documents whose number `allowed` marks (non-zero), when given. Unscored, only the documents (for counts).
   */
  search(tokens: string[], allowed?: Uint8Array, scored = true): { docs: Int32Array; scores: Float64Array } {
    const F = this.fieldCount;
    const terms = [...new Set(tokens)].map((token) => this.termOf(token));
    if (terms.length === 0 || terms.some((t) => t === undefined))
      return { docs: new Int32Array(0), scores: new Float64Array(0) };
    const start = (t: number) => this.offsets[t]!;
    const end = (t: number) => this.offsets[t + 1]!;
    const sorted = [...(terms as number[])].sort((a, b) => end(a) - start(a) - (end(b) - start(b)));
    // Candidates: the rarest term's documents; each other term keeps those it holds too, found by
    // binary search in its (ascending) postings, and `at` keeps where, for the scoring below.
    const first = sorted[0]!;
    const size = end(first) - start(first);
    const firstDocs = new Int32Array(size);
    const firstAt = new Int32Array(size);
    let k = 0;
    for (let i = start(first); i < end(first); i++) {
      const d = this.docs[i]!;
      if (allowed && allowed[d] === 0) continue;
      firstDocs[k] = d;
      firstAt[k++] = i;
    }
    let docs = firstDocs.subarray(0, k);
    const positions: Int32Array[] = [firstAt.subarray(0, k)];
    for (const t of sorted.slice(1)) {
      if (docs.length === 0) break;
      const at = new Int32Array(docs.length);
      let kept = 0;
      let lo = start(t);
      const hi = end(t);
      for (let c = 0; c < docs.length; c++) {
        const d = docs[c]!;
        let l = lo;
        let h = hi;
        while (l < h) {
          const mid = (l + h) >>> 1;
          if (this.docs[mid]! < d) l = mid + 1;
          else h = mid;
        }
        lo = l;
        if (l < hi && this.docs[l] === d) {
          for (let p = 0; p < positions.length; p++) positions[p]![kept] = positions[p]![c]!;
          docs[kept] = d;
          at[kept++] = l;
        }
      }
      docs = docs.subarray(0, kept);
      for (let p = 0; p < positions.length; p++) positions[p] = positions[p]!.subarray(0, kept);
      positions.push(at.subarray(0, kept));
    }
    const scores = new Float64Array(scored ? docs.length : 0);
    if (docs.length === 0 || !scored) return { docs, scores };
    const n = this.ids.length;
    // Summed in the question's token order.
    for (const t of terms as number[]) {
      // BM25+ per field, summed with the field boosts (the scoring MiniSearch uses, measured best here).
      const idf = Array.from(this.df.subarray(t * F, t * F + F), (df) =>
        Math.log(1 + (n - df + 0.5) / (df + 0.5)),
      );
      const at = positions[sorted.indexOf(t)]!;
      for (let c = 0; c < docs.length; c++) {
        const d = docs[c]!;
        const i = at[c]!;
        let score = 0;
        for (let f = 0; f < F; f++) {
          const tf = this.tf[i * F + f]!;
          if (tf === 0) continue;
          const norm = 1 - B + (B * this.lengths[d * F + f]!) / this.avg[f]!;
          score += this.boosts[f]! * idf[f]! * (DELTA + (tf * (K1 + 1)) / (tf + K1 * norm));
        }
        scores[c]! += score;
      }
    }
    return { docs, scores };
  }
}
