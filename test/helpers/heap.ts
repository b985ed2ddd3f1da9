/**
 * Heap growth per operation, measured after full garbage collections: the regression check for leaks
 * (a retained closure per call shows up as kilobytes per operation; a flat heap as a few bytes).
 */
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

async function settledHeap(): Promise<number> {
  for (let i = 0; i < 3; i++) {
    await new Promise((resolve) => setImmediate(resolve));
    gc();
  }
  return process.memoryUsage().heapUsed;
}

/** Runs `op` `warmup` times, then `count` times, and returns the heap growth in bytes per op of the second run. */
export async function heapGrowthPerOp(
  op: (i: number) => Promise<unknown>,
  { warmup, count }: { warmup: number; count: number },
): Promise<number> {
  for (let i = 0; i < warmup; i++) await op(i);
  const before = await settledHeap();
  for (let i = 0; i < count; i++) await op(warmup + i);
  const after = await settledHeap();
  return (after - before) / count;
}
