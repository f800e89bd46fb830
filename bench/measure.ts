/**
 * Timing helpers for the benchmarks: run an operation repeatedly for a time budget, several
 * rounds, and report the median rate. Benchmarks print and write numbers; they assert nothing.
 */
import { performance } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

export interface Rate {
  readonly opsPerSecond: number;
  readonly microsPerOp: number;
}

export async function rate(fn: () => unknown | Promise<unknown>, budgetMs = 300, rounds = 5): Promise<Rate> {
  const results: number[] = [];
  for (let i = 0; i < 50; i++) await fn(); // warm-up
  for (let r = 0; r < rounds; r++) results.push(await round(fn, budgetMs));
  return median(results);
}

/**
 * Two operations measured in alternating rounds (a, b, a, b, …), each rate the median of its
 * rounds. A ratio of the two is then not skewed by the shared host getting busier or quieter
 * between one measurement and the other (seen: the same build's ratio moving by a third).
 */
export async function ratePair(a: () => unknown | Promise<unknown>, b: () => unknown | Promise<unknown>, budgetMs = 300, rounds = 5): Promise<[Rate, Rate]> {
  const ra: number[] = [];
  const rb: number[] = [];
  for (let i = 0; i < 50; i++) {
    await a();
    await b();
  }
  for (let r = 0; r < rounds; r++) {
    ra.push(await round(a, budgetMs));
    rb.push(await round(b, budgetMs));
  }
  return [median(ra), median(rb)];
}

/** One round: ops per second over `budgetMs`. */
async function round(fn: () => unknown | Promise<unknown>, budgetMs: number): Promise<number> {
  let n = 0;
  const start = performance.now();
  let now = start;
  while (now - start < budgetMs) {
    await fn();
    n++;
    now = performance.now();
  }
  return (n * 1000) / (now - start);
}

function median(results: number[]): Rate {
  const sorted = [...results].sort((x, y) => x - y);
  const ops = sorted[Math.floor(sorted.length / 2)]!;
  return { opsPerSecond: ops, microsPerOp: 1e6 / ops };
}

export async function timeOnce(fn: () => unknown | Promise<unknown>): Promise<number> {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}

export async function medianMs(fn: () => unknown | Promise<unknown>, runs: number): Promise<number> {
  const xs: number[] = [];
  for (let i = 0; i < runs; i++) xs.push(await timeOnce(fn));
  xs.sort((a, b) => a - b);
  return xs[Math.floor(xs.length / 2)]!;
}

export function fmt(n: number): string {
  return n >= 100 ? Math.round(n).toLocaleString('en-US') : n.toFixed(2);
}

let gc: (() => void) | undefined;

/**
 * A full garbage collection now, so that what an earlier benchmark left (hundreds of MB after the
 * 100,000-object stores) is not collected inside a later one's timings.
 */
export function collectGarbage(): void {
  if (gc === undefined) {
    setFlagsFromString('--expose-gc');
    gc = runInNewContext('gc') as () => void;
  }
  gc();
}
