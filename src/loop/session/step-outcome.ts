import type { ToolResultPart } from "ai";
import type { RestartRequest } from "../../strategies/tool-injection-strategy.js";
import type { PendingApproval } from "../execution/approval-gate.js";

/**
 * What happens after a step of a run, as a value: go on, stop with the final answer, or start again from
 * the prompt because a strategy asked for it. Exceptions are for failures only.
 */
export type StepOutcome =
  /** `reply`: the text sent back to the model (a repair request), for backends that take input turn by turn. */
  | { readonly type: "continue"; readonly reply?: string }
  | { readonly type: "final"; readonly answer: unknown }
  | { readonly type: "restart"; readonly request: RestartRequest }
  /** Calls wait for a person's decision: the run stops before them (resume with a snapshot). */
  | { readonly type: "pause"; readonly pending: readonly PendingApproval[] };

/** What happens after the calls of one response, and each call's result, in order. */
export interface ToolCallsOutcome {
  readonly next: StepOutcome;
  readonly results: readonly ToolResultPart[];
}

/**
 * How a run's attempt ended: with an answer, paused, or asking to start again. What the run added is the
 * run's to tell (`Run.injectedTools`).
 */
export type RunEnd = Exclude<StepOutcome, { type: "continue" }>;
