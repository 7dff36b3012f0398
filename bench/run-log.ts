// 8. The run log: what `withRunLog` adds to a step of the loop (issue 44: at most 10 %). The same 200-step
// run over ten static tools with and without the log (content recorded, the default), interleaved (which
// goes first alternates), after warm-up rounds. A sample is a block of runs, not one run: a run is a few
// milliseconds, and one collector pause or time slice of another process landing in it moved single-run
// ratios from 0.5 to 3 (docs/performance.md, round 7). Per block: the per-step wall time (first model
// call to last, over the steps: the docs' per-step time) and the process's CPU time in that same window
// (which a loaded machine moves less); and, apart, the CPU of the whole runs, which also holds what a run
// pays once (creating its file, its end).
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { PromptRunner } from "entity-tools";
import { modelCallTimes } from "./loop-overhead.js";
import { median, ratio, type BenchRow, type RatioSummary } from "./measure.js";
import { forgetful } from "./mock-model.js";

const STEPS = 200;
/** Runs per sample. */
const BLOCK = 8;
const ROUNDS = 31;
const GOAL = 1.1;

interface BlockTimes {
  /** Wall time of a step, ms (first model call to last). */
  readonly step: number;
  /** CPU time of the process per step in that window, ms. */
  readonly stepCpu: number;
  /** CPU time of the whole runs per step, ms. */
  readonly cpu: number;
}

async function measure(configure?: (runner: PromptRunner) => PromptRunner): Promise<BlockTimes> {
  let step = 0;
  let stepCpu = 0;
  const cpu = process.cpuUsage();
  for (let i = 0; i < BLOCK; i++) {
    const cpuAt: number[] = [];
    const calledAt = await modelCallTimes(STEPS, forgetful, configure, cpuAt);
    step += (calledAt.at(-1)! - calledAt[0]!) / (STEPS - 1);
    stepCpu += (cpuAt[1]! - cpuAt[0]!) / (STEPS - 1);
  }
  const used = process.cpuUsage(cpu);
  return {
    step: step / BLOCK,
    stepCpu: stepCpu / BLOCK,
    cpu: (used.user + used.system) / 1000 / STEPS / BLOCK,
  };
}

const summary = (values: number[]): RatioSummary => ({
  median: median(values),
  min: Math.min(...values),
  max: Math.max(...values),
});

export async function runLogOverhead(): Promise<BenchRow[]> {
  const dir = mkdtempSync(path.join(tmpdir(), "bench-run-log-"));
  const logged = (runner: PromptRunner) => runner.withRunLog(dir);
  const plain: BlockTimes[] = [];
  const withLog: BlockTimes[] = [];
  try {
    for (let round = -3; round < ROUNDS; round++) {
      let a: BlockTimes;
      let b: BlockTimes;
      if (round % 2 === 0) {
        a = await measure();
        b = await measure(logged);
      } else {
        b = await measure(logged);
        a = await measure();
      }
      // A folder of thousands of files makes creating the next one dearer: each round starts empty.
      rmSync(dir, { recursive: true, force: true });
      mkdirSync(dir);
      if (round < 0) continue; // warm-up
      plain.push(a);
      withLog.push(b);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const ratios = (key: keyof BlockTimes) => summary(withLog.map((b, i) => b[key] / plain[i]![key]));
  const wall = ratios("step");
  const stepCpu = ratios("stepCpu");
  const cpu = ratios("cpu");
  const us = (runs: BlockTimes[], key: keyof BlockTimes) =>
    `${(median(runs.map((r) => r[key])) * 1000).toFixed(1)} µs`;
  const row = (measure: string, value: string, met?: boolean): BenchRow => ({
    bench: "8 run log",
    measure,
    value,
    goal: met === undefined ? "" : `≤ ${GOAL.toFixed(2)}`,
    met,
  });
  const blocks = `${ROUNDS} blocks of ${BLOCK} runs`;
  return [
    row(
      `step with withRunLog / without, ${STEPS} steps × 10 tools, ${blocks} (wall)`,
      ratio(wall),
      wall.median <= GOAL,
    ),
    row("the same in the process's CPU time, in the same window", ratio(stepCpu), stepCpu.median <= GOAL),
    row("CPU of the whole runs, with what a run pays once (its file, its end)", ratio(cpu)),
    row(
      "a step without / with the log: wall; CPU in the window",
      `${us(plain, "step")} / ${us(withLog, "step")}; ${us(plain, "stepCpu")} / ${us(withLog, "stepCpu")}`,
    ),
  ];
}
