/**
 * Text analysis for the catalog: normalisation (NFKC, width, case) and the tokenizers the index can use.
 * Japanese has no spaces, so words are found by one of three analysers (compared in README.md):
 * character bigrams of Japanese runs, ICU word segmentation (Intl.Segmenter), or both.
 */

/** NFKC (full/half width, compatibility forms) plus lower case: ＩｏＴ = IoT = iot, ｶﾀｶﾅ = カタカナ. */
export function fold(text: string): string {
  return text.normalize("NFKC").toLowerCase();
}

/** A run of Japanese letters (kanji, kana, the prolonged sound mark, iteration marks). */
const JAPANESE_RUN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}ー々〆ヶ]+/gu;
/** A Latin or number word, keeping inner hyphens and dots (wi-fi, 5g, iot, r&d is split). */
const LATIN_WORD = /[a-z0-9]+(?:[-.][a-z0-9]+)*/g;
const HIRAGANA_ONLY = /^[\p{Script=Hiragana}ー]+$/u;

/** Latin words of at least two characters (a lone letter or digit says nothing). */
export function latinWords(folded: string): string[] {
  return (folded.match(LATIN_WORD) ?? []).filter((w) => w.length >= 2);
}

const SURROGATE = /[\uD800-\uDFFF]/;

/** Overlapping character bigrams of every Japanese run (a one-character run is kept as it is). */
export function bigrams(folded: string, out: string[] = []): string[] {
  for (const run of folded.match(JAPANESE_RUN) ?? []) {
    // Characters beyond the BMP (rare kanji) take two code units: split those runs by code point.
    const chars = SURROGATE.test(run) ? [...run] : null;
    const length = chars ? chars.length : run.length;
    if (length === 1) {
      out.push(run);
      continue;
    }
    for (let i = 0; i + 1 < length; i++)
      out.push(chars ? chars[i]! + chars[i + 1]! : run.substring(i, i + 2));
  }
  return out;
}

const segmenter = new Intl.Segmenter("ja", { granularity: "word" });

/** ICU dictionary words of the Japanese text (hiragana-only words, mostly particles, are dropped). */
export function icuWords(folded: string): string[] {
  const out: string[] = [];
  for (const run of folded.match(JAPANESE_RUN) ?? []) {
    for (const s of segmenter.segment(run)) {
      if (s.isWordLike && !HIRAGANA_ONLY.test(s.segment)) out.push(s.segment);
    }
  }
  return out;
}

export type AnalyzerName = "bigram" | "icu" | "icu+bigram";

/** The index-time tokenizer of an analyser: Latin words plus its Japanese units. */
export function tokenizerOf(name: AnalyzerName): (text: string) => string[] {
  return (text) => {
    const folded = fold(text);
    const latin = latinWords(folded);
    if (name === "bigram") return bigrams(folded, latin);
    if (name === "icu") return [...latin, ...icuWords(folded)];
    return [...latin, ...icuWords(folded), ...bigrams(folded)];
  };
}

/** A folded word as the user wrote it (「it導入」 → 「IT導入」), when it occurs in their text; else as is. */
export function asWritten(word: string, text: string): string {
  const written = text.normalize("NFKC");
  const at = written.toLowerCase().indexOf(word);
  return at >= 0 && written.length === written.toLowerCase().length
    ? written.slice(at, at + word.length)
    : word;
}
