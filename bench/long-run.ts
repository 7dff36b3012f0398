// 1. Loop overhead in a long run: a step late in a 2 000-step run against one early in it.
import { modelCallTimes } from "./loop-overhead.js";
import { median, ms, ratio, type BenchRow, type RatioSummary } from "./measure.js";
import { forgetful } from "./mock-model.js";

const LONG_RUN = 2_000;
const LONG_ROUNDS = 11;
const BLOCK = 100;

/**
 * A step early and late in one 2 000-step run: the median step (model call to the next) of steps 2–101
 * and of steps 1 900–1 999, and their ratio per run, median of 11 runs. The median step, because on a
 * shared machine a block's mean is set by the few steps a GC pause or another process landed in; work
 * that grew with the conversation would be in every step, and so in the median.
 */
async function longRun(): Promise<{ early: number; late: number; growth: RatioSummary }> {
  const early: number[] = [];
  const late: number[] = [];
  const growths: number[] = [];
  for (let round = -1; round < LONG_ROUNDS; round++) {
    const calledAt = await modelCallTimes(LONG_RUN, forgetful);
    if (round < 0) continue; // warm-up
    // calledAt[k] is call k + 1; a step is one call to the next
    const steps = (from: number) =>
      median(Array.from({ length: BLOCK }, (_, i) => calledAt[from + i]! - calledAt[from + i - 1]!));
    const e = steps(2);
    const l = steps(LONG_RUN - BLOCK);
    early.push(e);
    late.push(l);
    growths.push(l / e);
  }
  return {
    early: median(early),
    late: median(late),
    growth: { median: median(growths), min: Math.min(...growths), max: Math.max(...growths) },
  };
}

const row = (measure: string, value: string, goal = "", met?: boolean): BenchRow => ({
  bench: "1 loop overhead",
  measure,
  value,
  goal,
  met,
});

export async function longRunRows(): Promise<BenchRow[]> {
  const long = await longRun();
  return [
    row(`run(): median step of steps 2–101 of a ${LONG_RUN}-step run`, ms(long.early)),
    row(`run(): median step of steps ${LONG_RUN - BLOCK}–${LONG_RUN - 1} of the same run`, ms(long.late)),
    row(
      `run(): late step / early step of a ${LONG_RUN}-step run, median (spread) of ${LONG_ROUNDS} runs`,
      ratio(long.growth),
      "≤ 1.2", // issue 37 (it was ≤ 1.3)
      long.growth.median <= 1.2,
    ),
  ];
}
