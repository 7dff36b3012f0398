/** Median of `samples` timings (ms) of `fn`, after `warmup` untimed runs. */
export async function medianMs(fn: () => unknown, samples = 30, warmup = 5): Promise<number> {
  for (let i = 0; i < warmup; i++) await fn();
  const times: number[] = [];
  for (let i = 0; i < samples; i++) {
    const start = performance.now();
    await fn();
    times.push(performance.now() - start);
  }
  return median(times);
}

/** The median of `values`. */
export function median(values: number[]): number {
  const sorted = [...values].sort((x, y) => x - y);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** A row of the printed table. */
export interface BenchRow {
  readonly bench: string;
  readonly measure: string;
  readonly value: string;
  readonly goal: string;
  readonly met: boolean | undefined;
}

export const ms = (value: number) => `${value.toFixed(value < 1 ? 3 : 2)} ms`;

/** The median of per-round ratios, with their spread. */
export interface RatioSummary {
  readonly median: number;
  readonly min: number;
  readonly max: number;
}

/**
 * `a`'s time over `b`'s, measured as one ratio per round (the two run back to back, alternating which
 * goes first), so load on a shared machine hits both sides of each ratio alike.
 */
export async function ratioRounds(a: () => unknown, b: () => unknown, rounds: number): Promise<RatioSummary> {
  const ratios: number[] = [];
  for (let i = 0; i < rounds; i++) {
    let ta: number;
    let tb: number;
    if (i % 2 === 0) {
      ta = await timed(a);
      tb = await timed(b);
    } else {
      tb = await timed(b);
      ta = await timed(a);
    }
    ratios.push(ta / tb);
  }
  return { median: median(ratios), min: Math.min(...ratios), max: Math.max(...ratios) };
}

async function timed(fn: () => unknown): Promise<number> {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}

export const ratio = (r: RatioSummary) => `${r.median.toFixed(2)} (${r.min.toFixed(2)}–${r.max.toFixed(2)})`;
