// 8. The run log: what `withRunLog` adds to a step of the loop (issue 44: at most 10 %). The same 200-step
// run over ten static tools with and without the log (content recorded, the default), interleaved (which
// goes first alternates), after warm-up rounds: one ratio per round of the runs' per-step times (first
// model call to last, over the steps: the docs' per-step time), and, since a loaded machine moves wall
// time a lot, of the CPU time (user + system, the thread pool's writes included) of the whole runs, which
// also holds what a run pays once (its file, its conversation's fingerprint).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { PromptRunner } from "entity-tools";
import { modelCallTimes } from "./loop-overhead.js";
import { median, ratio, type BenchRow, type RatioSummary } from "./measure.js";
import { forgetful } from "./mock-model.js";

const STEPS = 200;
// A round is two runs of a few milliseconds each, which a time slice of another process can double: the
// median needs many of them on a shared machine (21 rounds left medians 1.1–1.8 apart between processes).
const ROUNDS = 61;
const GOAL = 1.1;

interface RunTimes {
  /** Wall time of a step, ms. */
  readonly step: number;
  /** CPU time of the whole run per step, ms. */
  readonly cpu: number;
}

async function measure(configure?: (runner: PromptRunner) => PromptRunner): Promise<RunTimes> {
  const cpu = process.cpuUsage();
  const calledAt = await modelCallTimes(STEPS, forgetful, configure);
  const used = process.cpuUsage(cpu);
  return {
    step: (calledAt.at(-1)! - calledAt[0]!) / (STEPS - 1),
    cpu: (used.user + used.system) / 1000 / STEPS,
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
  const plain: RunTimes[] = [];
  const withLog: RunTimes[] = [];
  try {
    for (let round = -3; round < ROUNDS; round++) {
      let a: RunTimes;
      let b: RunTimes;
      if (round % 2 === 0) {
        a = await measure();
        b = await measure(logged);
      } else {
        b = await measure(logged);
        a = await measure();
      }
      if (round < 0) continue; // warm-up
      plain.push(a);
      withLog.push(b);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const wall = summary(withLog.map((b, i) => b.step / plain[i]!.step));
  const cpu = summary(withLog.map((b, i) => b.cpu / plain[i]!.cpu));
  const us = (runs: RunTimes[], key: keyof RunTimes) =>
    `${(median(runs.map((r) => r[key])) * 1000).toFixed(0)} µs`;
  const row = (measure: string, value: string, met?: boolean): BenchRow => ({
    bench: "8 run log",
    measure,
    value,
    goal: met === undefined ? "" : `≤ ${GOAL.toFixed(2)}`,
    met,
  });
  return [
    row(`step with withRunLog / without, ${STEPS} steps × 10 tools (wall)`, ratio(wall), wall.median <= GOAL),
    row("the same in CPU time of the whole run, per step", ratio(cpu), cpu.median <= GOAL),
    row(
      "a step without / with the log (wall; CPU)",
      `${us(plain, "step")} / ${us(withLog, "step")}; ${us(plain, "cpu")} / ${us(withLog, "cpu")}`,
    ),
  ];
}
