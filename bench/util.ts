import { performance } from 'node:perf_hooks';

/** Median of `runs` timings of `fn` in milliseconds (after one warm-up run). */
export async function medianMs(fn: () => unknown, runs = 15): Promise<number> {
  await fn();
  const times: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    const start = performance.now();
    await fn();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

/** Prints one row: name, figure, target and whether the figure meets it. */
export function report(name: string, ms: number, targetMs?: number): void {
  const verdict = targetMs === undefined ? '' : ms <= targetMs ? `  (target < ${targetMs} ms: met)` : `  (target < ${targetMs} ms: MISSED)`;
  console.log(`${name.padEnd(58)} ${ms.toFixed(2).padStart(9)} ms${verdict}`);
}
