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
 * Each of `arms` sampled `rounds` times, the order rotating each round (so each goes first as often), after
 * `warmup` rounds that are thrown away (the JIT and the heap settle in them); `betweenRounds` runs after each
 * round, outside every sample. An arm's sample is whatever it returns: a block of runs, not one run, when
 * one run is a few milliseconds or less, or one collector pause or time slice of another process landing in
 * it decides the round (docs/performance.md, rounds 7 and 13).
 */
export async function interleaved<K extends string, T>(
  rounds: number,
  arms: Record<K, () => Promise<T>>,
  { warmup = 3, betweenRounds }: { warmup?: number; betweenRounds?: () => void } = {},
): Promise<Record<K, T[]>> {
  const names = Object.keys(arms) as K[];
  const samples = Object.fromEntries(names.map((name) => [name, []])) as unknown as Record<K, T[]>;
  for (let round = -warmup; round < rounds; round++) {
    const shift = (round + warmup) % names.length;
    const got = new Map<K, T>();
    for (let k = 0; k < names.length; k++) {
      const name = names[(k + shift) % names.length]!;
      got.set(name, await arms[name]());
    }
    betweenRounds?.();
    if (round < 0) continue; // warm-up
    for (const [name, sample] of got) samples[name].push(sample);
  }
  return samples;
}

/** A block's time per run, ms: wall, and the process's CPU time (every thread) in the same window. */
export interface BlockTimes {
  readonly wall: number;
  readonly cpu: number;
}

/**
 * `runs` runs of `fn`, one after another: one sample of {@link interleaved}. Its CPU time is what a loaded
 * machine moves least: a time slice of another process lengthens the wall time and not this.
 */
export async function block(fn: () => Promise<unknown>, runs: number): Promise<BlockTimes> {
  const cpu = process.cpuUsage();
  const start = performance.now();
  for (let i = 0; i < runs; i++) await fn();
  const wall = performance.now() - start;
  const used = process.cpuUsage(cpu);
  return { wall: wall / runs, cpu: (used.user + used.system) / 1000 / runs };
}

/** The median of `values` with their spread. */
export const summary = (values: number[]): RatioSummary => ({
  median: median(values),
  min: Math.min(...values),
  max: Math.max(...values),
});

/** A ratio of blocks, wall and CPU, each per round, with each side's median time per run (ms). */
export interface BlockRatio {
  readonly wall: RatioSummary;
  readonly cpu: RatioSummary;
  readonly a: BlockTimes;
  readonly b: BlockTimes;
}

/**
 * `a`'s time per run over `b`'s in blocks of `runs` runs a side (or `[a's, b's]`, for sides whose runs
 * differ much in length), one ratio per round of {@link interleaved} (three warm-up rounds first), so load
 * on a shared machine hits both sides of each ratio alike and no single pause decides one.
 */
export async function blockRatio(
  a: () => Promise<unknown>,
  b: () => Promise<unknown>,
  rounds: number,
  runs: number | readonly [number, number],
): Promise<BlockRatio> {
  const [runsA, runsB] = typeof runs === "number" ? [runs, runs] : runs;
  const got = await interleaved(rounds, { a: () => block(a, runsA), b: () => block(b, runsB) });
  const ratioOf = (key: keyof BlockTimes) => summary(got.a.map((t, i) => t[key] / got.b[i]![key]));
  const medians = (blocks: BlockTimes[]) => ({
    wall: median(blocks.map((t) => t.wall)),
    cpu: median(blocks.map((t) => t.cpu)),
  });
  return { wall: ratioOf("wall"), cpu: ratioOf("cpu"), a: medians(got.a), b: medians(got.b) };
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

/**
 * The rows of a ratio of blocks against its goal (at most `goal`, judged on wall time as before), and the
 * same ratio in the process's CPU time beside it, without a goal of its own: the one to read when other
 * processes load the machine (it also counts the process's collector and compiler threads).
 */
export function blockRatioRows(
  bench: string,
  measure: string,
  measured: { readonly wall: RatioSummary; readonly cpu: RatioSummary },
  goal: number,
): BenchRow[] {
  return [
    { bench, measure, value: ratio(measured.wall), goal: `≤ ${goal}`, met: measured.wall.median <= goal },
    {
      bench,
      measure: "the same in the process's CPU time, same blocks",
      value: ratio(measured.cpu),
      goal: "",
      met: undefined,
    },
  ];
}
