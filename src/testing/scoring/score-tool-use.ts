import {
  expectationOf,
  matchesCall,
  offeredAmong,
  offeredAt,
  onAnotherEntity,
  type Expectation,
  type ExpectedToolCall,
} from "./expected-call.js";
import { summarize, type ToolUseSummary } from "./tool-use-summary.js";
import type {
  ScoreToolUseOptions,
  ToolUseScore,
  ToolUseVerdict,
  ToolUseVerdictKind,
} from "./tool-use-verdict.js";
import { toolUseRunOf, type ToolUseSource } from "./tool-use-source.js";
import type { ToolUseCall, ToolUseRun } from "./tool-use-run.js";

/** {@link scoreToolUse}: a function, with `many` for a summary over runs. */
export interface ScoreToolUse {
  /**
   * Scores a run's tool use against the calls expected of it: per expected call a verdict with its step,
   * and a score from 0 to 1. Only entity-tools can tell "not offered" (the discovery or the budget never
   * put the tool in front of the model) from "offered, not chosen" (it was there; the model picked
   * otherwise), because it knows what each step offered. A pure function; see docs/testing.md, "Scoring
   * tool use", for what each source knows.
   */
  (run: ToolUseSource, expected: readonly ExpectedToolCall[], options?: ScoreToolUseOptions): ToolUseScore;
  /** Summarizes many runs (an eval over N prompts), scoring each against `expected` first. */
  many(
    runs: readonly ToolUseSource[],
    expected: readonly ExpectedToolCall[],
    options?: ScoreToolUseOptions,
  ): ToolUseSummary;
  /** Summarizes scores already made (each run with its own expected calls). */
  many(scores: readonly ToolUseScore[]): ToolUseSummary;
}

/**
 * Scores a run's tool use: per expected call a verdict (called, out of order, on another entity, offered
 * but not chosen, not offered) with its step, and a score from 0 to 1; `scoreToolUse.many` summarizes runs.
 * See {@link ScoreToolUse}.
 */
export const scoreToolUse: ScoreToolUse = Object.assign(score, { many });

function score(
  run: ToolUseSource,
  expected: readonly ExpectedToolCall[],
  options: ScoreToolUseOptions = {},
): ToolUseScore {
  const settings = { order: options.order ?? "in-order", match: options.match ?? "subset" } as const;
  const read = toolUseRunOf(run);
  const calls = read.steps.flatMap((s) => s.calls);
  const used = new Set<number>();
  // In order: the step of the call matched before, from which the next expected call is looked for. By
  // step, not by place: the calls of one step came in one model message, made together, so their order
  // there (or the order they ended in) says nothing of the model's plan.
  let dueStep = 1;
  const verdicts = expected.map((item) => {
    const expectation = expectationOf(item);
    const from = settings.order === "in-order" ? dueStep : 1;
    const found = calls.findIndex((c, i) => c.step >= from && !used.has(i) && matchesCall(expectation, c));
    if (found >= 0) {
      used.add(found);
      if (settings.order === "in-order") dueStep = calls[found]!.step;
      return verdict(item, expectation, "called", calls[found]!.step, calls[found]);
    }
    return missed(item, expectation, read, calls, used, from);
  });
  const otherCalls = calls.filter((_, i) => !used.has(i));
  const made = verdicts.filter((v) => v.verdict === "called").length;
  const total = expected.length + (settings.match === "exact" ? otherCalls.length : 0);
  return {
    score: total === 0 ? 1 : made / total,
    passed: made === expected.length && (settings.match === "subset" || otherCalls.length === 0),
    verdicts,
    otherCalls,
    options: settings,
  };
}

function many(
  runs: readonly ToolUseSource[] | readonly ToolUseScore[],
  expected: readonly ExpectedToolCall[] = [],
  options: ScoreToolUseOptions = {},
): ToolUseSummary {
  return summarize(runs.map((run) => (isScore(run) ? run : score(run, expected, options))));
}

/** Why an expected call was not made: out of order, on another entity, offered and not chosen, or not offered. */
function missed(
  item: ExpectedToolCall,
  expectation: Expectation,
  run: ToolUseRun,
  calls: readonly ToolUseCall[],
  used: ReadonlySet<number>,
  dueStep: number,
): ToolUseVerdict {
  const early = calls.findIndex((c, i) => c.step < dueStep && !used.has(i) && matchesCall(expectation, c));
  if (early >= 0) return verdict(item, expectation, "called-out-of-order", calls[early]!.step, calls[early]);
  const wrong = calls.find(
    (c, i) => c.step >= dueStep && !used.has(i) && onAnotherEntity(expectation, c, run),
  );
  if (wrong) return verdict(item, expectation, "called-on-another-entity", wrong.step, wrong);
  const due = run.steps.filter((s) => s.step >= dueStep);
  if (due.some((s) => s.offered !== undefined)) {
    const offeredSteps = due.filter((s) => offeredAt(expectation, s, run)).map((s) => s.step);
    return offeredSteps.length > 0
      ? { ...verdict(item, expectation, "offered-not-chosen", offeredSteps[0]), offeredAt: offeredSteps }
      : { ...verdict(item, expectation, "not-offered", dueStep), offeredAt: [] };
  }
  if (run.offeredInRun) {
    const offered = offeredAmong(expectation, run.offeredInRun, Number.POSITIVE_INFINITY, run);
    return verdict(item, expectation, offered ? "offered-not-chosen" : "not-offered");
  }
  return verdict(item, expectation, "not-called");
}

function verdict(
  expected: ExpectedToolCall,
  expectation: Expectation,
  kind: ToolUseVerdictKind,
  step?: number,
  call?: ToolUseCall,
): ToolUseVerdict {
  return {
    expected,
    label: expectation.label,
    verdict: kind,
    ...(step !== undefined ? { step } : {}),
    ...(call ? { call } : {}),
  };
}

function isScore(value: ToolUseSource | ToolUseScore): value is ToolUseScore {
  return typeof value === "object" && value !== null && "verdicts" in value && "score" in value;
}
