import type { ExpectedToolCall } from "./expected-call.js";
import type { ToolUseCall } from "./tool-use-run.js";

/** How expected calls are matched to a run's calls. */
export interface ScoreToolUseOptions {
  /**
   * `"in-order"` (default): each expected call must come after the call matched by the one before it;
   * `"any"`: in any order. Each call of the run matches at most one expected call.
   */
  readonly order?: "in-order" | "any" | undefined;
  /**
   * `"subset"` (default): the expected calls must be among the run's calls, which may make others too;
   * `"exact"`: every other call counts against the score as well.
   */
  readonly match?: "subset" | "exact" | undefined;
}

/**
 * What became of one expected call:
 * - `called`: the run made it;
 * - `called-out-of-order`: it made it, but not after the call expected before it (`order: "in-order"`);
 * - `called-on-another-entity`: it called the right method of the wrong provider;
 * - `offered-not-chosen`: the tool was offered (from when it was due) and the model chose otherwise: a
 *   description or model problem;
 * - `not-offered`: it was never among the tools offered when it was due: a discovery or budget problem;
 * - `not-called`: not made, and the source does not say what was offered.
 */
export type ToolUseVerdictKind =
  | "called"
  | "called-out-of-order"
  | "called-on-another-entity"
  | "offered-not-chosen"
  | "not-offered"
  | "not-called";

/** The verdict on one expected call. */
export interface ToolUseVerdict {
  /** The expected call, as given. */
  readonly expected: ExpectedToolCall;
  /** The expected call's name in reports. */
  readonly label: string;
  /** What became of it. */
  readonly verdict: ToolUseVerdictKind;
  /**
   * The step it is about: the call's (called, out of order, another entity), the first step it was offered
   * at (offered, not chosen), the step it was due from (not offered). Absent when the source knows what
   * was offered only for the run as a whole.
   */
  readonly step?: number;
  /** The matching call, or the call on another entity or out of order. */
  readonly call?: ToolUseCall;
  /** The steps, from when it was due, at which it was offered (when the source says). */
  readonly offeredAt?: readonly number[];
}

/** How well a run used its tools against what was expected. */
export interface ToolUseScore {
  /** From 0 to 1: expected calls made, over expected calls (`"exact"`: plus the other calls). */
  readonly score: number;
  /** Every expected call was made (and, `"exact"`, nothing else). */
  readonly passed: boolean;
  /** One per expected call, in the order given. */
  readonly verdicts: readonly ToolUseVerdict[];
  /** The run's calls that matched no expected call. */
  readonly otherCalls: readonly ToolUseCall[];
  /** The options it was scored with, defaults filled in. */
  readonly options: {
    readonly [K in keyof ScoreToolUseOptions]-?: Exclude<ScoreToolUseOptions[K], undefined>;
  };
}

/** Every verdict kind, best first. */
export const VERDICT_KINDS: readonly ToolUseVerdictKind[] = [
  "called",
  "called-out-of-order",
  "called-on-another-entity",
  "offered-not-chosen",
  "not-offered",
  "not-called",
];
