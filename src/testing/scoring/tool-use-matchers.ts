// Test helpers for scoreToolUse that need no test framework at run time: a plain assertion that throws
// with the verdicts, and matchers in the shape vitest's (and jest's) `expect.extend` takes.
import { EntityToolsError, InvalidSettingError } from "../../errors/entity-tools-error.js";
import type { ExpectedToolCall } from "./expected-call.js";
import { formatToolUseScore } from "./format-tool-use.js";
import { scoreToolUse } from "./score-tool-use.js";
import type { ToolUseSource } from "./tool-use-source.js";
import type { ScoreToolUseOptions, ToolUseScore } from "./tool-use-verdict.js";

/** A run did not use its tools as a test expected; the message lists every verdict. */
export class ToolUseExpectationError extends EntityToolsError {
  /** This class's name, written out so that a minified bundle keeps it. */
  static override readonly errorName: string = "ToolUseExpectationError";

  constructor(
    /** The score, with every verdict. */
    readonly score: ToolUseScore,
  ) {
    super(`The run did not use its tools as expected:\n${formatToolUseScore(score)}`);
  }
}

/**
 * Scores the run and throws {@link ToolUseExpectationError} (its message: every verdict, readably) unless
 * every expected call was made; returns the score otherwise. For any test framework.
 *
 * @throws ToolUseExpectationError
 */
export function expectToolUse(
  run: ToolUseSource,
  expected: readonly ExpectedToolCall[],
  options?: ScoreToolUseOptions,
): ToolUseScore {
  const score = scoreToolUse(run, expected, options);
  if (!score.passed) throw new ToolUseExpectationError(score);
  return score;
}

/** What a matcher receives as `this` from vitest or jest (only `isNot` is read). */
export interface ToolUseMatcherContext {
  /** True under `expect(…).not`. */
  readonly isNot?: boolean;
}

/** What a matcher returns to vitest or jest. */
export interface ToolUseMatcherResult {
  /** Whether the expectation holds. */
  readonly pass: boolean;
  /** The failure message: every verdict, readably. */
  readonly message: () => string;
}

/**
 * Matchers for `expect.extend(toolUseMatchers)` (vitest or jest). Declare them for the type checker once,
 * in a `.d.ts` of your tests: `declare module "vitest" { interface Assertion<T> extends ToolUseMatchers<T> {} }`.
 */
export const toolUseMatchers = {
  /** Passes when every expected call was made; fails listing every verdict. */
  toUseTools(
    this: ToolUseMatcherContext,
    received: ToolUseSource,
    expected: readonly ExpectedToolCall[],
    options?: ScoreToolUseOptions,
  ): ToolUseMatcherResult {
    const score = scoreToolUse(received, expected, options);
    return {
      pass: score.passed,
      message: () =>
        `expected the run ${this.isNot ? "not " : ""}to make every expected tool call\n${formatToolUseScore(score)}`,
    };
  },
  /**
   * Passes when the score is at least `minimum` (0 to 1); fails listing every verdict.
   *
   * @throws InvalidSettingError for a `minimum` that is no number from 0 to 1 (`80` for 80 %): no score
   * reaches it, so the matcher would always fail, and under `.not` always pass.
   */
  toScoreToolUseAtLeast(
    this: ToolUseMatcherContext,
    received: ToolUseSource,
    expected: readonly ExpectedToolCall[],
    minimum: number,
    options?: ScoreToolUseOptions,
  ): ToolUseMatcherResult {
    if (typeof minimum !== "number" || !(minimum >= 0 && minimum <= 1))
      throw new InvalidSettingError(
        "toScoreToolUseAtLeast's minimum",
        minimum,
        "a score from 0 to 1 (0.8 for 80 %)",
      );
    const score = scoreToolUse(received, expected, options);
    return {
      pass: score.score >= minimum,
      message: () =>
        `expected a tool-use score ${this.isNot ? "below" : "of at least"} ${minimum}\n${formatToolUseScore(score)}`,
    };
  },
};

/** The matchers' types, to merge into your test framework's assertion type (see {@link toolUseMatchers}). */
export interface ToolUseMatchers<R = unknown> {
  /** Every expected call was made. */
  toUseTools(expected: readonly ExpectedToolCall[], options?: ScoreToolUseOptions): R;
  /** The tool-use score is at least `minimum` (0 to 1). */
  toScoreToolUseAtLeast(
    expected: readonly ExpectedToolCall[],
    minimum: number,
    options?: ScoreToolUseOptions,
  ): R;
}
