/**
 * A small BM25F inverted index over character bigrams (and Latin words). MiniSearch was measured first
 * (README.md): its general-purpose radix tree took 3.7 s to index 2,000 records here, far from the 3 s
 * budget for 10,000. This index keeps, per term, the documents and the term's count in each field, and
 * scores with per-field length normalisation and boosts: title > catch phrase > purpose > detail.
 */

export interface IndexedDoc {
  id: string;
  /** The text of each field, in FIELDS order. */
  fields: string[];
}

const K1 = 1.2;
const B = 0.7;
const DELTA = 0.5;

interface Postings {
  docs: number[] | Int32Array;
  /** Term counts, FIELD_COUNT per document, capped at 255. */
  tf: number[] | Uint8Array;
  /** In how many documents each field holds the term. */
  df?: Uint32Array;
}

export class Bm25Index {
  private readonly ids: string[] = [];
  private readonly lengths: number[] = [];
  private readonly terms = new Map<string, Postings>();
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

  /** Adds every document, then computes the average field lengths. */
  addAll(docs: Iterable<IndexedDoc>): void {
    for (const doc of docs) this.add(doc);
    // Typed arrays hold the postings in a fraction of the memory of growing JS arrays.
    for (const p of this.terms.values()) {
      p.docs = Int32Array.from(p.docs);
      p.tf = Uint8Array.from(p.tf);
      p.df = new Uint32Array(this.fieldCount);
      for (let i = 0; i < p.tf.length; i++) if (p.tf[i]! > 0) p.df[i % this.fieldCount]!++;
    }
    const n = Math.max(1, this.ids.length);
    this.avg = Array.from({ length: this.fieldCount }, (_, f) => {
      let sum = 0;
      for (let d = 0; d < this.ids.length; d++) sum += this.lengths[d * this.fieldCount + f]!;
      return Math.max(1, sum / n);
    });
  }

  private add(doc: IndexedDoc): void {
    const index = this.ids.length;
    this.ids.push(doc.id);
    // Each term's counts in the (at most four) fields packed into one number, 8 bits a field: no small
    // array per term and document, which was most of the build's time and garbage.
    const counts = new Map<string, number>();
    for (let f = 0; f < this.fieldCount; f++) {
      const tokens = this.tokenize(doc.fields[f] ?? "");
      this.lengths.push(tokens.length);
      const unit = 2 ** (8 * f);
      for (const token of tokens) {
        const packed = counts.get(token) ?? 0;
        if (Math.floor(packed / unit) % 256 < 255) counts.set(token, packed + unit);
      }
    }
    for (const [token, packed] of counts) {
      let p = this.terms.get(token);
      if (!p) {
        p = { docs: [], tf: [] };
        this.terms.set(token, p);
      }
      (p.docs as number[]).push(index);
      const tf = p.tf as number[];
      for (let f = 0, rest = packed; f < this.fieldCount; f++, rest = Math.floor(rest / 256))
        tf.push(rest % 256);
    }
  }

  /** How many documents hold every one of `tokens`. */
  documentFrequency(tokens: string[]): number {
    return this.matchAll(tokens, () => true).size;
  }

  /**
   * Documents that hold every token (AND), with their BM25F score summed over the tokens, for documents
   * `allowed` admits.
   */
  search(tokens: string[], allowed: (id: string) => boolean): Map<string, number> {
    const matched = this.matchAll(tokens, allowed);
    const out = new Map<string, number>();
    if (matched.size === 0) return out;
    const n = this.ids.length;
    for (const token of new Set(tokens)) {
      const p = this.terms.get(token)!;
      // BM25+ per field, summed with the field boosts (the scoring MiniSearch uses, measured best here).
      const idf = Array.from(p.df!, (df) => Math.log(1 + (n - df + 0.5) / (df + 0.5)));
      for (let i = 0; i < p.docs.length; i++) {
        const d = p.docs[i]!;
        if (!matched.has(d)) continue;
        let score = 0;
        for (let f = 0; f < this.fieldCount; f++) {
          const tf = p.tf[i * this.fieldCount + f]!;
          if (tf === 0) continue;
          const norm = 1 - B + (B * this.lengths[d * this.fieldCount + f]!) / this.avg[f]!;
          score += this.boosts[f]! * idf[f]! * (DELTA + (tf * (K1 + 1)) / (tf + K1 * norm));
        }
        const id = this.ids[d]!;
        out.set(id, (out.get(id) ?? 0) + score);
      }
    }
    return out;
  }

  private matchAll(tokens: string[], allowed: (id: string) => boolean): Set<number> {
    const lists = [...new Set(tokens)].map((t) => this.terms.get(t));
    if (lists.length === 0 || lists.some((l) => !l)) return new Set();
    const sorted = (lists as Postings[]).sort((a, b) => a.docs.length - b.docs.length);
    let current = new Set<number>();
    for (const d of sorted[0]!.docs) if (allowed(this.ids[d]!)) current.add(d);
    for (const list of sorted.slice(1)) {
      if (current.size === 0) break;
      const next = new Set<number>();
      for (const d of list.docs) if (current.has(d)) next.add(d);
      current = next;
    }
    return current;
  }
}
