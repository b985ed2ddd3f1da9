/** Load helpers of the soak suite: a bounded pool, percentiles, one /chat turn, and the result table. */

/** Runs task(0..count-1) with at most `concurrency` in flight; resolves with the results in order. */
export async function runPool<T>(
  count: number,
  concurrency: number,
  task: (index: number) => Promise<T>,
): Promise<T[]> {
  const results = new Array<T>(count);
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const i = next++;
      results[i] = await task(i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
  return results;
}

/** The p-th percentile (0–100) of a list of numbers. */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

export interface TurnResult {
  status: number;
  ms: number;
  /** Completion time (performance.now()). */
  at: number;
  // biome-ignore lint/suspicious/noExplicitAny: the /chat JSON, read field by field
  body?: any;
  error?: string;
}

/** One POST /chat; network errors are a result with status 0, never a throw. */
export async function chatTurn(baseUrl: string, message: string, threadId: string): Promise<TurnResult> {
  const start = performance.now();
  try {
    const res = await fetch(`${baseUrl}/chat`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ message, threadId }),
    });
    const text = await res.text();
    const body = res.headers.get("content-type")?.includes("json") ? JSON.parse(text) : undefined;
    return { status: res.status, ms: performance.now() - start, at: performance.now(), body };
  } catch (error) {
    return { status: 0, ms: performance.now() - start, at: performance.now(), error: String(error) };
  }
}

/** Questions the offline planner answers with searches, varied so that ranking and details run. */
export const SOAK_QUESTIONS = [
  "東京都でIT導入に使える補助金は？",
  "従業員20人の製造業が使える省エネ設備の補助金",
  "締切が近い創業支援の補助金を教えて",
  "事業承継やM&Aに使える補助金を教えて",
  "大阪府の観光やインバウンド対応の補助金",
  "2番目の詳細は？",
  "他には？",
];

/** One line of the final table. */
export interface Row {
  phase: string;
  check: string;
  figure: string;
  target: string;
  ok: boolean;
}

/** Prints the rows as an aligned table. */
export function printTable(rows: Row[]): void {
  const head = { phase: "phase", check: "check", figure: "figure", target: "target", ok: "result" };
  const cells = [head, ...rows.map((r) => ({ ...r, ok: r.ok ? "PASS" : "FAIL" }))];
  const keys = ["phase", "check", "figure", "target", "ok"] as const;
  const width = (k: (typeof keys)[number]) => Math.max(...cells.map((c) => String(c[k]).length));
  const line = (c: (typeof cells)[number]) =>
    `| ${keys.map((k) => String(c[k]).padEnd(width(k))).join(" | ")} |`;
  console.log(line(cells[0]!));
  console.log(`|${keys.map((k) => "-".repeat(width(k) + 2)).join("|")}|`);
  for (const c of cells.slice(1)) console.log(line(c));
}

export const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
export const secs = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
