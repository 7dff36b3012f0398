// 8. The run log: what `withRunLog` adds to a step of the loop (issue 44: at most 10 %). The loop's step is
// measured as a user's runs make it: each model call through a real provider package (`@ai-sdk/openai`'s
// Responses model over an in-process `fetch`: the package builds the request and parses the answer, with no
// network and no model behind it), the least a step outside a test costs. The same 200-step run over ten
// static tools with and without the log (content recorded, the default), interleaved (which goes first
// rotates), after warm-up rounds. A sample is a block of runs, not one run: one collector pause or time slice
// of another process landing in a run moved single-run ratios from 0.5 to 3 (docs/performance.md, round 7).
// Per block: the per-step wall time (first model call to last, over the steps) and the process's CPU time in
// that same window (which a loaded machine moves less).
//
// Beside it, without a goal (docs/performance.md, round 16, says why the goal is not set there): the same run
// against the instant scripted model, whose step is the loop's own overhead alone (14–55 µs on the bench's
// machines, to which the log adds a fifth to a third; writing no more than each call's input and result
// costs about a tenth of it already);
// the CPU of those whole runs, with what a run pays once (its file, its end); and what a user would write
// instead (an observer writing each event as a JSON line to a file stream, in the same rounds).
import { createWriteStream, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { LanguageModel } from "ai";
import type { PromptRunner } from "entity-tools";
import type { ScriptedTurn } from "entity-tools/testing";
import { modelCallTimes } from "./loop-overhead.js";
import { interleaved, median, ratio, summary, type BenchRow } from "./measure.js";
import { forgetful } from "./mock-model.js";
import { wireModel } from "./provider-wire.js";

const STEPS = 200;
/** Runs per sample: the scripted model's, the provider package's (a run of it is 15–20 times as long). */
const BLOCK = 8;
const WIRE_BLOCK = 3;
const ROUNDS = 31;
const WIRE_ROUNDS = 31;
const GOAL = 1.1;

type Configure = (runner: PromptRunner) => PromptRunner;
type ModelOf = (turn: (step: number) => ScriptedTurn) => LanguageModel;

interface BlockTimes {
  /** Wall time of a step, ms (first model call to last). */
  readonly step: number;
  /** CPU time of the process per step in that window, ms. */
  readonly stepCpu: number;
  /** CPU time of the whole runs per step, ms. */
  readonly cpu: number;
}

async function measure(configure?: Configure, model: ModelOf = forgetful, runs = BLOCK): Promise<BlockTimes> {
  let step = 0;
  let stepCpu = 0;
  const cpu = process.cpuUsage();
  for (let i = 0; i < runs; i++) {
    const cpuAt: number[] = [];
    const calledAt = await modelCallTimes(STEPS, model, configure, cpuAt);
    step += (calledAt.at(-1)! - calledAt[0]!) / (STEPS - 1);
    stepCpu += (cpuAt[1]! - cpuAt[0]!) / (STEPS - 1);
  }
  const used = process.cpuUsage(cpu);
  return {
    step: step / runs,
    stepCpu: stepCpu / runs,
    cpu: (used.user + used.system) / 1000 / STEPS / runs,
  };
}

/** Files of the hand-written log, named apart across blocks and rounds. */
let handWrittenFiles = 0;

/**
 * A block with what a user would write instead of `withRunLog`: each event as a line of JSON, to a file
 * stream of the run's own. The block ends when every stream has closed (outside the timed window).
 */
async function measureHandWritten(dir: string): Promise<BlockTimes> {
  const closed: Promise<void>[] = [];
  const times = await measure((runner) => {
    const out = createWriteStream(path.join(dir, `hand-written-${++handWrittenFiles}.jsonl`));
    closed.push(new Promise((resolve, reject) => out.on("close", resolve).on("error", reject)));
    return runner.withObserver((event) => {
      out.write(`${JSON.stringify(event)}\n`);
      if (event.type === "RunFinished") out.end();
    });
  });
  await Promise.all(closed);
  return times;
}

const ratios = (over: BlockTimes[], under: BlockTimes[], key: keyof BlockTimes) =>
  summary(over.map((b, i) => b[key] / under[i]![key]));

const us = (runs: BlockTimes[], key: keyof BlockTimes) =>
  `${(median(runs.map((r) => r[key])) * 1000).toFixed(1)} µs`;

export async function runLogOverhead(): Promise<BenchRow[]> {
  const dir = mkdtempSync(path.join(tmpdir(), "bench-run-log-"));
  const logged: Configure = (runner) => runner.withRunLog(dir);
  const throughOpenAi: ModelOf = (turn) => wireModel("openai", turn, false).model;
  let scripted: Record<"plain" | "withLog" | "handWritten", BlockTimes[]>;
  let wire: Record<"plain" | "withLog", BlockTimes[]>;
  try {
    // A folder of thousands of files makes creating the next one dearer: each round starts empty.
    const betweenRounds = () => {
      rmSync(dir, { recursive: true, force: true });
      mkdirSync(dir);
    };
    scripted = await interleaved(
      ROUNDS,
      {
        plain: () => measure(),
        withLog: () => measure(logged),
        handWritten: () => measureHandWritten(dir),
      },
      { betweenRounds },
    );
    wire = await interleaved(
      WIRE_ROUNDS,
      {
        plain: () => measure(undefined, throughOpenAi, WIRE_BLOCK),
        withLog: () => measure(logged, throughOpenAi, WIRE_BLOCK),
      },
      { betweenRounds },
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const { plain, withLog, handWritten } = scripted;
  const wireWall = ratios(wire.withLog, wire.plain, "step");
  const wireCpu = ratios(wire.withLog, wire.plain, "stepCpu");
  const row = (measure: string, value: string, met?: boolean): BenchRow => ({
    bench: "8 run log",
    measure,
    value,
    goal: met === undefined ? "" : `≤ ${GOAL.toFixed(2)}`,
    met,
  });
  return [
    row(
      `step with withRunLog / without, each through @ai-sdk/openai (in-process fetch), ${STEPS} steps × 10 tools, ${WIRE_ROUNDS} blocks of ${WIRE_BLOCK} runs (wall)`,
      ratio(wireWall),
      wireWall.median <= GOAL,
    ),
    row("the same in the process's CPU time, in the same window", ratio(wireCpu), wireCpu.median <= GOAL),
    row(
      "through @ai-sdk/openai: a step without / with the log: wall; CPU in the window",
      `${us(wire.plain, "step")} / ${us(wire.withLog, "step")}; ${us(wire.plain, "stepCpu")} / ${us(wire.withLog, "stepCpu")}`,
    ),
    row(
      `against the instant scripted model (the loop's own overhead): with / without, ${ROUNDS} blocks of ${BLOCK} runs (wall); CPU in the window`,
      `${ratio(ratios(withLog, plain, "step"))}; ${ratio(ratios(withLog, plain, "stepCpu"))}`,
    ),
    row(
      "the scripted model: CPU of the whole runs, with what a run pays once (its file, its end)",
      ratio(ratios(withLog, plain, "cpu")),
    ),
    row(
      "the scripted model: a step without / with the log: wall; CPU in the window",
      `${us(plain, "step")} / ${us(withLog, "step")}; ${us(plain, "stepCpu")} / ${us(withLog, "stepCpu")}`,
    ),
    row(
      "the scripted model: step with withRunLog / with a hand-written log (each event's JSON to a file stream), wall",
      ratio(ratios(withLog, handWritten, "step")),
    ),
  ];
}
